package dev.brain.research.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Word handling shared by query understanding, concept matching and the extractive synthesizer:
 * tokens with their case and position, a light English stemmer (plural, -ing, -ed, final e) so
 * "runs", "running" and "run" meet, and slugs for concept keys. Deliberately small: the analyzers
 * of the index stay in the retrieval module.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class Words {
  private Words() {}

  /**
   * Month names and their abbreviations, lower-case. "may" is in: whoever reads a question rather
   * than a date leaves the verb out.
   */
  public static final Set<String> MONTHS =
      Set.of(
          "january",
          "february",
          "march",
          "april",
          "may",
          "june",
          "july",
          "august",
          "september",
          "october",
          "november",
          "december",
          "jan",
          "feb",
          "mar",
          "apr",
          "jun",
          "jul",
          "aug",
          "sep",
          "sept",
          "oct",
          "nov",
          "dec");

  // A word keeps inner apostrophes, dots, hyphens, slashes and underscores (can't, node.js,
  // medium-hard, owner/repo, order_events) and a number its thousands separators (10,000), as the
  // index's tokenizer keeps them; a leading # marks a tag.
  private static final Pattern WORD =
      // Runs of letters and digits joined by single inner punctuation; the group repeats per
      // punctuation mark only, so a 60,000-letter word cannot overflow the regex engine's stack.
      Pattern.compile(
          "#?[\\p{L}\\p{N}]++(?:['’.\\-/_][\\p{L}\\p{N}]++|(?<=\\p{N}),\\p{N}{3}+(?![\\p{L}\\p{N}]))*+");

  /**
   * One word of a text.
   *
   * @param text the word as written (a leading {@code #} removed)
   * @param lower lower-case form, curly apostrophes straightened, possessive {@code 's} removed
   * @param start offset of the word in the text
   * @param capitalized whether it starts with an upper-case letter
   * @param sentenceStart whether it is the first word of a sentence
   * @param hashtag whether it was written as {@code #tag}
   */
  public record Token(
      String text,
      String lower,
      int start,
      boolean capitalized,
      boolean sentenceStart,
      boolean hashtag) {

    /** Whether the word is all upper-case letters and at least two long ({@code HNSW}). */
    boolean acronym() {
      return text.length() >= 2
          && text.chars().anyMatch(Character::isLetter)
          && text.chars().filter(Character::isLetter).allMatch(Character::isUpperCase);
    }
  }

  /** The words of a text, in order. */
  public static List<Token> tokens(String text) {
    var out = new ArrayList<Token>();
    Matcher m = WORD.matcher(text);
    int previousEnd = 0;
    while (m.find()) {
      String raw = m.group();
      boolean hashtag = raw.startsWith("#");
      String word = hashtag ? raw.substring(1) : raw;
      boolean sentenceStart = out.isEmpty() || endsSentence(text.substring(previousEnd, m.start()));
      out.add(
          new Token(
              word,
              lower(word),
              m.start(),
              Character.isUpperCase(word.codePointAt(0)),
              sentenceStart,
              hashtag));
      previousEnd = m.end();
    }
    return out;
  }

  private static boolean endsSentence(String gap) {
    return gap.contains(".") || gap.contains("?") || gap.contains("!") || gap.contains(":");
  }

  /** Lower-case, straight apostrophes, no possessive {@code 's}. */
  public static String lower(String word) {
    String w = word.toLowerCase(Locale.ROOT).replace('’', '\'');
    if (w.endsWith("'s") && w.length() > 2) {
      w = w.substring(0, w.length() - 2);
    }
    return w;
  }

  /** The lower-case words of a text. */
  static List<String> lowerWords(String text) {
    return tokens(text).stream().map(Token::lower).toList();
  }

  /**
   * A light stem: {@code ies -> y}, plural {@code s}, {@code -ing}, {@code -ed}, a doubled final
   * consonant, a final {@code e}. Words of three letters or fewer are kept as they are.
   */
  public static String stem(String word) {
    String w = lower(word);
    if (w.length() <= 3 || !w.chars().allMatch(Character::isLetter)) {
      return w;
    }
    if (w.endsWith("ies") && w.length() > 4) {
      w = w.substring(0, w.length() - 3) + "y";
    } else if (w.endsWith("sses")) {
      w = w.substring(0, w.length() - 2);
    } else if (w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) {
      w = w.substring(0, w.length() - 1);
    }
    if (w.endsWith("ing") && w.length() > 5) {
      w = undouble(w.substring(0, w.length() - 3));
    } else if (w.endsWith("ed") && w.length() > 4) {
      w = undouble(w.substring(0, w.length() - 2));
    }
    if (w.endsWith("e") && w.length() > 3) {
      w = w.substring(0, w.length() - 1);
    }
    return w;
  }

  private static String undouble(String w) {
    int n = w.length();
    if (n >= 3 && w.charAt(n - 1) == w.charAt(n - 2) && "bdfgmnprt".indexOf(w.charAt(n - 1)) >= 0) {
      return w.substring(0, n - 1);
    }
    return w;
  }

  /** The stems of every word of a text. */
  public static Set<String> stems(String text) {
    // The words as tokens(text) finds them, without what only tokens need (sentence starts):
    // research stems every row's text, and this is on the research pack's path.
    var out = new HashSet<String>();
    Matcher m = WORD.matcher(text);
    while (m.find()) {
      String raw = m.group();
      String lower = lower(raw.startsWith("#") ? raw.substring(1) : raw);
      out.add(stem(lower));
      // Hyphenated and slashed words also count by their parts.
      addPartStems(out, lower);
    }
    return out;
  }

  /**
   * Adds the stems of the non-empty parts of {@code word} split at {@code - / _ .}: what {@code
   * word.split("[-/_.]")} gives, without compiling that pattern for every word.
   */
  private static void addPartStems(Set<String> out, String word) {
    int from = 0;
    for (int i = 0; i <= word.length(); i++) {
      if (i == word.length() || "-/_.".indexOf(word.charAt(i)) >= 0) {
        if (i > from) {
          out.add(stem(from == 0 && i == word.length() ? word : word.substring(from, i)));
        }
        from = i + 1;
      }
    }
  }

  /**
   * Whether every content word of {@code form} (a word or a phrase) has its stem in {@code stems}.
   */
  public static boolean matches(String form, Set<String> stems) {
    boolean any = false;
    for (String part : form.split("[\\s\\-/_]+")) {
      String w = lower(part);
      if (w.isEmpty() || (StopWords.STOP.contains(w) && form.contains(" "))) {
        continue;
      }
      if (!stems.contains(stem(w))) {
        return false;
      }
      any = true;
    }
    return any;
  }

  /** A key-safe slug: lower-case words joined by hyphens. */
  static String slug(String text) {
    var parts = new ArrayList<String>();
    for (Token t : tokens(text)) {
      parts.add(t.lower().replaceAll("[^\\p{L}\\p{N}]+", "-"));
    }
    String s = String.join("-", parts).replaceAll("-+", "-");
    return s.replaceAll("^-|-$", "");
  }

  /**
   * The first occurrence of {@code term} in {@code text} as whole words (no letter or digit right
   * before or after it), ignoring case; null when there is none.
   */
  public static java.util.regex.Matcher find(String text, String term) {
    return find(text, term, true);
  }

  /**
   * The first occurrence of {@code term} in {@code text} as whole words, ignoring case or written
   * exactly as {@code term} writes it; null when there is none.
   */
  public static java.util.regex.Matcher find(String text, String term, boolean ignoreCase) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "(?<![\\p{L}\\p{N}])" + java.util.regex.Pattern.quote(term) + "(?![\\p{L}\\p{N}])",
                ignoreCase
                    ? java.util.regex.Pattern.CASE_INSENSITIVE
                        | java.util.regex.Pattern.UNICODE_CASE
                    : 0)
            .matcher(text);
    return m.find() ? m : null;
  }

  /** Whether {@code word} (lower-case) is a stop, question or filler word of the vocabulary. */
  public static boolean isStop(String word) {
    return StopWords.STOP.contains(word);
  }
}
