package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.CorpusRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ImportersTest {

  private final Importers importers = Importers.defaults();

  @Test
  void walkListsVisibleFilesInPathOrderAndSkipsHiddenAndOwnFolders(@TempDir Path root)
      throws Exception {
    for (String path :
        List.of(
            "b.md",
            "A.md",
            "sub/c.md",
            ".hidden.md",
            ".obsidian/workspace.json",
            ".git/HEAD",
            ".trash/old.md",
            "research-runs/run/run.md",
            "chat-transcripts/t.md",
            "lucene/write.lock",
            "lucene/_0.cfs",
            "sub/photo.png")) {
      Path file = root.resolve(path);
      Files.createDirectories(file.getParent());
      Files.writeString(file, "x");
    }

    assertThat(importers.walk(root))
        .extracting(p -> root.relativize(p).toString().replace('\\', '/'))
        .containsExactly("A.md", "b.md", "sub/c.md", "sub/photo.png");
  }

  @Test
  void walkOfAFileIsThatFile(@TempDir Path root) throws Exception {
    Path file = Files.writeString(root.resolve("one.md"), "x");

    assertThat(importers.walk(file)).containsExactly(file);
  }

  @Test
  void readsPlainTextAsANote() throws Exception {
    Path vault = Fixtures.formats("vault");
    CorpusRecord note = importers.read(vault.resolve("todo.txt"), vault).records().get(0);

    assertThat(note.key()).isEqualTo("note:vault/todo.txt");
    assertThat(note.sourceType()).isEqualTo("note");
    assertThat(note.kind()).isEqualTo(CorpusRecord.KIND_ITEM);
    assertThat(note.title()).isEqualTo("todo");
    assertThat(note.tags()).containsExactly("shopping");
    assertThat(note.links()).containsExactly(Keys.source("https://example.com/beans"));
    assertThat(note.text()).isEqualTo("Buy beans #shopping\nhttps://example.com/beans");
  }

  @Test
  void unknownExtensionsAreSkippedAsUnsupported() {
    assertThatThrownBy(() -> Fixtures.read("image.png"))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isTrue())
        .hasMessageContaining("unsupported file type .png");
  }

  @Test
  void binaryContentUnderATextExtensionIsSkippedAsUnsupported() {
    assertThatThrownBy(() -> Fixtures.read("binary.md"))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isTrue())
        .hasMessageContaining("binary content");
  }

  @Test
  void aFileReadAloneIsRelativeToItsFolder() throws Exception {
    Path file = Fixtures.formats("vault/gear/Niche Zero.md");

    assertThat(importers.read(file, file).records().get(0).key())
        .isEqualTo("note:gear/Niche Zero.md");
  }

  @Test
  void readsUtf16TextWithAByteOrderMark(@TempDir Path root) throws Exception {
    Path file = root.resolve("utf16.txt");
    Files.write(file, "\uFEFFcafé crème".getBytes(java.nio.charset.StandardCharsets.UTF_16LE));

    assertThat(importers.read(file, root).records().get(0).text()).isEqualTo("café crème");
  }

  @Test
  void aMissingFileIsMalformedNotAnUncheckedError(@TempDir Path root) {
    assertThatThrownBy(() -> importers.read(root.resolve("gone.md"), root))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isFalse());
  }

  @Test
  void noFixtureFailsWithAnythingButAnImportException() throws Exception {
    for (Path file : importers.walk(Fixtures.formats())) {
      try {
        importers.read(file, Fixtures.formats());
      } catch (ImportException e) {
        assertThat(e.file()).isEqualTo(file);
        assertThat(e.getMessage()).isNotBlank();
      }
    }
  }
}
