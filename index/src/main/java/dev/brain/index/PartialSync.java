package dev.brain.index;

import java.nio.file.Path;
import java.util.List;

/**
 * What a partial sync (a watcher's, {@link BrainIndex#syncChanged}) covers.
 *
 * @param scope the changed files and folders, absolute and normalized
 * @param files the collection's files (the walk's count)
 * @param previous the collection's last recorded sync, whose issues outside the scope still stand,
 *     or {@code null}
 */
record PartialSync(List<Path> scope, int files, CollectionSync previous) {

  /** Whether {@code file} is at or below one of the changed paths. */
  boolean covers(Path file) {
    return within(file, scope);
  }

  /** Whether {@code file} is at or below one of {@code scope}. */
  static boolean within(Path file, List<Path> scope) {
    Path f = file.toAbsolutePath().normalize();
    return scope.stream().anyMatch(f::startsWith);
  }
}
