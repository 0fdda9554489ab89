package dev.brain.research.synthesis;

import dev.brain.research.plan.Words;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What kind of thing a question asks for, and whether a sentence offers one the question does not
 * already name: a month or year for "when" and "what year", a figure for "how many" and "how much",
 * a figure or a frequency ("once a week", "daily") for "how often", a figure in a sentence naming
 * what it measures for "how many entries", "the maximum file size" or "which port", a capitalised
 * name for "who", "which" and "where", a model or version number ("A350-900", "PS5", "10.3") for
 * "which model" and "what version". A question in parts ("When did I run it and what was my time?")
 * asks for the kind of each part. A sentence that only restates the question's words offers nothing
 * new; among sentences covering the same concepts the extractive synthesizer prefers one that
 * offers an asked-for kind, and leads with it.
 */
final class AnswerShape {

  /** The kind of answer a question wants; {@link #ANY} when its words do not say. */
  enum Kind {
    DATE,
    NUMBER,
    NAME,
    MODEL,
    ANY
  }

  private static final Set<String> NUMBER_WORDS =
      Set.of(
          "one",
          "two",
          "three",
          "four",
          "five",
          "six",
          "seven",
          "eight",
          "nine",
          "ten",
          "eleven",
          "twelve",
          "twenty",
          "thirty",
          "forty",
          "fifty",
          "hundred",
          "thousand",
          "million",
          "billion",
          "trillion",
          "dozen",
          "once",
          "twice",
          "daily",
          "weekly",
          "monthly",
          "yearly",
          "seventh",
          "sixth",
          "fifth",
          "fourth",
          "third");

  /** What a figure measures: "what was my finish time?", "what is the population of". */
  private static final Pattern MEASURE =
      Pattern.compile(
          "^ what (?:is|was|are|were|s) (?:the |my |your |his |her |their |its |our )?(?:\\w+ )?"
              + "(?:time|score|pace|speed|temperature|weight|distance|height|length|population"
              + "|budget|salary|age|capacity|attendance|revenue) ");

  /**
   * Where a question turns to another part: a question mark or semicolon, or "and" before a
   * question word, as in "When did I run it, and what was my time?" (a comma alone is not enough:
   * "the grinder, which I bought" goes on with the same part).
   */
  private static final Pattern PARTS =
      Pattern.compile(
          "[?;]|,?\\s+and\\s+(?=(?:what|when|where|who|whom|whose|which|how)\\b)",
          Pattern.CASE_INSENSITIVE);

  /**
   * A figure asked for by what it measures: "how many <em>entries</em>", "the maximum <em>file
   * size</em>", "max number of <em>background jobs</em>", "what <em>tab width</em>", "which
   * <em>port</em>". Group 1 is the words after it; {@link #measured} reads the thing measured from
   * them. Words are read with their hyphens and dots ("max-len" is a name, not "max"). A
   * superlative ("the country with the largest export volume") picks a thing, not a figure.
   */
  private static final Pattern MEASURED =
      Pattern.compile(
          "(?:^|\\s)(?:how (?:many|much)|max|maximum|min|minimum"
              + "|(?:what|which)(?= (?:[\\w.-]+ )?(?:port|width|height|size|limit"
              + "|timeout|length|depth|interval|delay|resolution|count|number)(?:\\s|$)))"
              + "\\s+(?:(?:number|amount|count) of\\s+)?((?:[\\w.-]+\\s*){1,2})",
          Pattern.CASE_INSENSITIVE);

  private AnswerShape() {}

  /**
   * The thing a figure the question asks for measures (at most two words, up to the first stop
   * word: "entries", "background jobs", "tab width", "port"); empty when the question asks for no
   * figure of a named thing ("how many times", "how much is it" name none a sentence must repeat:
   * "times" is how a count is said).
   */
  static List<String> measured(String question) {
    var m = MEASURED.matcher(question.toLowerCase(Locale.ROOT).replaceAll("[?!,;:]", " "));
    if (!m.find()) {
      return List.of();
    }
    var out = new ArrayList<String>();
    for (String w : m.group(1).trim().split("\\s+")) {
      if (Words.isStop(w) || UNITS.contains(w) || !w.chars().anyMatch(Character::isLetter)) {
        break;
      }
      out.add(w);
    }
    return out;
  }

