package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.importer.Keys;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every link of a synced record reaches a record or says why: web links reach the bookmark of the
 * address, wikilinks a note of that name in another collection, and the rest are unresolved with
 * the name the note gives. Two collections synced into a real index.
 */
class LinkResolutionTest {

  private static final String HOFFMANN = "https://www.youtube.com/@jameshoffmann";

  private static Embedder model;

  @TempDir Path data;
  @TempDir Path folders;

  private BrainIndex index;

  @BeforeAll
  static void loadModel() {
    model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
  }

  @AfterAll
  static void closeModel() {
    model.close();
  }

  @BeforeEach
  void syncTwoCollections() throws IOException {
    index = BrainIndex.open(IndexConfig.defaults(data), model);
    Path notes = Files.createDirectories(folders.resolve("notes"));
    Path papers = Files.createDirectories(folders.resolve("papers"));
    Files.createDirectories(notes.resolve("home"));
    Files.writeString(
        notes.resolve("Kafka migration.md"), "# Kafka migration\n\nMove the topics in May.\n");
    Files.writeString(
        notes.resolve("home/Apartment lease.md"), "# Apartment lease\n\nThe lease ends in June.\n");
    Files.writeString(
        notes.resolve("stream.md"),
        "---\ntitle: Stream processing\n---\nWindows, watermarks and state.\n");
    Files.writeString(
        notes.resolve("V60 recipe.md"),
        "# V60 recipe\n\nBased on the one-cup method (" + HOFFMANN + ").\n");
    Files.writeString(
        notes.resolve("bookmarks.html"),
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF=\""
            + HOFFMANN
            + "?utm_source=share\" ADD_DATE=\"1707609600\">James Hoffmann</A>\n</DL>\n");
    var changelog = new StringBuilder("# Changelog\n\n");
    for (int i = 1; i <= 300; i++) {
      changelog.append("- Fixed bug ").append(i).append(" (https://example.org/pull/").append(i);
      changelog.append(").\n");
    }
    Files.writeString(notes.resolve("CHANGELOG.md"), changelog);
    Files.writeString(
        papers.resolve("Raft.md"),
        "# Raft\n\nSee [[Kafka migration]], [[Raft]] itself, [[Stream processing]] and"
            + " [[Lost note]].\n");
    index.syncCollections(
        List.of(CollectionRoot.of("notes", notes), CollectionRoot.of("papers", papers)),
        SyncListener.NONE);
  }

  @AfterEach
  void closeIndex() throws IOException {
    index.close();
  }

  private RecordDetail get(String key) throws IOException {
    return index.get(key).orElseThrow();
  }

  @Test
  void aWebLinkReachesTheBookmarkOfTheAddressAndTheBookmarkListsTheNoteAsBacklink()
      throws IOException {
    String page = Keys.source(HOFFMANN);
    String bookmark = Keys.bookmark(HOFFMANN);
    RecordDetail v60 = get("note:notes/V60 recipe.md");

    assertThat(v60.record().links()).containsExactly(page);
    assertThat(v60.links()).containsExactly(new RecordDetail.Link(page, bookmark, null, null));
    assertThat(get(bookmark).backlinks()).containsExactly("note:notes/V60 recipe.md");
    assertThat(get(bookmark).record().links()).containsExactly(page);
    assertThat(get(bookmark).links())
        .as("the bookmark's own address reaches the bookmark: no link to itself")
        .isEmpty();
  }

  @Test
  void aWikilinkToANoteItsCollectionLacksReachesTheNoteOfThatNameOrTitleInAnother()
      throws IOException {
    RecordDetail raft = get("note:papers/Raft.md");

    assertThat(raft.links())
        .extracting(RecordDetail.Link::key, RecordDetail.Link::target)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "note:papers/Kafka migration.md", "note:notes/Kafka migration.md"),
            org.assertj.core.groups.Tuple.tuple(
                "note:papers/Stream processing.md", "note:notes/stream.md"),
            org.assertj.core.groups.Tuple.tuple("note:papers/Lost note.md", null));
    assertThat(get("note:notes/Kafka migration.md").backlinks())
        .containsExactly("note:papers/Raft.md");
    assertThat(get("note:notes/stream.md").backlinks()).containsExactly("note:papers/Raft.md");
  }

  @Test
  void anUnresolvedLinkSaysWhatItNamesAndWhy() throws IOException {
    RecordDetail raft = get("note:papers/Raft.md");

    assertThat(raft.unresolvedLinks())
        .containsExactly(
            new RecordDetail.Link(
                "note:papers/Lost note.md",
                null,
                "Lost note",
                "no note of this name in any collection"));
  }

  @Test
  void eachUnresolvedWebLinkNamesItsAddressAsTheTextWritesIt() throws IOException {
    RecordDetail changelog = get("note:notes/CHANGELOG.md");

    assertThat(changelog.unresolvedLinks()).hasSize(300);
    assertThat(changelog.unresolvedLinks().get(0))
        .isEqualTo(
            new RecordDetail.Link(
                Keys.source("https://example.org/pull/1"),
                null,
                "https://example.org/pull/1",
                "no saved page, bookmark or feed entry of this address in the index"));
    assertThat(changelog.unresolvedLinks().get(299).text())
        .isEqualTo("https://example.org/pull/300");
  }

  @Test
  void aWikilinkPrefersANoteOfItsOwnCollection() throws IOException {
    Path papers = folders.resolve("papers");
    Files.writeString(papers.resolve("kafka.md"), "---\ntitle: Kafka migration\n---\nOurs.\n");
    index.syncCollections(
        List.of(
            CollectionRoot.of("notes", folders.resolve("notes")),
            CollectionRoot.of("papers", papers)),
        SyncListener.NONE);

    assertThat(get("note:papers/Raft.md").linkedKeys()).startsWith("note:papers/kafka.md");
  }

  @Test
  void aPathOrTitleThatIsNoKeySuggestsTheKeysThatMatch() throws IOException {
    assertThat(index.get("home/Apartment lease.md")).isEmpty();
    assertThat(index.keysFor("home/Apartment lease.md"))
        .containsExactly("note:notes/home/Apartment lease.md");
    assertThat(index.keysFor("apartment lease"))
        .containsExactly("note:notes/home/Apartment lease.md");
    assertThat(index.keysFor("note:papers/Kafka migration.md"))
        .containsExactly("note:notes/Kafka migration.md");
    assertThat(index.keysFor(HOFFMANN)).containsExactly(Keys.bookmark(HOFFMANN));
    assertThat(index.keysFor("Nothing like this")).isEmpty();
  }
}
