package dev.brain.index.importer;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * Exclude globs of a collection, matched against paths relative to its root: a glob without {@code
 * /} matches any file or folder name, one ending in {@code /} any folder name, any other the whole
 * relative path (or a folder's path, which excludes everything below it).
 */
final class Excludes {

  private record Rule(PathMatcher matcher, boolean foldersOnly, boolean byName) {}

  private final List<Rule> rules;

  private Excludes(List<Rule> rules) {
    this.rules = rules;
  }

  static Excludes of(List<String> globs) {
    var rules = new ArrayList<Rule>();
    for (String glob : globs) {
      String g = glob.strip().replace('\\', '/');
      boolean foldersOnly = g.endsWith("/");
      while (g.endsWith("/")) {
        g = g.substring(0, g.length() - 1);
      }
      while (g.startsWith("/")) {
        g = g.substring(1);
      }
      if (g.isEmpty()) {
        continue;
      }
      boolean byName = !g.contains("/");
      rules.add(
          new Rule(FileSystems.getDefault().getPathMatcher("glob:" + g), foldersOnly, byName));
    }
    return new Excludes(List.copyOf(rules));
  }

  /**
   * True if the file or folder at {@code relative} (relative to the root, not empty) is excluded.
   */
  boolean excludes(Path relative, boolean folder) {
    for (Rule rule : rules) {
      if (rule.foldersOnly() && !folder) {
        continue;
      }
      Path target = rule.byName() ? relative.getFileName() : relative;
      if (target != null && rule.matcher().matches(target)) {
        return true;
      }
    }
    return false;
  }
}
