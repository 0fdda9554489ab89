package dev.brain.server.http;

import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Two collections synced into a data directory, for the tests of links that resolve or say why:
 * {@code notes} holds {@code Kafka migration.md}, {@code home/Apartment lease.md}, a recipe linking
 * a web address and the bookmark of that address; {@code papers} holds {@code Raft.md}, which links
 * {@code [[Kafka migration]]} (a note of {@code notes} only) and {@code [[Lost note]]} (none).
 */
public final class TwoCollectionsData {
  /** The web address the recipe links and the bookmark keeps. */
  public static final String HOFFMANN = "https://www.youtube.com/@jameshoffmann";

  private TwoCollectionsData() {}

  /** Writes both folders under {@code dir} and syncs them into {@code dir/data}; returns that. */
  public static Path create(Path dir) throws IOException {
    Path notes = Files.createDirectories(dir.resolve("notes"));
    Path papers = Files.createDirectories(dir.resolve("papers"));
    Files.createDirectories(notes.resolve("home"));
    Files.writeString(
        notes.resolve("Kafka migration.md"), "# Kafka migration\n\nMove the topics in May.\n");
    Files.writeString(
        notes.resolve("home/Apartment lease.md"), "# Apartment lease\n\nThe lease ends in June.\n");
    Files.writeString(
        notes.resolve("V60 recipe.md"),
        "# V60 recipe\n\nBased on the one-cup method (" + HOFFMANN + ").\n");
    Files.writeString(
        notes.resolve("bookmarks.html"),
        "<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF=\""
            + HOFFMANN
            + "?utm_source=share\" ADD_DATE=\"1707609600\">James Hoffmann</A>\n</DL>\n");
    Files.writeString(
        papers.resolve("Raft.md"),
        "## Raft consensus\n\n- [ ] read the paper\n- [x] print it\n\nCompare with [[Kafka"
            + " migration]] and [[Lost note]]; the paper is at https://raft.github.io/raft.pdf\n");
    Path data = dir.resolve("data");
    var collections =
        List.of(CollectionRoot.of("notes", notes), CollectionRoot.of("papers", papers));
    CollectionsFile.of(data).write(collections);
    try (var index = BrainIndex.open(IndexConfig.defaults(data))) {
      index.syncCollections(collections, null);
    }
    return data;
  }
}
