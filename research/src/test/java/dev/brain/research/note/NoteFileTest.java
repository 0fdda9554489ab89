package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.CollectionRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NoteFileTest {

  @TempDir Path dir;
  Path vault;
  List<CollectionRoot> collections;

  @BeforeEach
  void vault() throws IOException {
    vault = Files.createDirectories(dir.resolve("vault/sub"));
    vault = vault.getParent();
    collections = List.of(CollectionRoot.of("notes", vault));
  }

  @Test
  void readsANoteInsideACollectionWithItsKey() throws IOException {
    Path note = Files.writeString(vault.resolve("sub/A note.md"), "# A\n\ntext é\n");
    NoteFile f = NoteFile.read(note, collections);
    assertThat(f.key()).isEqualTo("note:notes/sub/A note.md");
    assertThat(f.text()).isEqualTo("# A\n\ntext é\n");
  }

  @Test
  void readsAnMdxPageLikeAMarkdownNote() throws IOException {
    Path page = Files.writeString(vault.resolve("guide.mdx"), "# Guide\n\ntext\n");
    assertThat(NoteFile.read(page, collections).key()).isEqualTo("note:notes/guide.mdx");
  }

  @Test
  void refusesOtherExtensions() throws IOException {
    Path pdf = Files.write(vault.resolve("paper.pdf"), new byte[] {1, 2, 3});
    assertThatThrownBy(() -> NoteFile.read(pdf, collections))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("only .md, .markdown, .mdx and .txt");
  }

  @Test
  void refusesBinaryContentBehindATextExtension() throws IOException {
    Path bin =
        Files.write(vault.resolve("image.md"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1});
    assertThatThrownBy(() -> NoteFile.read(bin, collections))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("looks binary");
  }

  @Test
  void refusesAPathOutsideTheCollections() throws IOException {
    Path outside = Files.writeString(dir.resolve("elsewhere.md"), "# x\n");
    assertThatThrownBy(() -> NoteFile.read(outside, collections))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("not inside a configured collection");
    Path traversal = vault.resolve("../elsewhere.md");
    assertThatThrownBy(() -> NoteFile.read(traversal, collections))
        .hasMessageContaining("not inside a configured collection");
  }

  @Test
  void refusesASymlinkThatEscapesTheCollection() throws IOException {
    Path outside = Files.writeString(dir.resolve("secret.md"), "# secret\n");
    Path link = Files.createSymbolicLink(vault.resolve("link.md"), outside);
    assertThatThrownBy(() -> NoteFile.read(link, collections))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("not inside a configured collection");
  }

  @Test
  void refusesAMissingNote() {
    assertThatThrownBy(() -> NoteFile.read(vault.resolve("nope.md"), collections))
        .isInstanceOf(NoteResearchException.class)
        .extracting(e -> ((NoteResearchException) e).reason())
        .isEqualTo(NoteResearchException.Reason.NOT_FOUND);
  }

  @Test
  void writesAtomicallyAndRefusesWhenTheFileChangedSinceItWasRead() throws IOException {
    Path note = Files.writeString(vault.resolve("n.md"), "# N\n");
    NoteFile f = NoteFile.read(note, collections);
    f.write("# N\n\n## Research\n");
    assertThat(Files.readString(note)).isEqualTo("# N\n\n## Research\n");
    try (var files = Files.list(vault)) {
      assertThat(files.map(p -> p.getFileName().toString())).doesNotContain(".n.md.tmp");
    }
    NoteFile g = NoteFile.read(note, collections);
    Files.writeString(note, "# N\n\nmy edit\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> g.write("# N\n\n## Research\n"))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("changed while it was being researched");
    assertThat(Files.readString(note)).isEqualTo("# N\n\nmy edit\n");
  }
}
