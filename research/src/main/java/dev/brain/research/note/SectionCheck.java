package dev.brain.research.note;

import dev.brain.index.CollectionRoot;
import dev.brain.research.note.NoteResearchException.Reason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks a research section before it is written: every {@code [[wikilink]]} names a real note (one
 * of the findings, or a note file in a collection) and every URL is one the searches returned. A
 * section that fails is never written.
 */
final class SectionCheck {
  private SectionCheck() {}

  private static final Pattern WIKILINK =
      Pattern.compile("\\[\\[([^\\]|#\\n]*)(?:[#|][^\\]\\n]*)?]]");
  private static final Pattern URL = Pattern.compile("https?://[^\\s)>\\]\"'`]+");

  /**
   * @param known wikilink targets of the findings' notes (lower case)
   * @param urls URLs the searches and the corpus returned
   * @throws NoteResearchException of {@link Reason#VERIFICATION_FAILED} naming what is not real
   */
  static void check(
      String body, Set<String> known, Set<String> urls, List<CollectionRoot> collections)
      throws IOException {
    var unknownLinks = new ArrayList<String>();
    Matcher w = WIKILINK.matcher(body);
    Set<String> onDisk = null;
    while (w.find()) {
      String target = w.group(1).strip();
      String lower = target.toLowerCase(Locale.ROOT);
      if (known.contains(lower)) {
        continue;
      }
      if (onDisk == null) {
        onDisk = noteNames(collections);
      }
      if (!onDisk.contains(lower) && !onDisk.contains(stripExtension(lower))) {
        unknownLinks.add("[[" + target + "]]");
      }
    }
    var unknownUrls = new ArrayList<String>();
    Matcher u = URL.matcher(body);
    while (u.find()) {
      String url = u.group().replaceAll("[.,;:!?]+$", "");
      if (!urls.contains(url)) {
        unknownUrls.add(url);
      }
    }
    if (unknownLinks.isEmpty() && unknownUrls.isEmpty()) {
      return;
    }
    var problems = new ArrayList<String>();
    if (!unknownLinks.isEmpty()) {
      problems.add(
          "wikilinks to no note: " + String.join(", ", unknownLinks.stream().distinct().toList()));
    }
    if (!unknownUrls.isEmpty()) {
      problems.add(
          "URLs no search returned: "
              + String.join(", ", unknownUrls.stream().distinct().toList()));
    }
    throw new NoteResearchException(
        Reason.VERIFICATION_FAILED,
        "the research section cites what is not real ("
            + String.join("; ", problems)
            + "); nothing was written");
  }

  /**
   * Names a wikilink may use for the note files of the collections: the file name without its
   * extension and the path in the collection without it (lower case).
   */
  static Set<String> noteNames(List<CollectionRoot> collections) throws IOException {
    var out = new HashSet<String>();
    for (CollectionRoot c : collections) {
      if (!Files.isDirectory(c.root())) {
        continue;
      }
      try (Stream<Path> files = Files.walk(c.root())) {
        files
            .filter(Files::isRegularFile)
            .map(p -> c.root().relativize(p).toString().replace('\\', '/'))
            .filter(
                p -> NoteFile.EXTENSIONS.stream().anyMatch(p.toLowerCase(Locale.ROOT)::endsWith))
            .forEach(
                p -> {
                  String lower = stripExtension(p.toLowerCase(Locale.ROOT));
                  out.add(lower);
                  out.add(lower.substring(lower.lastIndexOf('/') + 1));
                });
      }
    }
    return out;
  }

  private static String stripExtension(String name) {
    int dot = name.lastIndexOf('.');
    int slash = name.lastIndexOf('/');
    return dot > slash + 1 ? name.substring(0, dot) : name;
  }
}
