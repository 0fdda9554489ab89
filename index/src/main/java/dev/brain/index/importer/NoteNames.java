package dev.brain.index.importer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The file names of one vault, to resolve links the way Obsidian does: a wikilink names a file, not
 * a path; among files of that name (case-insensitive) the one in the linking note's folder wins,
 * then the one with the shortest path. Keys carry the collection the vault is indexed as ({@link
 * #in}). Immutable.
 */
final class NoteNames {

  private static final Set<String> NOTE_EXTENSIONS = Set.of("md", "markdown", "mdx");

  private static final Pattern FILE_EXTENSION = Pattern.compile("[a-z][a-z0-9]{0,4}");

  private static final Comparator<String> SHORTEST_PATH =
      Comparator.comparingInt((String p) -> p.split("/").length)
          .thenComparingInt(String::length)
          .thenComparing(Comparator.naturalOrder());

  private final Set<String> paths;
  private final Map<String, List<String>> byLowerName;
  private final String collection;

  private NoteNames(Set<String> paths, Map<String, List<String>> byLowerName, String collection) {
    this.paths = paths;
    this.byLowerName = byLowerName;
    this.collection = collection;
  }

  /** These names as files of {@code collection}: the keys they resolve to carry its name. */
  NoteNames in(String collection) {
    return collection.equals(this.collection)
        ? this
        : new NoteNames(paths, byLowerName, collection);
  }

  /** The names of the given vault-relative paths (forward slashes). */
  static NoteNames of(Collection<String> relativePaths) {
    var byName = new HashMap<String, List<String>>();
    for (String path : relativePaths) {
      byName.computeIfAbsent(lower(fileName(path)), k -> new ArrayList<>()).add(path);
    }
    byName.values().forEach(list -> list.sort(SHORTEST_PATH));
    return new NoteNames(Set.copyOf(relativePaths), Map.copyOf(byName), "");
  }

  /**
   * The key a wikilink target resolves to from the note at {@code fromPath}. A target that names no
   * file in the vault resolves to the note Obsidian would create for it ({@code [[New idea]]} gives
   * {@code note:New idea.md}); a link to a file brain keys by content (a saved page) gives {@code
   * null}.
   */
  String resolveWikilink(String target, String fromPath) {
    String t = target.replace('\\', '/');
    while (t.startsWith("/") || t.startsWith("./")) {
      t = t.substring(t.startsWith("/") ? 1 : 2);
    }
    String found = find(t + ".md", fromPath);
    if (found == null) {
      found = find(t + ".markdown", fromPath);
    }
    if (found == null) {
      found = find(t + ".mdx", fromPath);
    }
    if (found == null) {
      found = find(t, fromPath);
    }
    if (found != null) {
      return keyOf(found);
    }
    String ext = SourceFile.extensionOf(fileName(t));
    if (NOTE_EXTENSIONS.contains(ext)) {
      return Keys.note(collection, t);
    }
    // A missing attachment ([[photo.png]]) is no note; "Dr. Smith" or "v1.2" still are.
    return FILE_EXTENSION.matcher(ext).matches() ? null : Keys.note(collection, t + ".md");
  }

  /**
   * The key a relative Markdown link resolves to, given the vault-relative path it points at.
   * Obsidian also writes such links by shortest path, so a path that does not exist is looked up by
   * its file name like a wikilink.
   */
  String resolvePath(String relativePath, String fromPath) {
    if (paths.contains(relativePath)) {
      return keyOf(relativePath);
    }
    String found = find(fileName(relativePath), fromPath);
    if (found != null) {
      return keyOf(found);
    }
    return NOTE_EXTENSIONS.contains(SourceFile.extensionOf(relativePath))
        ? Keys.note(collection, relativePath)
        : null;
  }

  /** The best file whose path ends with {@code target} (case-insensitive), or null. */
  private String find(String target, String fromPath) {
    List<String> candidates = byLowerName.get(lower(fileName(target)));
    if (candidates == null) {
      return null;
    }
    String suffix = "/" + lower(target);
    String fromFolder = folder(fromPath);
    String best = null;
    for (String candidate : candidates) {
      String c = lower(candidate);
      if (!c.equals(lower(target)) && !("/" + c).endsWith(suffix)) {
        continue;
      }
      if (folder(candidate).equals(fromFolder)) {
        return candidate;
      }
      if (best == null) {
        best = candidate; // candidates are sorted by shortest path
      }
    }
    return best;
  }

  /** The key of a vault file by its path, or null when its key depends on its content. */
  String keyOf(String relativePath) {
    return switch (SourceFile.extensionOf(relativePath)) {
      case "md", "markdown", "mdx", "txt" -> Keys.note(collection, relativePath);
      case "pdf", "vtt", "srt" -> Keys.sourceFile(collection, relativePath);
      default -> null;
    };
  }

  private static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static String folder(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
