package dev.brain.research.note;

import dev.brain.index.CollectionRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The note files of the collections by the names a wikilink may use, so that a written link opens
 * the note it means in Obsidian: a note whose file name is unique is linked by it ({@code
 * [[Templates]]}); one whose name another note shares is linked by its path with the name as alias
 * ({@code [[Plugins/Templates|Templates]]}), since Obsidian would open either for the bare name.
 */
final class NoteLinks {
  /** Paths in their collection without the extension, by lower-case file name without it. */
  private final Map<String, List<String>> byName;

  private NoteLinks(Map<String, List<String>> byName) {
    this.byName = byName;
  }

  /** The note files of {@code collections}. */
  static NoteLinks of(List<CollectionRoot> collections) throws IOException {
    var byName = new HashMap<String, List<String>>();
    for (CollectionRoot c : collections) {
      if (!Files.isDirectory(c.root())) {
        continue;
      }
      try (Stream<Path> files = Files.walk(c.root())) {
        files
            .filter(Files::isRegularFile)
            .map(p -> c.root().relativize(p).toString().replace('\\', '/'))
            .filter(NoteLinks::isNote)
            .forEach(
                p -> {
                  String path = stripExtension(p);
                  byName.computeIfAbsent(name(path), k -> new ArrayList<>()).add(path);
                });
      }
    }
    return new NoteLinks(byName);
  }

  /** The wikilink target (and alias) of the note at {@code notePath} in its collection. */
  String link(String notePath) {
    String path = stripExtension(notePath.replace('\\', '/'));
    String name = path.substring(path.lastIndexOf('/') + 1);
    return isAmbiguous(name) ? path + "|" + name : name;
  }

  /** Whether more than one note answers to {@code name} (a bare file name, no path). */
  boolean isAmbiguous(String name) {
    return !name.contains("/") && byName.getOrDefault(name(name), List.of()).size() > 1;
  }

  /** The notes a bare name could mean, as paths, sorted; empty for an unknown name. */
  List<String> notesNamed(String name) {
    return byName.getOrDefault(name(name), List.of()).stream().sorted().toList();
  }

  /** Whether a wikilink target names a note: by unique or shared name, or by its path. */
  boolean exists(String target) {
    String t = stripExtension(target.strip());
    if (!t.contains("/")) {
      return byName.containsKey(name(t));
    }
    return byName.getOrDefault(name(t), List.of()).stream()
        .anyMatch(
            p ->
                p.equalsIgnoreCase(t)
                    || p.toLowerCase(Locale.ROOT).endsWith("/" + t.toLowerCase(Locale.ROOT)));
  }

  private static String name(String path) {
    return path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
  }

  private static boolean isNote(String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    return NoteFile.EXTENSIONS.stream().anyMatch(lower::endsWith);
  }

  /** A note path or name without its note extension ({@code .md}, {@code .markdown}, ...). */
  static String stripExtension(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String ext : NoteFile.EXTENSIONS) {
      if (lower.endsWith(ext)) {
        return name.substring(0, name.length() - ext.length());
      }
    }
    return name;
  }
}
