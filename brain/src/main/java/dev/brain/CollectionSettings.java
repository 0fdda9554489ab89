package dev.brain;

import java.util.List;

/**
 * {@code collections:}: the folders {@code brain add} remembered, in file order. Only {@code brain
 * add} and {@code brain remove} write this section ({@link dev.brain.index.CollectionsFile}
 * rewrites it alone, keeping every other byte of {@code brain.yaml}); environment variables and
 * flags do not touch it.
 *
 * <pre>
 * collections:
 *   - name: "notes"
 *     root: "/home/me/notes"
 *     excludes: ["drafts/"]
 * </pre>
 *
 * @param roots the collections; default none
 */
public record CollectionSettings(List<dev.brain.index.CollectionRoot> roots) {
  public CollectionSettings {
    roots = roots == null ? List.of() : List.copyOf(roots);
  }

  /** The collection named {@code name}, if there is one. */
  public java.util.Optional<dev.brain.index.CollectionRoot> named(String name) {
    return roots.stream().filter(c -> c.name().equals(name)).findFirst();
  }
}
