package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.models.chat.FakeOpenAiServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code brain research} over a three-note vault indexed once for the class. */
class ResearchCommandTest {

  @TempDir static Path tmp;
  static String data;

  /** The planner model's server ({@code openai/planner}); named only by the planner tests. */
  static FakeOpenAiServer openai;

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
    // The planner tests' model server; a model takes part only where a test names one.
    openai = FakeOpenAiServer.start();
    Files.writeString(
        Path.of(data, "brain.yaml"),
        "\nchat:\n  openai-url: " + openai.baseUrl() + "\n",
        java.nio.file.StandardOpenOption.APPEND);
  }

  @AfterAll
  static void stopThePlannerServer() {
    if (openai != null) {
      openai.close();
    }
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
        .contains("but nothing about “Durgol”.")
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

  private static final String PLANNER = "openai/planner";

  /** A plan that adds a concept and a variant, so a run that uses it is model-assisted. */
  private static final String PLAN =
      "{\"concepts\":[{\"preferred\":\"descaling\",\"terms\":[\"decalcify\"]}],"
          + "\"variants\":[{\"query\":\"descale interval citric acid\",\"reason\":\"when\"}]}";

  private static final String STRONG_QUESTION = "How often should I descale the machine?";

  /** How many plans the planner model was asked for so far. */
  private static long plansAsked() {
    return openai.requests().stream().filter(r -> r.path().endsWith("/chat/completions")).count();
  }

  private static JsonNode queryPlan(Run run) throws IOException {
    assertThat(run.code()).as(run.err()).isZero();
    return PrettyJson.MAPPER.readTree(run.out()).at("/pack/query_plan");
  }

  @Test
  void plannerFlagAsksThePlannerModelEvenWhenTheDeterministicPlanIsStrong() throws IOException {
    long before = plansAsked();
    JsonNode auto =
        queryPlan(
            brain(
                "--data", data, "research", "--json", "--planner-model", PLANNER, STRONG_QUESTION));
    assertThat(plansAsked())
        .as("policy auto: strong evidence needs no model plan")
        .isEqualTo(before);
    assertThat(auto.path("planner").asText()).isEqualTo("deterministic");

    openai.enqueue(FakeOpenAiServer.answer("planner", List.of(PLAN), 100, 40));
    JsonNode forced =
        queryPlan(
            brain(
                "--data",
                data,
                "research",
                "--json",
                "--planner",
                "--planner-model",
                PLANNER,
                STRONG_QUESTION));

    assertThat(plansAsked()).isEqualTo(before + 1);
    assertThat(forced.path("planner").asText()).isEqualTo("model_assisted");
    assertThat(forced.path("planner_model").asText()).isEqualTo(PLANNER);
    assertThat(forced.toString()).contains("descale interval citric acid");
  }

  @Test
  void noPlannerNeverAsksThePlannerModel() throws IOException {
    long before = plansAsked();
    JsonNode plan =
        queryPlan(
            brain(
                "--data",
                data,
                "research",
                "--json",
                "--no-planner",
                "--planner-model",
                PLANNER,
                "How often should I descale the Rancilio Silvia?"));

    assertThat(plansAsked()).isEqualTo(before);
    assertThat(plan.path("planner").asText()).isEqualTo("deterministic");
    assertThat(plan.path("planner_error").isMissingNode() || plan.path("planner_error").isNull())
        .isTrue();
  }

  @Test
  void plannerTimeoutBoundsTheModelAndTheRunAnswersFromTheDeterministicPlan() throws IOException {
    // The model sends headers, then nothing until the server closes: only the timeout ends it.
    openai.enqueue(FakeOpenAiServer.stream().thenHang());

    Run run =
        brain(
            "--data",
            data,
            "research",
            "--json",
            "--planner",
            "--planner-model",
            PLANNER,
            "--planner-timeout",
            "300ms",
            STRONG_QUESTION);

    JsonNode result = PrettyJson.MAPPER.readTree(run.out());
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(result.at("/pack/query_plan/planner").asText()).isEqualTo("deterministic");
    assertThat(result.at("/pack/query_plan/planner_error").asText()).startsWith("timeout");
    assertThat(result.at("/synthesis/answer").asText()).contains("every eight weeks");
  }

  @Test
  void plannerWithoutAPlannerModelIsAUsageErrorSayingWhatToGive() {
    Run run = brain("--data", data, "research", "--planner", "espresso");

    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_USAGE);
    assertThat(run.err())
        .startsWith("brain: flag --planner needs a planner model: give --planner-model")
        .doesNotContain("Exception")
        .doesNotContain("Usage:");
  }

  @Test
  void aPlannerTimeoutThatIsNoDurationIsAUsageErrorNamingTheFlag() {
    for (String bad : List.of("soon", "-5s", "0ms")) {
      Run run = brain("--data", data, "research", "--planner-timeout", bad, "espresso");

      assertThat(run.code()).as(bad + ": " + run.err()).isEqualTo(BrainCommand.EXIT_USAGE);
      assertThat(run.err())
          .contains("flag --planner-timeout: research.planner-timeout = '" + bad + "' is")
          .contains("written like 500ms, 20s, 3m")
          .doesNotContain("Exception");
    }
  }

  @Test
  void topicAsksForATopicBriefAsTopicBriefDoes() throws IOException {
    String narrow = STRONG_QUESTION; // a fact question: no brief unless asked for
    JsonNode plain =
        PrettyJson.MAPPER.readTree(
            brain("--data", data, "research", "--retrieval-only", "--json", narrow).out());
    JsonNode topic =
        PrettyJson.MAPPER.readTree(
            brain("--data", data, "research", "--retrieval-only", "--json", "--topic", narrow)
                .out());
    String broad = "notes tagged #coffee";
    JsonNode broadPlain =
        PrettyJson.MAPPER.readTree(
            brain("--data", data, "research", "--retrieval-only", "--json", broad).out());
    JsonNode noTopic =
        PrettyJson.MAPPER.readTree(
            brain(
                    "--data",
                    data,
                    "research",
                    "--retrieval-only",
                    "--json",
                    "--no-topic-brief",
                    broad)
                .out());

    assertThat(plain.has("topic_brief")).isFalse();
    assertThat(topic.at("/query_plan/include_topic_brief").asBoolean()).isTrue();
    assertThat(topic.path("topic_brief").isObject()).isTrue();
    assertThat(broadPlain.path("topic_brief").isObject())
        .as("a tag question: brief by default")
        .isTrue();
    assertThat(noTopic.has("topic_brief")).isFalse();
  }
}