  /** Words a count or amount is said in, which a sentence giving it need not repeat. */
  private static final Set<String> UNITS = Set.of("times", "time", "more", "less", "of", "is");

  /**
   * Whether {@code sentence} or the headings it sits under ({@code context}) name a word of the
   * thing {@code question}'s figure measures ({@link #measured}), by stem ("what grind size" is
   * given by "15 on the dial" under "Grind settings"); true when the question names none.
   */
  static boolean namesMeasured(String question, String sentence, String context) {
    List<String> thing = measured(question);
    if (thing.isEmpty()) {
      return true;
    }
    Set<String> stems = Words.stems(sentence + "\n" + context);
    return thing.stream().anyMatch(w -> Words.matches(w, stems));
  }

  /** The kinds of answer the parts of {@code question} want; empty when their words do not say. */
  static Set<Kind> kinds(String question) {
    var out = EnumSet.noneOf(Kind.class);
    for (String part : PARTS.split(question)) {
      Kind kind = of(part);
      if (kind != Kind.ANY) {
        out.add(kind);
      }
    }
    return out;
  }

  /** The kind of answer {@code question} wants, read as one part. */
  static Kind of(String question) {
    String q = " " + String.join(" ", words(question.toLowerCase(Locale.ROOT))) + " ";
    // "When do I retire running shoes?" asks for a condition, not a date.
    boolean condition =
        containsAny(q, " when do ", " when does ", " when should ", " when can ", " when to ");
    if (q.startsWith(" when ") && !condition
        || containsAny(
            q,
            " what year ",
            " which year ",
            " what date ",
            " which date ",
            " what month ",
            " which month ",
            " what day ",
            " which day ",
            " since when ")) {
      return Kind.DATE;
    }
    if (containsAny(
            q,
            " how many ",
            " how much ",
            " how often ",
            " how long ",
            " how old ",
            " how far ",
            " how tall ",
            " how big ",
            " how fast ",
            " what percentage ",
            " what time ",
            " price ",
            " cost ")
        || MEASURE.matcher(q).find()) {
      return Kind.NUMBER;
    }
    if (containsAny(
        q,
        " what model ",
        " which model ",
        " the model of ",
        " what version ",
        " which version ",
        " the version of ")) {
      return Kind.MODEL;
    }
    if (q.startsWith(" who ")
        || q.startsWith(" whom ")
        || q.startsWith(" whose ")
        || q.startsWith(" which ")
        || q.startsWith(" where ")) {
      return Kind.NAME;
    }
    return Kind.ANY;
  }

  /** A "when" that asks about an event: "when did", "when was", "when were", "when will". */
  private static final Pattern WHEN_EVENT =
      Pattern.compile("^ when (?:did|was|were|will|has|have|had) ");

  /**
   * The values the parts of {@code question} ask for by their wording, read strictly: a date ("when
   * was it released?", "what year …") or a figure ("how many times …", "how long …", "the price
   * …"). A "when" that sets a condition or a scene ("When is it OK to …", "When I run it, …") asks
   * for no date. An answer whose passages are built around no sentence offering such a value gives
   * the question in part ({@link ExtractiveSynthesizer}).
   */
  static Set<Kind> valuesAsked(String question) {
    var out = EnumSet.noneOf(Kind.class);
    for (String part : PARTS.split(question)) {
      Kind kind = of(part);
      String q = " " + String.join(" ", words(part.toLowerCase(Locale.ROOT))) + " ";
      if (kind == Kind.NUMBER
          || kind == Kind.DATE && (!q.startsWith(" when ") || WHEN_EVENT.matcher(q).find())) {
        out.add(kind);
      } else if (!measured(part).isEmpty()) {
        // A figure of a named thing ("what tab width", "which port") is asked for by its wording,
        // though the ranking reads such a question by its own words (a "which" asks for a name).
        out.add(Kind.NUMBER);
      }
    }
    return out;
  }

