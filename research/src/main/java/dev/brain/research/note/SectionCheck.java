package dev.brain.research.note;

import dev.brain.research.note.NoteResearchException.Reason;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a research section before it is written: every {@code [[wikilink]]} names a real note (one
 * of the findings, or a note file in a collection) and exactly one (a name two notes share needs
 * its path), and every URL is one the searches returned. A section that fails is never written.
 */
final class SectionCheck {
  private SectionCheck() {}

  private static final Pattern WIKILINK =
      Pattern.compile("\\[\\[([^\\]|#\\n]*)(?:[#|][^\\]\\n]*)?]]");
  private static final Pattern URL = Pattern.compile("https?://[^\\s)>\\]\"'`]+");

  /**
   * @param known wikilink targets of the findings' notes (lower case)
   * @param urls URLs the searches and the corpus returned
   * @param notes the note files of the collections
   * @throws NoteResearchException of {@link Reason#VERIFICATION_FAILED} naming what is not real or
   *     a link that could open more than one note
   */
  static void check(String body, Set<String> known, Set<String> urls, NoteLinks notes) {
    var unknownLinks = new ArrayList<String>();
    var ambiguous = new ArrayList<String>();
    Matcher w = WIKILINK.matcher(body);
    while (w.find()) {
      String target = w.group(1).strip();
      if (notes.isAmbiguous(target)) {
        ambiguous.add(
            "[[" + target + "]] could open " + String.join(" or ", notes.notesNamed(target)));
      } else if (!known.contains(target.toLowerCase(Locale.ROOT)) && !notes.exists(target)) {
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
    if (unknownLinks.isEmpty() && unknownUrls.isEmpty() && ambiguous.isEmpty()) {
      return;
    }
    var problems = new ArrayList<String>();
    if (!unknownLinks.isEmpty()) {
      problems.add(
          "wikilinks to no note: " + String.join(", ", unknownLinks.stream().distinct().toList()));
    }
    if (!ambiguous.isEmpty()) {
      problems.add(
          "wikilinks naming more than one note (write the path): "
              + String.join(", ", ambiguous.stream().distinct().toList()));
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
}
