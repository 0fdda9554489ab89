package dev.brain.research.synthesis;

import dev.brain.research.plan.Words;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Sentences of a text shown as Markdown, and what makes one worth quoting. Inline code is kept
 * whole: the JDK's sentence {@link BreakIterator} splits the text with every code span masked, so
 * {@code `?`} or {@code `println!`} never ends a sentence.
 */
final class Sentences {
  private Sentences() {}

  /** Shortest statement worth quoting, in characters. */
  static final int MIN_CHARS = 12;

  /** Longest sentence quoted; longer ones are left out, never cut. */
  static final int MAX_CHARS = 600;

  /** The sentences of one unit of Markdown text (a paragraph, a list item, a table row). */
  static List<String> split(String markdown) {
    var out = new ArrayList<String>();
    String masked = masked(markdown);
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
    it.setText(masked);
    int start = it.first();
    int lastStart = -1;
    for (int end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
      String s = markdown.substring(start, end).strip();
      if (s.isEmpty()) {
        continue;
      }
      // A period inside parentheses ends no sentence: "Physio (Dr. Lenz) diagnosis ..." is one.
      if (lastStart >= 0
          && openParentheses(masked, lastStart, start) > 0
          && openParentheses(masked, start, end) < 0) {
        out.set(out.size() - 1, markdown.substring(lastStart, end).strip());
        continue;
      }
      out.add(s);
      lastStart = start;
    }
    return out;
  }

  /** Opening minus closing parentheses in {@code masked} from {@code from} to {@code to}. */
  private static int openParentheses(String masked, int from, int to) {
    int depth = 0;
    for (int i = from; i < to; i++) {
      char c = masked.charAt(i);
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    }
    return depth;
  }

  /** {@code markdown} with every character inside a code span (backticks included) a letter. */
  private static String masked(String markdown) {
    char[] chars = markdown.toCharArray();
    int i = 0;
    while (i < chars.length) {
      if (chars[i] != '`') {
        i++;
        continue;
      }
      int run = 0;
      while (i + run < chars.length && chars[i + run] == '`') {
        run++;
      }
      String fence = "`".repeat(run);
      int close = markdown.indexOf(fence, i + run);
      if (close < 0) {
        i += run;
        continue;
      }
      for (int k = i; k < close + run; k++) {
        chars[k] = 'x';
      }
      i = close + run;
    }
    return new String(chars);
  }

  /** The plain words of a Markdown sentence: its code spans without their backticks. */
  static String plain(String markdown) {
    return markdown.replace("`", "");
  }

  /** Whether a sentence states something quotable: long enough, not too long, not a question. */
  static boolean quotable(String s) {
    return s.length() >= MIN_CHARS
        && s.length() <= MAX_CHARS
        && s.chars().anyMatch(Character::isLetter)
        && !s.endsWith("?");
  }

  /** Whether a sentence leads into what follows it ("run the following update script:"). */
  static boolean leadsIn(String s) {
    return s.endsWith(":");
  }

  /** Longest link text read as a pointer to a note (its title), in words. */
  static final int MAX_POINTER_WORDS = 5;

  /** Words that, besides function words, only point: "See X", "Related: X", "cf. X". */
  private static final Set<String> POINTING =
      Set.of("see", "also", "via", "cf", "next", "previous", "related", "refer", "information");

  /**
   * Whether {@code sentence} only sends the reader elsewhere instead of saying something: a line
   * that is little more than links (with its short links, note titles, taken out, at most one word
   * is left besides function words and {@link #POINTING} words, as in a hub note's "Gear: Running
   * shoes", and no figure: "V60 recipe: 42" gives a value), or a pointer phrase ("For more
   * information, refer to Embed a canvas.", "please see Sync your notes", "See the documentation
   * for details.").
   */
  static boolean pointsElsewhere(String sentence, List<String> links) {
    if (pointer(sentence)) {
      return true;
    }
    if (labelledLinks(sentence, links)) {
      return true;
    }
    String rest = sentence;
    boolean linked = false;
    for (String link : links) {
      if (link.split(" ").length <= MAX_POINTER_WORDS && rest.contains(link)) {
        rest = rest.replace(link, " ");
        linked = true;
      }
    }
    // A value after the link ("V60 recipe: 42", "Half marathon PB: 1:36") states something.
    return linked && said(rest) <= 1 && !rest.chars().anyMatch(Character::isDigit);
  }

  /** Longest label before the links of a hub note's line ("Tune-up race: Half marathon PB"). */
  static final int MAX_LABEL_WORDS = 3;

  /**
   * Whether {@code sentence} is a short label, a colon, then nothing but links: a hub note's line
   * naming where something is written ("Tune-up race: Half marathon PB").
   */
  private static boolean labelledLinks(String sentence, List<String> links) {
    int colon = sentence.indexOf(':');
    if (colon < 0
        || links.isEmpty()
        || Words.tokens(sentence.substring(0, colon)).size() > MAX_LABEL_WORDS) {
      return false;
    }
    String rest = sentence.substring(colon + 1);
    for (String link : links) {
      rest = rest.replace(link, " ");
    }
    return said(rest) == 0;
  }

  /** Words a sentence says besides function words and pointing words. */
  private static long said(String text) {
    return Words.tokens(text).stream()
        .map(Words.Token::lower)
        .filter(w -> !Words.isStop(w) && !POINTING.contains(w))
        .count();
  }

  /**
   * Whether a sentence opens by pointing elsewhere: "See …", "Please see …", "For more information,
   * …", "For more on …", "For details, …", "Refer to …", "Learn more …", "Read more …".
   */
  static boolean pointer(String sentence) {
    List<String> words = Words.tokens(sentence).stream().map(Words.Token::lower).toList();
    if (words.isEmpty()) {
      return false;
    }
    int i = words.get(0).equals("please") ? 1 : 0;
    if (i >= words.size()) {
      return false;
    }
    String first = words.get(i);
    String second = i + 1 < words.size() ? words.get(i + 1) : "";
    String third = i + 2 < words.size() ? words.get(i + 2) : "";
    return first.equals("see")
        || first.equals("refer")
        || (first.equals("learn") || first.equals("read")) && second.equals("more")
        || first.equals("for")
            && (second.equals("details")
                || second.equals("further")
                || second.equals("more") && MORE.contains(third));
  }

  /** What follows "for more" in a pointer: "For more information, …", "For more on X, see …". */
  private static final Set<String> MORE = Set.of("information", "info", "details", "on", "about");

  private static final Set<String> PRONOUNS =
      Set.of(
          "it", "its", "he", "his", "she", "her", "they", "their", "this", "these", "that",
          "those");

  /** Whether a sentence opens with a pronoun standing for what the sentence before it names. */
  static boolean opensWithPronoun(String sentence) {
    int start = 0;
    while (start < sentence.length() && !Character.isLetter(sentence.charAt(start))) {
      start++;
    }
    int end = start;
    while (end < sentence.length() && Character.isLetter(sentence.charAt(end))) {
      end++;
    }
    return PRONOUNS.contains(sentence.substring(start, end).toLowerCase(Locale.ROOT));
  }
}
