package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.index.CorpusRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
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
    assertThat(note.dateSource()).isEqualTo(CorpusRecord.DATE_FILE_TIME);
    assertThat(note.updatedAt()).isEqualTo(note.createdAt());
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
  void aStrayNulInATextNoteIsDroppedAndTheNoteRead(@TempDir Path root) throws Exception {
    Path note =
        Files.write(
            root.resolve("nul.md"),
            "# Nul\n\nThe capybara\0 swims\0 daily.\n".getBytes(StandardCharsets.UTF_8));

    CorpusRecord record = importers.read(note, root).records().getFirst();

    assertThat(record.text()).isEqualTo("# Nul\n\nThe capybara swims daily.");
  }

  @Test
  void anUnexpectedFailureIsSaidInWordsWithoutJavaNames() {
    assertThat(ImportException.plainReason(new StackOverflowError()))
        .isEqualTo("its content is nested too deeply to read");
    assertThat(
            ImportException.plainReason(
                new NullPointerException(
                    "Cannot invoke \"org.apache.fontbox.type1.Token.getKind()\"")))
        .doesNotContain("org.", "Token", "Exception")
        .contains("failed on its content");
    assertThat(ImportException.plainReason(new IllegalArgumentException("bad /Length 12")))
        .isEqualTo("bad /Length 12");
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

  @Test
  void walkReportsSkippedLinksAndSpecialFilesWithAReason(@TempDir Path root, @TempDir Path away)
      throws Exception {
    Path vault = Files.createDirectories(root.resolve("vault"));
    Files.writeString(vault.resolve("real.md"), "x");
    Files.createSymbolicLink(vault.resolve("inside.md"), vault.resolve("real.md"));
    Files.createSymbolicLink(
        vault.resolve("outside"), Files.writeString(away.resolve("o.md"), "x"));
    Files.createSymbolicLink(vault.resolve("loop-a"), vault.resolve("loop-b"));
    Files.createSymbolicLink(vault.resolve("loop-b"), vault.resolve("loop-a"));
    Files.createSymbolicLink(vault.resolve("broken.md"), vault.resolve("missing.md"));
    Path fifo = vault.resolve("pipe.md");
    boolean madeFifo = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
    var skipped = new java.util.TreeMap<String, String>();

    var files = importers.walk(vault, (f, why) -> skipped.put(f.getFileName().toString(), why));

    assertThat(files).containsExactly(vault.resolve("real.md"));
    assertThat(skipped.get("inside.md")).contains("symbolic link");
    assertThat(skipped.get("outside")).contains("outside the synced folder");
    assertThat(skipped.get("loop-a")).contains("loop");
    assertThat(skipped.get("broken.md")).contains("broken");
    if (madeFifo) {
      assertThat(skipped.get("pipe.md")).contains("special file");
    }
  }

  /**
   * A folder the process may not enter is reported as skipped with the reason, its siblings are
   * still listed, and a hidden one stays unmentioned. Root may enter anything, so as root the walk
   * runs in a child process without that power ({@code setpriv} drops it).
   */
  @Test
  void walkReportsAFolderItCannotEnter(@TempDir Path root) throws Exception {
    Path vault = Files.createDirectories(root.resolve("vault"));
    Files.writeString(vault.resolve("ok.md"), "x");
    Path locked = Files.createDirectories(vault.resolve("locked"));
    Files.writeString(locked.resolve("secret.md"), "x");
    Path hidden = Files.createDirectories(vault.resolve(".hidden"));
    Files.writeString(hidden.resolve("h.md"), "x");
    for (Path dir : List.of(locked, hidden)) {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("---------"));
    }
    try {
      List<String> lines = walkWithoutReadingEverything(vault);

      assertThat(lines).contains("file\t" + vault.resolve("ok.md"));
      assertThat(lines)
          .contains(
              "skipped\t"
                  + locked
                  + "\ta folder brain cannot enter (permission denied); nothing in it is indexed");
      assertThat(lines).noneMatch(line -> line.contains(".hidden") || line.contains("secret.md"));
    } finally {
      for (Path dir : List.of(locked, hidden)) {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      }
    }
  }

  /** The walk's lines (see {@link WalkChild}) by a process that obeys file permissions. */
  private List<String> walkWithoutReadingEverything(Path vault) throws Exception {
    if (!Files.isReadable(vault.resolve("locked"))) {
      var lines = new ArrayList<String>();
      for (Path file : importers.walk(vault, (p, why) -> lines.add("skipped\t" + p + "\t" + why))) {
        lines.add("file\t" + file);
      }
      return lines;
    }
    Path setpriv = Path.of("/usr/bin/setpriv");
    assumeTrue(Files.isExecutable(setpriv), "root without setpriv cannot be denied a folder");
    var command =
        List.of(
            setpriv.toString(),
            "--bounding-set=-dac_override,-dac_read_search",
            "--inh-caps=-dac_override,-dac_read_search",
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            WalkChild.class.getName(),
            vault.toString());
    var builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().put("CLASSPATH", System.getProperty("java.class.path"));
    Process child = builder.start();
    List<String> lines;
    try (var out = child.inputReader(StandardCharsets.UTF_8)) {
      lines = out.lines().toList();
    }
    assertThat(child.waitFor()).isZero();
    return lines;
  }

  @Test
  void binaryContentWithoutNulBytesIsSkippedAsBinary(@TempDir Path root) throws Exception {
    byte[] bytes = new byte[4096];
    new java.util.Random(7).nextBytes(bytes);
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        bytes[i] = (byte) 0xFF;
      }
    }
    Path file = Files.write(root.resolve("blob.txt"), bytes);

    assertThatThrownBy(() -> importers.read(file, root))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isTrue())
        .hasMessageContaining("binary content (mostly bytes that are not text)");
  }

  @Test
  void latin1TextIsStillText(@TempDir Path root) throws Exception {
    Path file =
        Files.write(
            root.resolve("latin1.txt"),
            "Crème brûlée, café au lait and a déjà vu of ordinary prose. "
                .repeat(10)
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));

    assertThat(importers.read(file, root).records()).hasSize(1);
  }
}