  /**
   * A date as a text writes one: a month by its capitalized name ("20 March", "Oct 2024"; the verb
   * "may" is no month), a year standing alone (not a part of a version, "1100.0.0", "v2025.1", nor
   * a port, "127.0.0.1:1111"), or an ISO date.
   */
  private static final Pattern DATE_WRITTEN =
      Pattern.compile(
          "\\b(?:"
              + String.join(
                  "|",
                  Words.MONTHS.stream()
                      .sorted()
                      .map(m -> Character.toUpperCase(m.charAt(0)) + m.substring(1))
                      .toList())
              + ")\\b"
              + "|(?<![\\w.:])(?:1[0-9]{3}|20[0-9]{2}|21[0-9]{2})(?![\\w]|\\.\\d)");

  /**
   * Whether {@code sentence} offers a value of one of {@code kinds} ({@link #valuesAsked}) that
   * {@code question} does not name, read strictly: for a date, one {@link #DATE_WRITTEN}; for a
   * figure, as {@link #offers(Kind, String, String)} reads one, in a sentence that (with its
   * headings, {@code context}) names what the figure measures ({@link #namesMeasured}).
   */
  static boolean offersValue(Set<Kind> kinds, String question, String sentence, String context) {
    for (Kind kind : kinds) {
      if (kind == Kind.DATE) {
        var m = DATE_WRITTEN.matcher(sentence);
        while (m.find()) {
          if (!question.toLowerCase(Locale.ROOT).contains(m.group().toLowerCase(Locale.ROOT))) {
            return true;
          }
        }
      } else if (offers(kind, question, sentence)
          && (kind != Kind.NUMBER || namesMeasured(question, sentence, context))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code sentence} offers one of the {@code kinds} of thing {@code question} asks for.
   */
  static boolean offers(Set<Kind> kinds, String question, String sentence) {
    return kinds.stream().anyMatch(kind -> offers(kind, question, sentence));
  }

  /**
   * Whether {@code sentence} offers a {@code kind} of thing that {@code question} does not name.
   */
  static boolean offers(Kind kind, String question, String sentence) {
    if (kind == Kind.ANY) {
      return false;
    }
    Set<String> asked = new HashSet<>(words(question.toLowerCase(Locale.ROOT)));
    List<String> words = words(sentence);
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      String lower = w.toLowerCase(Locale.ROOT);
      if (asked.contains(lower)) {
        continue;
      }
      boolean offered =
          switch (kind) {
            case DATE -> Words.MONTHS.contains(lower) || isYear(w);
            case NUMBER ->
                !isYear(w) && w.chars().anyMatch(Character::isDigit)
                    || NUMBER_WORDS.contains(lower);
            case NAME ->
                i > 0 && Character.isUpperCase(w.charAt(0)) && !Words.MONTHS.contains(lower);
            case MODEL -> !isYear(w) && w.chars().anyMatch(Character::isDigit);
            case ANY -> false;
          };
      if (offered) {
        return true;
      }
    }
    return false;
  }

  private static boolean isYear(String w) {
    if (w.length() != 4 || !w.chars().allMatch(Character::isDigit)) {
      return false;
    }
    int y = Integer.parseInt(w);
    return y >= 1000 && y <= 2199;
  }

  private static boolean containsAny(String s, String... parts) {
    for (String p : parts) {
      if (s.contains(p)) {
        return true;
      }
    }
    return false;
  }

  /** Runs of letters and digits. */
  private static List<String> words(String s) {
    var out = new ArrayList<String>();
    int start = -1;
    for (int i = 0; i <= s.length(); i++) {
      boolean part = i < s.length() && Character.isLetterOrDigit(s.charAt(i));
      if (part && start < 0) {
        start = i;
      } else if (!part && start >= 0) {
        out.add(s.substring(start, i));
        start = -1;
      }
    }
    return out;
  }
}
