package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configuration and index a search reads, read and opened while the command line is parsed
 * ({@link OpenAhead}): the command takes them only for the same data directory, prints what it
 * prints without them, and meets the same errors.
 */
class OpenAheadTest {
  @TempDir static Path tmp;
  static Path data;

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
    data = tmp.resolve("data");
    assertThat(brain("--data", data.toString(), "add", vault.toString(), "--no-progress").code())
        .isZero();
  }

  @AfterEach
  void forget() {
    OpenAhead.reset();
  }

  @Test
  void aSearchTakesTheBrainOpenedAheadAndPrintsWhatItPrintsWithout() {
    String[] search = {"--data", data.toString(), "search", "--local", "--lanes", "bm25", "acid"};
    Run without = brain(search);
    assertThat(without.code()).as(without.err()).isZero();
    assertThat(without.out()).contains("descaling.md");

    OpenAhead.start(data);
    Run with = brain(search);

    assertThat(with.code()).isZero();
    assertThat(withoutTimes(with.out())).isEqualTo(withoutTimes(without.out()));
    assertThat(with.err()).isEqualTo(without.err());
    var config = OpenAhead.config(data);
    assertThat(config).isPresent();
    assertThat(OpenAhead.takeBrain(config.get())).as("taken by the search").isEmpty();
  }

  /** The lanes' times, the one part of a search's output that differs between runs. */
  private static String withoutTimes(String out) {
    return out.replaceAll("[0-9.]+ ms", "N ms");
  }

  @Test
  void getTakesTheBrainOpenedAheadToo() {
    OpenAhead.start(data);
    Run run = brain("--data", data.toString(), "get", "--local", "note:vault/kettle.md");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("gooseneck kettle");
    assertThat(OpenAhead.takeBrain(OpenAhead.config(data).orElseThrow())).isEmpty();
  }

  @Test
  void aCommandOnAnotherDataDirectoryReadsItsOwn() throws IOException {
    Path other = tmp.resolve("other");
    // BM25 alone: a search with the vector lane starts loading the model, which no test awaits.
    String[] search = {"--data", other.toString(), "search", "--local", "--lanes", "bm25", "acid"};
    Run without = brain(search);

    OpenAhead.start(data);
    Run with = brain(search);

    assertThat(without.code()).isEqualTo(1);
    assertThat(without.err()).contains("no index at " + other.resolve("index"));
    assertThat(with).isEqualTo(without);
    assertThat(OpenAhead.config(other)).isEmpty();
    var config = OpenAhead.config(data);
    assertThat(config).isPresent();
    var left = OpenAhead.takeBrain(config.get());
    assertThat(left).as("left for its own directory").isPresent();
    left.get().close();
  }

  @Test
  void aConfigurationThatCannotBeUsedFailsInTheCommandAsWithoutReadingAhead() throws IOException {
    Path bad = Files.createDirectories(tmp.resolve("bad"));
    Files.writeString(bad.resolve("brain.yaml"), "retrieval:\n  fusion: borda\n");
    String[] search = {"--data", bad.toString(), "search", "--local", "--lanes", "bm25", "acid"};
    Run without = brain(search);

    OpenAhead.start(bad);
    Run with = brain(search);

    assertThat(without.code()).isEqualTo(1);
    assertThat(without.err()).contains("brain.yaml line 2: retrieval.fusion = 'borda'");
    assertThat(with).isEqualTo(without);
  }
}
