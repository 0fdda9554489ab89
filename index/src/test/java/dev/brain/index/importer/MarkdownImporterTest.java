package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.CorpusRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MarkdownImporterTest {

  private final Importers importers = Importers.defaults();

  private CorpusRecord fixtureNote(String path) throws Exception {
    Path vault = Fixtures.formats("vault");
    return importers.read(vault.resolve(path), vault).records().get(0);
  }

  @Test
  void readsFrontMatterTitleTagsAliasesAndDate() throws Exception {
    CorpusRecord note = fixtureNote("Espresso log.md");

    assertThat(note.key()).isEqualTo("note:vault/Espresso log.md");
    assertThat(note.kind()).isEqualTo(CorpusRecord.KIND_ITEM);
    assertThat(note.sourceType()).isEqualTo("note");
    assertThat(note.path()).isEqualTo("Espresso log.md");
    assertThat(note.title()).isEqualTo("Espresso log");
    assertThat(note.aliases()).containsExactly("shot log", "dial-in notes");
    assertThat(note.createdAt()).isEqualTo(Instant.parse("2024-03-05T00:00:00Z"));
    assertThat(note.origin())
        .isEqualTo(
            Fixtures.formats("vault/Espresso log.md").toAbsolutePath().normalize().toString());
  }

  @Test
  void textIsTheBodyWithoutFrontMatter() throws Exception {
    CorpusRecord note = fixtureNote("Espresso log.md");

    assertThat(note.text()).startsWith("# Morning shots\n\nDialled in the new beans");
    assertThat(note.text()).doesNotContain("aliases:");
  }

  @Test
  void collectsInlineTagsOutsideCodeHtmlCommentsAndUrls() throws Exception {
    CorpusRecord note = fixtureNote("Espresso log.md");

    assertThat(note.tags())
        .containsExactly("coffee", "home-espresso", "coffee/espresso", "latte-art");
  }

  @Test
  void resolvesWikilinksMarkdownLinksAndWebLinksToKeys() throws Exception {
    CorpusRecord note = fixtureNote("Espresso log.md");

    assertThat(note.links())
        .containsExactly(
            "note:vault/gear/Niche Zero.md",
            "note:vault/Missing note.md",
            "note:vault/gear/Grind chart.md",
            Keys.source("https://example.com/c"),
            Keys.source("https://example.com/recipes/ristretto"));
  }

  @Test
  void titleFallsBackToFirstHeadingThenFileName() throws Exception {
    assertThat(fixtureNote("gear/Niche Zero.md").title()).isEqualTo("Niche Zero");
    assertThat(fixtureNote("gear/Grind chart.md").title()).isEqualTo("Grind chart");
  }

  @Test
  void linkBackResolvesByNameFromASubfolder() throws Exception {
    assertThat(fixtureNote("gear/Niche Zero.md").links())
        .containsExactly("note:vault/Espresso log.md");
  }

  @Test
  void createdFallsBackToTheFileModificationTime(@TempDir Path vault)
      throws IOException, Exception {
    Path note = Files.writeString(vault.resolve("plain.md"), "No front matter.\n");
    Instant mtime = Instant.parse("2023-10-01T12:00:00Z");
    Files.setLastModifiedTime(note, FileTime.from(mtime));

    CorpusRecord record = importers.read(note, vault, "v").records().get(0);

    assertThat(record.createdAt()).isEqualTo(mtime);
    assertThat(record.title()).isEqualTo("plain");
    assertThat(record.text()).isEqualTo("No front matter.");
  }

  @Test
  void tomlFrontMatterAsHugoAndZolaWriteItGivesTitleTagsDateAndSummaryAndIsNoText(
      @TempDir Path vault) throws Exception {
    Path note =
        Files.writeString(
            vault.resolve("cli-usage.md"),
            "\uFEFF+++\r\ntitle = \"CLI usage\"\r\nweight = 15\r\ndate = 2024-03-10\r\n"
                + "description = \"The four commands\"\r\n\r\n[taxonomies]\r\n"
                + "tags = [\"cli\", \"serve\"]\r\n+++\r\n\r\nZola only has 4 commands.\r\n");

    CorpusRecord record = importers.read(note, vault, "v").records().get(0);

    assertThat(record.title()).isEqualTo("CLI usage");
    assertThat(record.tags()).containsExactly("cli", "serve");
    assertThat(record.createdAt()).isEqualTo(Instant.parse("2024-03-10T00:00:00Z"));
    assertThat(record.summary()).isEqualTo("The four commands");
    assertThat(record.text()).isEqualTo("Zola only has 4 commands.");
  }

  @Test
  void tomlFrontMatterThatDoesNotParseIsStillNoTextAndAPlusLineLaterIsText(@TempDir Path vault)
      throws Exception {
    Path broken = Files.writeString(vault.resolve("broken.md"), "+++\ntitle = \"open\n+++\nBody\n");
    Path later = Files.writeString(vault.resolve("later.md"), "Intro\n\n+++\nx = 1\n+++\n");

    CorpusRecord b = importers.read(broken, vault, "v").records().get(0);
    CorpusRecord l = importers.read(later, vault, "v").records().get(0);

    assertThat(b.title()).isEqualTo("broken");
    assertThat(b.text()).isEqualTo("Body");
    assertThat(l.text()).contains("x = 1");
  }

  @Test
  void frontMatterDatesWinOverFileTimesAndSayWhereTheyCameFrom(@TempDir Path vault)
      throws Exception {
    Instant mtime = Instant.parse("2023-10-01T12:00:00Z");
    Path created =
        Files.writeString(
            vault.resolve("c.md"),
            "---\ncreated: 2024-03-10\ndate: 2020-01-01\nupdated: 2024/04/02 08:15\n---\nBody\n");
    Path dated = Files.writeString(vault.resolve("d.md"), "---\ndate: 2024.03.11\n---\nBody\n");
    Path plain = Files.writeString(vault.resolve("p.md"), "Body\n");
    for (Path p : List.of(created, dated, plain)) {
      Files.setLastModifiedTime(p, FileTime.from(mtime));
    }

    CorpusRecord c = importers.read(created, vault, "v").records().get(0);
    CorpusRecord d = importers.read(dated, vault, "v").records().get(0);
    CorpusRecord p = importers.read(plain, vault, "v").records().get(0);

    assertThat(c.createdAt()).isEqualTo(Instant.parse("2024-03-10T00:00:00Z"));
    assertThat(c.dateSource()).isEqualTo(CorpusRecord.DATE_FRONT_MATTER_CREATED);
    assertThat(c.updatedAt()).isEqualTo(Instant.parse("2024-04-02T08:15:00Z"));
    assertThat(d.createdAt()).isEqualTo(Instant.parse("2024-03-11T00:00:00Z"));
    assertThat(d.dateSource()).isEqualTo(CorpusRecord.DATE_FRONT_MATTER_DATE);
    assertThat(d.updatedAt()).isEqualTo(mtime);
    assertThat(p.createdAt()).isEqualTo(mtime);
    assertThat(p.dateSource()).isEqualTo(CorpusRecord.DATE_FILE_TIME);
  }

  @Test
  void modifiedAndLastModifiedAreReadAsTheUpdatedTime(@TempDir Path vault) throws Exception {
    Path a = Files.writeString(vault.resolve("a.md"), "---\nmodified: 2024-05-01\n---\nA\n");
    Path b =
        Files.writeString(
            vault.resolve("b.md"), "---\nlast_modified: 2024-05-02T10:00:00Z\n---\nB\n");

    assertThat(importers.read(a, vault, "v").records().get(0).updatedAt())
        .isEqualTo(Instant.parse("2024-05-01T00:00:00Z"));
    assertThat(importers.read(b, vault, "v").records().get(0).updatedAt())
        .isEqualTo(Instant.parse("2024-05-02T10:00:00Z"));
  }

  @Test
  void readsDateKeyAndScalarTagLists(@TempDir Path vault) throws Exception {
    Path note =
        Files.writeString(
            vault.resolve("n.markdown"),
            "---\ndate: 2024-01-15T09:30:00+01:00\ntags: running, Long Run\nalias: LSD\n---\nBody\n");

    CorpusRecord record = importers.read(note, vault, "v").records().get(0);

    assertThat(record.createdAt()).isEqualTo(Instant.parse("2024-01-15T08:30:00Z"));
    assertThat(record.tags()).containsExactly("running", "long-run");
    assertThat(record.aliases()).containsExactly("LSD");
    assertThat(record.text()).isEqualTo("Body");
  }

  @Test
  void wikilinkFormsAllResolveToTheSameNote(@TempDir Path vault) throws Exception {
    Files.createDirectories(vault.resolve("a/b"));
    Files.writeString(vault.resolve("a/b/Target Note.md"), "target");
    Path source =
        Files.writeString(
            vault.resolve("source.md"),
            "[[Target Note]] [[target note|shown]] [[Target Note#Part]] ![[Target Note]]"
                + " [[b/Target Note]] [[#Local heading]]\n");

    CorpusRecord record = importers.read(source, vault, "v").records().get(0);

    assertThat(record.links()).containsExactly("note:v/a/b/Target Note.md");
  }

  @Test
  void oddLinkDestinationsNeverFailTheNote(@TempDir Path vault) throws Exception {
    Path note =
        Files.writeString(
            vault.resolve("odd.md"),
            "[a](100%.md) [b](../../outside.md) [c](mailto:me@example.com) [d](#top)"
                + " [e](/root%20note.md) [f](photo.png)\n");

    CorpusRecord record = importers.read(note, vault, "v").records().get(0);

    assertThat(record.links()).containsExactly("note:v/100%.md", "note:v/root note.md");
  }

  @Test
  void wikilinksToPdfsAndTranscriptsUseTheirSourceKeys(@TempDir Path vault) throws Exception {
    Files.createDirectories(vault.resolve("files"));
    Files.write(vault.resolve("files/Manual.pdf"), new byte[] {1});
    Files.writeString(vault.resolve("files/talk.vtt"), "WEBVTT\n");
    Path source =
        Files.writeString(
            vault.resolve("s.md"), "[[manual.pdf]] [[talk.vtt]] ![[missing.png]] [[Dr. Who]]\n");

    CorpusRecord record = importers.read(source, vault, "v").records().get(0);

    assertThat(record.links())
        .containsExactly(
            Keys.sourceFile("v", "files/Manual.pdf"),
            Keys.sourceFile("v", "files/talk.vtt"),
            "note:v/Dr. Who.md");
  }
}
