package dev.brain.index;

import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A collection: a named root (a folder, or a single file) whose files a sync imports. Keys of
 * path-named records carry the name ({@code note:<name>/<path in the root>}), so two collections
 * may hold the same relative path; a sync of one collection deletes only that collection's vanished
 * records.
 *
 * @param name unique among the collections of one index: letters, digits, {@code .}, {@code _},
 *     {@code -} and spaces, not starting with a dot or space, at most 64 characters
 * @param root absolute, normalized path of the folder (or file)
 * @param excludes globs of what to leave out beside the {@link #DEFAULT_EXCLUDES}: a glob without
 *     {@code /} is matched against every file and folder name ({@code *.pdf}, {@code drafts}), one
 *     ending in {@code /} against folder names only ({@code archive/}), any other against the whole
 *     path relative to the root ({@code journal/2019/**})
 * @param maxFileBytes files larger than this are skipped with the reason reported; default {@link
 *     #DEFAULT_MAX_FILE_BYTES}
 */
public record CollectionRoot(String name, Path root, List<String> excludes, long maxFileBytes) {

  /**
   * Folders left out of every collection: Obsidian's settings and trash, version control, and
   * JavaScript dependencies. (Any hidden file or folder is left out as well.)
   */
  public static final List<String> DEFAULT_EXCLUDES =
      List.of(".obsidian/", ".git/", ".trash/", "node_modules/");

  /** Default of {@link #maxFileBytes()}: 64 MiB, far above any note or paper. */
  public static final long DEFAULT_MAX_FILE_BYTES = 64L << 20;

  private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}_-][\\p{L}\\p{N} ._-]{0,63}");

  public CollectionRoot {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(root, "root");
    requireValidName(name);
    root = root.toAbsolutePath().normalize();
    excludes = excludes == null ? List.of() : List.copyOf(excludes);
    if (maxFileBytes <= 0) {
      throw new IllegalArgumentException("maxFileBytes must be positive, got " + maxFileBytes);
    }
  }

  /** A collection with no excludes beyond the defaults and the default size cap. */
  public static CollectionRoot of(String name, Path root) {
    return new CollectionRoot(name, root, List.of(), DEFAULT_MAX_FILE_BYTES);
  }

  /** A collection named after its folder ({@link #defaultName(Path)}). */
  public static CollectionRoot of(Path root) {
    return of(defaultName(root), root);
  }

  /** This collection with other user excludes. */
  public CollectionRoot withExcludes(List<String> value) {
    return new CollectionRoot(name, root, value, maxFileBytes);
  }

  /**
   * The name a root gets when the user gives none: the folder's name (a file's folder's name for a
   * single file), with characters a name may not hold replaced by {@code -}.
   */
  public static String defaultName(Path root) {
    Path abs = root.toAbsolutePath().normalize();
    Path folder = java.nio.file.Files.isRegularFile(abs) ? abs.getParent() : abs;
    Path fileName = folder == null ? null : folder.getFileName();
    String raw = fileName == null ? "root" : fileName.toString();
    String cleaned = raw.replaceAll("[^\\p{L}\\p{N} ._-]", "-").replaceAll("^[. ]+", "").strip();
    if (cleaned.length() > 64) {
      cleaned = cleaned.substring(0, 64).strip();
    }
    return cleaned.isEmpty() ? "root" : cleaned;
  }

  /**
   * Checks a collection name.
   *
   * @throws IllegalArgumentException naming the rule the name breaks
   */
  public static void requireValidName(String name) {
    if (name == null || !NAME.matcher(name).matches() || !name.equals(name.strip())) {
      throw new IllegalArgumentException(
          "invalid collection name '"
              + name
              + "': use 1-64 letters, digits, '.', '_', '-' or spaces, starting with a letter,"
              + " digit, '_' or '-'");
    }
  }

  /** Every exclude glob in force: the defaults, then the user's. */
  public List<String> allExcludes() {
    var all = new java.util.ArrayList<>(DEFAULT_EXCLUDES);
    all.addAll(excludes);
    return List.copyOf(all);
  }

  /** True if {@code path} is this root or lies below it. */
  public boolean contains(Path path) {
    return path.toAbsolutePath().normalize().startsWith(root);
  }

  /**
   * Checks the collections of one sync: at least one, each root existing, no name twice.
   *
   * @throws IllegalArgumentException for none or a name given twice
   * @throws NoSuchFileException for a root that does not exist
   */
  public static void checkSyncable(List<CollectionRoot> collections) throws NoSuchFileException {
    if (collections.isEmpty()) {
      throw new IllegalArgumentException("sync needs at least one file or folder to import");
    }
    var names = new java.util.HashSet<String>();
    for (CollectionRoot c : collections) {
      if (!java.nio.file.Files.exists(c.root())) {
        throw new NoSuchFileException(
            c.root().toString(), null, "no such file or folder to import");
      }
      if (!names.add(c.name())) {
        throw new IllegalArgumentException("two collections named '" + c.name() + "' in one sync");
      }
    }
  }
}
