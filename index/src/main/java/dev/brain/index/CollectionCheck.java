package dev.brain.index;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The rules a new collection must meet before it is added: its folder exists and is a folder, its
 * name is free, and its root neither lies inside another collection's root nor holds one (a file
 * must belong to one collection, or its key would depend on which was synced last).
 */
public final class CollectionCheck {
  private CollectionCheck() {}

  /**
   * Checks {@code candidate} against the existing collections.
   *
   * @throws CollectionException with a message that names the problem and the fix
   */
  public static void checkNew(CollectionRoot candidate, List<CollectionRoot> existing) {
    checkNew(candidate, existing, false);
  }

  /**
   * {@link #checkNew(CollectionRoot, List)}, also accepting a single file as the root when {@code
   * fileAllowed} ({@code brain index corpus.jsonl}: a file that is in no collection).
   */
  public static void checkNew(
      CollectionRoot candidate, List<CollectionRoot> existing, boolean fileAllowed) {
    Path root = candidate.root();
    if (!Files.exists(root)) {
      throw new CollectionException("no such folder: " + root);
    }
    if (!Files.isDirectory(root) && !(fileAllowed && Files.isRegularFile(root))) {
      throw new CollectionException(
          root
              + " is a file, not a folder: a collection is a folder. Add the folder that holds it"
              + " (narrow it with --exclude GLOB if needed).");
    }
    if (!Files.isReadable(root)) {
      throw new CollectionException("the folder " + root + " is not readable");
    }
    for (CollectionRoot other : existing) {
      if (other.name().equals(candidate.name())) {
        throw new CollectionException(
            "a collection named '"
                + other.name()
                + "' already exists (root "
                + other.root()
                + "); choose another name with --name NAME");
      }
      if (other.root().equals(root)) {
        throw new CollectionException(root + " is already the collection '" + other.name() + "'");
      }
      if (root.startsWith(other.root())) {
        throw new CollectionException(
            root
                + " lies inside the collection '"
                + other.name()
                + "' ("
                + other.root()
                + "), which already indexes it");
      }
      if (other.root().startsWith(root)) {
        throw new CollectionException(
            root
                + " holds the collection '"
                + other.name()
                + "' ("
                + other.root()
                + "); remove that one first with `brain remove "
                + other.name()
                + "`, or add another folder");
      }
    }
  }

  /** The collection whose root holds {@code path}, if any. */
  public static java.util.Optional<CollectionRoot> owning(Path path, List<CollectionRoot> all) {
    Path p = path.toAbsolutePath().normalize();
    return all.stream().filter(c -> c.contains(p)).findFirst();
  }
}
