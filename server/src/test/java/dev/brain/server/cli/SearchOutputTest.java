package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code brain search} prints: weak rows flagged as the web flags them, and when none fit. */
class SearchOutputTest {
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
  static void index() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("descaling.md"),
        "# Descaling\n\nDescale the espresso machine every eight weeks with citric acid.\n");
    Files.writeString(vault.resolve("kettle.md"), "# Kettle\n\nThe gooseneck kettle pours.\n");
    data = tmp.resolve("data").toString();
    assertThat(brain("--data", data, "add", vault.toString(), "--no-progress").code()).isZero();
  }

  @Test
  void aNonsenseQuerySaysNothingMatchedWellAndFlagsEveryRow() {
    Run run = brain("--data", data, "search", "--local", "zorbly quixotic flanges");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("nothing matched \"zorbly quixotic flanges\" well");
    assertThat(run.out()).contains("[weak match: missing zorbly quixotic flanges]");
  }

  @Test
  void aOneHitQueryShowsItsHitAndSaysHowManyWeakRowsWereLeftOut() throws Exception {
    Run run = brain("--data", data, "search", "--local", "citric acid");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("descaling.md").doesNotContain("kettle.md");
    assertThat(run.out()).contains("1 weaker row left out: found by meaning alone");

    Run json = brain("--data", data, "search", "--local", "--json", "citric acid");
    var result = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out());
    assertThat(result.path("rows")).hasSize(1);
    assertThat(result.path("weak_rows_left_out").asInt()).isEqualTo(1);
  }

  @Test
  void aGoodMatchIsNotFlagged() {
    Run run = brain("--data", data, "search", "--local", "descale citric acid");
    assertThat(run.out()).doesNotContain("nothing matched").contains("descaling.md");
    assertThat(run.out().lines().filter(l -> l.contains("descaling.md")).findFirst().orElseThrow())
        .doesNotContain("weak match");
  }
}
