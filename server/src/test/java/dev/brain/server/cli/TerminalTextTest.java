package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.BrainConfig;
import dev.brain.server.http.BrainServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A note written to attack the terminal that shows it: its title retitles the terminal ({@code
 * ESC]0;owned BEL}), its body clears the screen ({@code ESC[2J}) and its file name holds a line
 * break. {@code brain search}, {@code get}, {@code research} and {@code status}, in this process
 * and through a server, print no raw control character, and every row stays one line.
 */
class TerminalTextTest {
  private static final String TITLE_ATTACK = "\u001b]0;owned\u0007";
  private static final String CLEAR = "\u001b[2J";

  @TempDir static Path tmp;
  static Path data;
  static String key;

  record Run(int code, String out, String err) {}

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeAll
  static void indexAHostileNote() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("evil\nname" + CLEAR + ".md"),
        "# Kettle " + TITLE_ATTACK + " notes\n\nThe gooseneck kettle " + CLEAR + "pours slowly.\n");
    data = tmp.resolve("data");
    var add = brain("--data", data.toString(), "add", vault.toString(), "--no-progress");
    assertThat(add.code()).as(add.err()).isZero();
    key = "note:vault/evil\nname" + CLEAR + ".md";
  }

  @Test
  void escapesEveryControlCharacterAndKeepsLayoutOnlyInText() {
    assertThat(TerminalText.line("a\u001b[2Jb\nc\td\re\u0007\u009b\u202e\u2028"))
        .isEqualTo("a\\e[2Jb\\nc\\td\\re\\x07\\u009b\\u202e\\u2028");
    assertThat(TerminalText.text("a\nb\tc\u001b]0;x\u0007")).isEqualTo("a\nb\tc\\e]0;x\\x07");
    assertThat(TerminalText.line("café ☕ plain")).isEqualTo("café ☕ plain");
    assertThat(TerminalText.line(null)).isNull();
  }

  @Test
  void theWriterEscapesAndEachLineReachesABufferedStream() {
    // The CLI's stdout is a PrintWriter over System.out that flushes on println only.
    var bytes = new java.io.ByteArrayOutputStream();
    var out = TerminalText.writer(new PrintWriter(bytes, true));
    out.println("title " + TITLE_ATTACK);
    out.printf("%s%n", CLEAR);
    assertThat(bytes.toString(java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo("title \\e]0;owned\\x07\n\\e[2J\n");
  }

  @Test
  void searchAndGetPrintTheNoteEscapedWithOneLinePerRow() {
    for (var run :
        List.of(
            brain("--data", data.toString(), "search", "--local", "gooseneck kettle"),
            brain("--data", data.toString(), "get", "--local", key),
            brain(
                "--data",
                data.toString(),
                "research",
                "--local",
                "--retrieval-only",
                "gooseneck kettle"))) {
      assertThat(run.code()).as(run.err()).isZero();
      assertNoRawControls(run);
      assertThat(run.out())
          .contains("evil\\nname\\e[2J.md")
          .contains("Kettle \\e]0;owned\\x07 notes");
    }
    var search = brain("--data", data.toString(), "search", "--local", "gooseneck kettle");
    String row = search.out().lines().filter(l -> l.startsWith(" 1. ")).findFirst().orElseThrow();
    assertThat(row).isEqualTo(" 1. note:vault/evil\\nname\\e[2J.md  Kettle \\e]0;owned\\x07 notes");
    var get = brain("--data", data.toString(), "get", "--local", key);
    assertThat(get.out().lines().findFirst().orElseThrow())
        .isEqualTo("note:vault/evil\\nname\\e[2J.md");
    assertThat(brain("--data", data.toString(), "get", "--local", key + "x").err())
        .doesNotContain("\u001b")
        .contains("no record with key 'note:vault/evil\\nname\\e[2J.mdx'");
  }

  @Test
  void jsonOutputIsValidJsonWithTheControlsEscaped() throws IOException {
    for (String command : List.of("search", "get")) {
      var args = new ArrayList<>(List.of("--data", data.toString(), command, "--local", "--json"));
      args.add(command.equals("get") ? key : "gooseneck");
      var run = brain(args.toArray(String[]::new));
      assertThat(run.code()).as(run.err()).isZero();
      assertNoRawControls(run);
      assertThat(new ObjectMapper().readTree(run.out()).toString()).contains("owned");
    }
  }

  @Test
  void throughAServerTheOutputIsAsEscaped() throws IOException {
    var config = BrainConfig.defaults(data);
    try (var server =
            BrainServer.start(
                config.withServer(config.server().withPort(0)), ServerCommands.INSTANCE);
        var ad = ServerAdvertisement.publish(data, server)) {
      assertThat(ad.advertisement().pid()).isEqualTo(ProcessHandle.current().pid());
      for (var args :
          List.of(
              List.of("search", "gooseneck kettle"),
              List.of("get", key),
              List.of("status"),
              List.of("research", "--retrieval-only", "gooseneck kettle"))) {
        var all = new ArrayList<>(List.of("--data", data.toString()));
        all.addAll(args);
        var served = brain(all.toArray(String[]::new));
        all.add(3, "--local");
        var local = brain(all.toArray(String[]::new));
        assertThat(served.code()).as(served.err()).isZero();
        assertNoRawControls(served);
        assertThat(served.out().replaceAll("[0-9.]+ ms", "N ms"))
            .isEqualTo(local.out().replaceAll("[0-9.]+ ms", "N ms"));
      }
    }
  }

  @Test
  void indexPrintsASkippedFileNameAndItsReasonEscapedOnOneLine() throws IOException {
    Path vault = Files.createDirectories(tmp.resolve("skipping"));
    Files.writeString(vault.resolve("bin" + TITLE_ATTACK + ".md"), "a\0\0b\n");
    Path skipping = tmp.resolve("skipping-data");
    var add = brain("--data", skipping.toString(), "add", vault.toString(), "--no-progress");
    var index = brain("--data", skipping.toString(), "index", "--no-progress", "--rebuild");
    for (var run : List.of(add, index)) {
      assertNoRawControls(run);
      assertThat(run.out().lines().filter(l -> l.startsWith("  skipped ")))
          .as(run.out() + run.err())
          .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .contains("bin\\e]0;owned\\x07.md: ");
    }
  }

  @Test
  void watchPrintsCollectionNamesAndFailuresEscaped() {
    var bytes = new StringWriter();
    var listener = WatchCommand.lines(new PrintWriter(bytes, true));
    listener.failed(
        List.of("notes"), new IOException("cannot read bin" + TITLE_ATTACK + "\nforged line"));
    assertThat(bytes.toString())
        .isEqualTo("sync of notes failed: cannot read bin\\e]0;owned\\x07\\nforged line\n");
  }

  private static void assertNoRawControls(Run run) {
    for (String text : List.of(run.out(), run.err())) {
      assertThat(text.chars().filter(c -> c < 0x20 && c != '\n' && c != '\t').count())
          .as(text)
          .isZero();
    }
  }
}
