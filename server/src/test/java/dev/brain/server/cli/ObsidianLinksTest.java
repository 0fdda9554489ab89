package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code obsidian://open} links under the search rows of notes in an Obsidian vault. */
class ObsidianLinksTest {

  @TempDir Path tmp;

  private record Run(int code, String out, String err) {}

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void notesOfAVaultGetALinkAndNotesOfAPlainFolderNone() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("My Garden"));
    Files.createDirectories(vault.resolve(".obsidian"));
    Files.createDirectories(vault.resolve("brewing"));
    Files.writeString(
        vault.resolve("brewing/Pour over.md"), "# Pour over\n\nThe gooseneck kettle pours slowly.");
    Path plain = Files.createDirectories(tmp.resolve("plain"));
    Files.writeString(plain.resolve("scale.md"), "# Scale\n\nThe gooseneck scale weighs beans.");
    String data = tmp.resolve("data").toString();
    for (Path root : new Path[] {vault, plain}) {
      var add = brain("--data", data, "index", root.toString());
      assertThat(add.code()).as(add.err()).isZero();
    }

    var run = brain("--data", data, "search", "--local", "--no-semantic", "gooseneck");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("obsidian://open?vault=My%20Garden&file=brewing%2FPour%20over.md")
        .contains("scale.md");
    assertThat(run.out().lines().filter(l -> l.contains("obsidian://")).count()).isEqualTo(1);
  }

  @Test
  void onlyNoteKeysOfKnownVaultsGetLinks() {
    var links = new ObsidianLinks(Map.of("garden", "Garden"));
    assertThat(links.link("note:garden/a b.md", "a b.md"))
        .contains("obsidian://open?vault=Garden&file=a%20b.md");
    assertThat(links.link("note:other/a.md", "a.md")).isEmpty();
    assertThat(links.link("src:https://example.com/", null)).isEmpty();
    assertThat(links.link("note:garden", "x.md")).isEmpty();
  }
}
