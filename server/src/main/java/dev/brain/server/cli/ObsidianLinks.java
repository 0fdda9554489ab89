package dev.brain.server.cli;

import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexStatus;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code obsidian://open?vault=...&file=...} links for notes of collections whose root is an
 * Obsidian vault (holds {@code .obsidian/}), as the web page offers them: a search row of such a
 * note gets a line with the link, which a terminal can open.
 *
 * @param vaults collection name to the vault name Obsidian knows
 */
record ObsidianLinks(Map<String, String> vaults) {

  /** No vaults: no links. */
  static final ObsidianLinks NONE = new ObsidianLinks(Map.of());

  private static final String NOTE_PREFIX = "note:";

  ObsidianLinks {
    vaults = Map.copyOf(vaults);
  }

  /**
   * How much older than its reading {@code brain.yaml}'s modification time must be for the
   * collections read to stand for the file while that time stays: file times are coarse, and a
   * write within the tick of the one read could leave the time as it was.
   */
  static final long QUIET_MILLIS = 2_000;

  /**
   * The collections last read from each {@code brain.yaml}, with the file's time, size and identity
   * then: a server prints links under the rows of every search, and parsing the YAML was 3% of a
   * served search's CPU.
   */
  private static final Map<Path, Read> READ = new ConcurrentHashMap<>();

  private record Read(
      FileTime time, long size, Object fileKey, long readAt, List<CollectionRoot> collections) {
    boolean stands(BasicFileAttributes now) {
      return time.equals(now.lastModifiedTime())
          && size == now.size()
          && java.util.Objects.equals(fileKey, now.fileKey())
          && time.toMillis() <= readAt - QUIET_MILLIS;
    }
  }

  /** The vaults among the collections of {@code brain}'s {@code brain.yaml}. */
  static ObsidianLinks of(BrainCommand brain) {
    List<CollectionRoot> collections;
    try {
      collections = collections(CollectionSteps.file(brain));
    } catch (IOException | IllegalArgumentException e) {
      return NONE; // links are a convenience; brain.yaml's problems are reported elsewhere
    }
    var vaults = new HashMap<String, String>();
    for (CollectionRoot c : collections) {
      String vault = IndexStatus.obsidianVault(c.root());
      if (vault != null) {
        vaults.put(c.name(), vault);
      }
    }
    return new ObsidianLinks(vaults);
  }

  /** The collections of {@code file}: read again only when the file changed since it was read. */
  static List<CollectionRoot> collections(CollectionsFile file) throws IOException {
    Path path = file.path();
    BasicFileAttributes before;
    try {
      before = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      READ.remove(path);
      return file.read();
    }
    Read last = READ.get(path);
    if (last != null && last.stands(before)) {
      return last.collections();
    }
    long readAt = System.currentTimeMillis();
    List<CollectionRoot> collections = file.read();
    READ.put(
        path,
        new Read(before.lastModifiedTime(), before.size(), before.fileKey(), readAt, collections));
    return collections;
  }

  /** The link of a note ({@code note:<collection>/<path>}) in a vault; empty for anything else. */
  Optional<String> link(String key, String notePath) {
    if (key == null || notePath == null || !key.startsWith(NOTE_PREFIX)) {
      return Optional.empty();
    }
    int slash = key.indexOf('/', NOTE_PREFIX.length());
    if (slash < 0) {
      return Optional.empty();
    }
    String vault = vaults.get(key.substring(NOTE_PREFIX.length(), slash));
    if (vault == null) {
      return Optional.empty();
    }
    return Optional.of("obsidian://open?vault=" + encode(vault) + "&file=" + encode(notePath));
  }

  /** Percent-encoding as JavaScript's {@code encodeURIComponent} does it (space as %20). */
  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8)
        .replace("+", "%20")
        .replace("%21", "!")
        .replace("%27", "'")
        .replace("%28", "(")
        .replace("%29", ")")
        .replace("%7E", "~");
  }
}
