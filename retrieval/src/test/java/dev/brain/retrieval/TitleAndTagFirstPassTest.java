package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A word that occurs only in a note's front-matter {@code title:} or {@code tags:} finds the note
 * through the keyword lane alone, whatever the front matter's encoding: plain, behind a UTF-8
 * byte-order mark, or with CRLF line endings. Each note's title and tag words are its own, and no
 * note's text or headings hold any of them.
 */
class TitleAndTagFirstPassTest {

  @TempDir static Path dir;
  static BrainIndex index;
  static Retriever retriever;

  private static final String BOM = "\uFEFF";

  @BeforeAll
  static void buildIndex() throws IOException {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    write(vault, "plain.md", note("Quokka field notes", "wombat", "\n"));
    write(vault, "bom.md", BOM + note("Bilby survey", "dugong", "\n"));
    write(vault, "crlf.md", note("Numbat census", "echidna", "\r\n"));
    // A long note whose title matches too: one candidate of it is enough, the others still come.
    var longNote = new StringBuilder("---\ntitle: Quokka island diary\n---\n");
    for (int i = 0; i < 60; i++) {
      longNote
          .append("## Day ")
          .append(i)
          .append("\n\nWe walked the coast path and counted birds")
          .append(" near the lighthouse on the northern cape.\n\n");
    }
    write(vault, "diary.md", longNote.toString());
    index = BrainIndex.open(IndexConfig.defaults(dir.resolve("data")));
    index.sync(List.of(vault));
    retriever = new Retriever(index);
  }

  @AfterAll
  static void close() throws IOException {
    index.close();
  }

  /** A note with its title and one tag in front matter and a body that names neither. */
  private static String note(String title, String tag, String newline) {
    return String.join(
        newline,
        "---",
        "title: " + title,
        "tags: [" + tag + ", animals]",
        "---",
        "Seen at dawn near the creek, feeding on roots and insects.",
        "");
  }

  private static void write(Path vault, String name, String text) throws IOException {
    Files.writeString(vault.resolve(name), text, StandardCharsets.UTF_8);
  }

  private static List<String> bm25(String query) throws IOException {
    return retriever.search(query, SearchOptions.builder().lanes(Lane.BM25).build()).rows().stream()
        .map(EvidenceRow::sourceKey)
        .toList();
  }

  @Test
  void aTitleWordAloneFindsItsNoteWithPlainFrontMatter() throws IOException {
    assertThat(bm25("field")).containsExactly("note:vault/plain.md");
  }

  @Test
  void aTitleWordAloneFindsItsNoteBehindAByteOrderMark() throws IOException {
    assertThat(bm25("bilby")).containsExactly("note:vault/bom.md");
  }

  @Test
  void aTitleWordAloneFindsItsNoteWithCrlfLineEndings() throws IOException {
    assertThat(bm25("numbat")).containsExactly("note:vault/crlf.md");
  }

  @Test
  void aTagAloneFindsItsNoteWithPlainFrontMatter() throws IOException {
    assertThat(bm25("wombat")).containsExactly("note:vault/plain.md");
  }

  @Test
  void aTagAloneFindsItsNoteBehindAByteOrderMark() throws IOException {
    assertThat(bm25("dugong")).containsExactly("note:vault/bom.md");
  }

  @Test
  void aTagAloneFindsItsNoteWithCrlfLineEndings() throws IOException {
    assertThat(bm25("echidna")).containsExactly("note:vault/crlf.md");
  }

  @Test
  void aTitleWordSharedByTwoNotesFindsBothEachOnce() throws IOException {
    assertThat(bm25("quokka"))
        .containsExactlyInAnyOrder("note:vault/plain.md", "note:vault/diary.md");
  }

  @Test
  void aWordInTheTextStillRanksByTheTextWhenNoTitleMatches() throws IOException {
    // "creek" is in the text of the three short notes only; their titles and tags do not have it.
    assertThat(bm25("creek"))
        .containsExactlyInAnyOrder(
            "note:vault/plain.md", "note:vault/bom.md", "note:vault/crlf.md");
    assertThat(bm25("lighthouse")).containsExactly("note:vault/diary.md");
  }
}
