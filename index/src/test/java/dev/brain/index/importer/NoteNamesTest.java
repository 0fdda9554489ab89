package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NoteNamesTest {

  private final NoteNames names =
      NoteNames.of(
          List.of(
              "Home.md",
              "projects/search/Lucene.md",
              "archive/2019/Lucene.md",
              "zz/Lucene.md",
              "daily/2024/2024-03-05.md",
              "daily/2024/Lucene.md",
              "notes/Readme.markdown",
              "files/Guide.pdf",
              "photo.png"));

  @Test
  void prefersTheNoteInTheLinkingNotesFolder() {
    assertThat(names.resolveWikilink("Lucene", "daily/2024/2024-03-05.md"))
        .isEqualTo("note:daily/2024/Lucene.md");
  }

  @Test
  void otherwisePrefersTheShortestPath() {
    assertThat(names.resolveWikilink("Lucene", "Home.md")).isEqualTo("note:zz/Lucene.md");
  }

  @Test
  void matchesNamesCaseInsensitively() {
    assertThat(names.resolveWikilink("home", "daily/2024/2024-03-05.md")).isEqualTo("note:Home.md");
    assertThat(names.resolveWikilink("README", "Home.md")).isEqualTo("note:notes/Readme.markdown");
  }

  @Test
  void aPathInTheLinkNarrowsTheMatch() {
    assertThat(names.resolveWikilink("search/Lucene", "daily/2024/2024-03-05.md"))
        .isEqualTo("note:projects/search/Lucene.md");
    assertThat(names.resolveWikilink("archive/2019/Lucene.md", "Home.md"))
        .isEqualTo("note:archive/2019/Lucene.md");
  }

  @Test
  void unresolvedNotesGetTheKeyObsidianWouldCreate() {
    assertThat(names.resolveWikilink("New idea", "Home.md")).isEqualTo("note:New idea.md");
    assertThat(names.resolveWikilink("ideas/New idea", "Home.md"))
        .isEqualTo("note:ideas/New idea.md");
  }

  @Test
  void attachmentsResolveOnlyWhenTheyHaveAKeyOfTheirOwn() {
    assertThat(names.resolveWikilink("guide.pdf", "Home.md"))
        .isEqualTo(Keys.sourceFile("", "files/Guide.pdf"));
    assertThat(names.resolveWikilink("photo.png", "Home.md")).isNull();
    assertThat(names.resolveWikilink("missing.jpg", "Home.md")).isNull();
  }

  @Test
  void markdownLinkPathsResolveExactlyOrByName() {
    assertThat(names.resolvePath("archive/2019/Lucene.md", "Home.md"))
        .isEqualTo("note:archive/2019/Lucene.md");
    assertThat(names.resolvePath("Lucene.md", "daily/2024/2024-03-05.md"))
        .isEqualTo("note:daily/2024/Lucene.md");
    assertThat(names.resolvePath("nowhere/Gone.md", "Home.md")).isEqualTo("note:nowhere/Gone.md");
  }
}
