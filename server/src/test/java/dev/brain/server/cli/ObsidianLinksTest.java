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

  @Test
  void brainYamlIsReadAgainOnlyWhenItChanged() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("data"));
    Path yaml = data.resolve("brain.yaml");
    var file = dev.brain.index.CollectionsFile.of(data);
    Files.writeString(yaml, "collections:\n  - name: \"aa\"\n    root: \"/notes/aa\"\n");
    var old = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000);
    Files.setLastModifiedTime(yaml, old);
    assertThat(ObsidianLinks.collections(file)).extracting("name").containsExactly("aa");

    // Rewritten in place to the same size with its time put back: to a reader of times, unchanged.
    Files.writeString(yaml, "collections:\n  - name: \"bb\"\n    root: \"/notes/bb\"\n");
    Files.setLastModifiedTime(yaml, old);
    assertThat(ObsidianLinks.collections(file)).extracting("name").containsExactly("aa");

    // Any change of its time (an editor's save) is read.
    Files.setLastModifiedTime(
        yaml, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 30_000));
    assertThat(ObsidianLinks.collections(file)).extracting("name").containsExactly("bb");
  }

  @Test
  void aBrainYamlWrittenJustNowIsNotTrustedByItsTime() throws Exception {
    Path data = Files.createDirectories(tmp.resolve("data"));
    Path yaml = data.resolve("brain.yaml");
    var file = dev.brain.index.CollectionsFile.of(data);
    Files.writeString(yaml, "collections:\n  - name: \"aa\"\n    root: \"/notes/aa\"\n");
    var now = java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis());
    Files.setLastModifiedTime(yaml, now);
    assertThat(ObsidianLinks.collections(file)).extracting("name").containsExactly("aa");

    // A second write within the same tick of the file's clock: the time alone cannot tell.
    Files.writeString(yaml, "collections:\n  - name: \"bb\"\n    root: \"/notes/bb\"\n");
    Files.setLastModifiedTime(yaml, now);
    assertThat(ObsidianLinks.collections(file)).extracting("name").containsExactly("bb");
  }
}
