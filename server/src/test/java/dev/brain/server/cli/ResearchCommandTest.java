package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code brain research} over a three-note vault indexed once for the class. */
class ResearchCommandTest {

  @TempDir static Path tmp;
  static String data;

  record Run(int code, String out, String err) {}

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeAll
  static void indexAVault() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("espresso.md"),
        "---\ntags: [coffee]\n---\n# Espresso\n\nI pull 18 g in and 36 g out in 28 seconds."
            + " The grinder sits at setting 12 for espresso.\n");
    Files.writeString(
        vault.resolve("descaling.md"),
        "# Descaling\n\nDescale the machine every eight weeks with citric acid, never vinegar.\n");
    Files.writeString(
        vault.resolve("tomatoes.md"),
        "---\ntags: [garden]\n---\n# Tomatoes\n\nSungold gave 4.2 kg per plant in 2024.\n");
    data = tmp.resolve("data").toString();
    Run index = brain("--data", data, "index", vault.toString());
    assertThat(index.code()).as(index.err()).isZero();
  }

  @Test
  void answersWithCitationsAndListsTheSources() {
    Run run = brain("--data", data, "research", "How often should I descale the machine?");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("Descale the machine every eight weeks", "[note:vault/descaling.md]")
        .contains(
            "Sources:",
            "[1] note:vault/descaling.md  Descaling",
            "item/note · descaling.md · role raw")
        .contains("status: ok · answer by extractive");
  }

  @Test
  void aPartialAnswerIsHeadedAsSuchAndSaysWhatTheNotesLack() {
    Run run =
        brain("--data", data, "research", "How often should I descale the machine with Durgol?");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .startsWith("Partial answer: your notes cover only part of this question.")
        .contains("Descale the machine every eight weeks", "[note:vault/descaling.md]")
        .contains("but nothing about “durgol”.")
        .contains("status: partial · answer by extractive");
  }

  @Test
  void retrievalOnlyPrintsThePackAsJson() throws IOException {
    Run run =
        brain(
            "--data",
            data,
            "research",
            "--retrieval-only",
            "--json",
            "--no-semantic",
            "grinder setting for espresso");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode pack = PrettyJson.MAPPER.readTree(run.out());
    assertThat(pack.path("schema_version").asText()).isEqualTo("research_pack.v1");
    assertThat(pack.at("/evidence/0/source_key").asText()).isEqualTo("note:vault/espresso.md");
    assertThat(pack.at("/query_plan/retrieval_lanes").toString()).doesNotContain("vector");
  }

  @Test
  void jsonPrintsTheWholeResultWithItsVerification() throws IOException {
    Run run = brain("--data", data, "research", "--json", "Which tomato gave the most per plant?");

    assertThat(run.code()).as(run.err()).isZero();
    JsonNode result = PrettyJson.MAPPER.readTree(run.out());
    assertThat(result.path("schema_version").asText()).isEqualTo("research_run.v1");
    assertThat(result.at("/synthesis/schema_version").asText()).isEqualTo("research_synthesis.v1");
    assertThat(result.at("/verification/passed").asBoolean()).isTrue();
    assertThat(result.at("/synthesis/citations/0/source_key").asText())
        .isEqualTo("note:vault/tomatoes.md");
  }

  @Test
  void questionWithoutEvidenceSaysSoAndExitsZero() {
    Run run = brain("--data", data, "research", "What is the capital of Mongolia?");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("No evidence").contains("status: no_evidence");
    assertThat(run.out()).doesNotContain("Sources:");
    assertThat(run.out())
        .containsPattern("Nearest in meaning.*\\n  note:vault/\\S+.*\\(cosine 0\\.\\d+\\)");
  }

  @Test
  void researchLimitsOfBrainYamlApplyAndFlagsOverrideThem() throws IOException {
    Path beans = Files.createDirectories(tmp.resolve("beans"));
    for (String origin : List.of("Ethiopia", "Kenya", "Colombia")) {
      Files.writeString(
          beans.resolve(origin.toLowerCase(Locale.ROOT) + ".md"),
          "# "
              + origin
              + "\n\nEspresso from "
              + origin
              + " beans wants a fine grind and a long, slow pull of thirty seconds.\n");
    }
    String limited = tmp.resolve("data-limited").toString();
    Run index = brain("--data", limited, "index", beans.toString());
    assertThat(index.code()).as(index.err()).isZero();
    String question = "espresso beans grind";
    assertThat(
            evidence(brain("--data", limited, "research", "--retrieval-only", "--json", question)))
        .hasSize(3);
    Files.writeString(
        Path.of(limited, "brain.yaml"),
        "research:\n  limit: 1\n  max-chars-per-doc: 40\n",
        java.nio.file.StandardOpenOption.APPEND);

    JsonNode configured =
        evidence(brain("--data", limited, "research", "--retrieval-only", "--json", question));
    JsonNode flagged =
        evidence(
            brain(
                "--data",
                limited,
                "research",
                "--retrieval-only",
                "--json",
                "--limit",
                "2",
                question));

    assertThat(configured).hasSize(1);
    assertThat(configured.at("/0/excerpt").asText().length()).isLessThanOrEqualTo(41);
    assertThat(flagged).hasSize(2);
  }

  private static JsonNode evidence(Run run) throws IOException {
    assertThat(run.code()).as(run.err()).isZero();
    return PrettyJson.MAPPER.readTree(run.out()).path("evidence");
  }

  @Test
  void unknownSourceTypeIsAUsageError() {
    Run run = brain("--data", data, "research", "--source-type", "fax", "espresso");

    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_USAGE);
    assertThat(run.err()).contains("unknown source type 'fax'");
  }

  @Test
  void aQuestionLongerThanEverySurfaceAcceptsIsAUsageErrorThatDoesNotRepeatIt() {
    String pasted = "espresso grind ".repeat(400);

    Run run = brain("--data", data, "research", pasted);

    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_USAGE);
    assertThat(run.err())
        .contains("the question is 6000 characters long; at most 4000 are accepted")
        .doesNotContain("espresso grind espresso grind");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void aFlagValueOutOfRangeIsAUsageErrorNamingTheFlag() {
    Run run = brain("--data", data, "research", "--limit", "0", "espresso");

    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_USAGE);
    assertThat(run.err()).contains("flag --limit: research.limit = '0' is out of range");
  }
}
