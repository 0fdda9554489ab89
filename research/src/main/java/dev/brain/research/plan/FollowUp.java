package dev.brain.research.plan;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.brain.research.plan.Concept.Role;
import dev.brain.retrieval.InvalidSearchException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a short chat follow-up was read: "and for the V60?" after "What grind size do I use for
 * espresso?" asks the earlier question again with its {@code for} phrase replaced, "What grind size
 * do I use for the V60?". The follow-up keeps the earlier turn's intent (its required concepts) and
 * names the one thing that changes; the resolved question is then planned like any question. Only
 * the user's own questions take part, never an earlier answer.
 *
 * <p>A follow-up is resolved when it is a fragment of at most {@value #MAX_FRAGMENT_WORDS} words:
 * it opens with a cue ("and", "what about", "how about", "also") or a preposition, and not with a
 * question word ("and how long does it take?" is a question of its own, planned with the earlier
 * words as context). Its words replace the earlier question's phrase that opens with the same
 * preposition ("for espresso" by "for the V60"), else, when it names things only, the earlier
 * question's last required concept ("what about the V60?"). A chain of follow-ups resolves one
 * after another.
 *
 * <p>A bare "why?" ("why is that?", "why not?", "how come?", "why so?") asks for the reason behind
 * the earlier answer, not for the earlier question again: it is read as "Why" followed by the
 * earlier question, a why question keeping all of its required concepts, so the synthesizer leads
 * with a sentence that gives a reason and says plainly when the thread's notes give none.
 *
 * @param resolvedQuestion the question the follow-up was read as
 * @param previousQuestion the earlier question it continues (itself resolved)
 * @param replaced the words of the earlier question the follow-up replaced
 * @param inheritedConcepts the earlier question's required concepts the follow-up keeps
 * @param reason how it was read, in words
 */
public record FollowUp(
    @JsonProperty("resolved_question") String resolvedQuestion,
    @JsonProperty("previous_question") String previousQuestion,
    String replaced,
    @JsonProperty("inherited_concepts") List<String> inheritedConcepts,
    String reason) {

  public FollowUp {
    inheritedConcepts = List.copyOf(inheritedConcepts);
  }

  /** Longest fragment, in words, read as a follow-up of the earlier question. */
  static final int MAX_FRAGMENT_WORDS = 6;

  private static final Pattern CUE =
      Pattern.compile(
          "^(?:(?:and|also|then|so|but|ok|okay)\\b[,\\s]*)*"
              + "(?:(?:what|how) about|what of|same (?:for|with)|likewise for)?\\b[,\\s]*",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern QUESTION_WORD =
      Pattern.compile(
          "^(?:how|what|why|when|where|which|who|whom|whose|is|are|was|were|do|does|did|can"
              + "|could|should|would|will|shall|may|might|have|has|had)\\b",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern PREPOSITION =
      Pattern.compile(
          "^(for|with|on|in|at|about|of|to|from|during|after|before|without|into|over|under"
              + "|by)\\s+\\S",
          Pattern.CASE_INSENSITIVE);

  /**
   * A bare why: a cue, "why" or "how come", at most a verb with a pronoun ("why is that", "why's
   * it") and a closing word ("not", "so", "though"), nothing that names a thing.
   */
  private static final Pattern WHY_ASK =
      Pattern.compile(
          "^(?:(?:and|but|so|ok|okay|then)\\b[,\\s]*)*(?:why|how come)"
              + "(?:(?:'s|\\s+(?:is|was|are|were|does|do|did|would|should|not))"
              + "\\s+(?:that|this|it|so|they|them|not))?"
              + "(?:\\s+(?:not|so|then|though|exactly))?[\\s?!.]*$",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern ARTICLE = Pattern.compile("(?i)(?:\\b(?:the|a|an|my|our)\\s+)$");

  /**
   * The follow-up reading of {@code text}'s current question, or {@code null} when it is not a
   * fragment continuing the earlier question (a first question, a correction, a question of its
   * own).
   */
  static FollowUp resolve(QuestionText text) {
    if (!text.inChat() || text.corrective()) {
      return null;
    }
    try {
      String previous = previousStandalone(text);
      return asksWhy(text.current())
          ? why(text.current(), previous)
          : resolveAgainst(text, previous);
    } catch (InvalidSearchException e) {
      return null; // an earlier question without searchable words has no intent to keep
    }
  }

  /** The previous question of a chat as a standalone question (a follow-up itself resolved). */
  static String previousStandalone(QuestionText text) {
    if (!text.inChat()) {
      return null;
    }
    List<String> earlier = text.priorQuestions();
    return trimEnd(standalone(earlier.subList(0, earlier.size() - 1), text.previousQuestion()));
  }

  /** {@code question} as a standalone question, given the questions asked before it. */
  private static String standalone(List<String> before, String question) {
    QuestionText qt = QuestionText.parse(question);
    if (before.isEmpty()) {
      return qt.current();
    }
    var chained =
        new QuestionText(
            qt.current(), qt.core(), before, qt.overviewPrefix(), qt.corrective(), qt.negated());
    FollowUp up = resolve(chained);
    return up == null ? qt.current() : up.resolvedQuestion();
  }

  private static FollowUp resolveAgainst(QuestionText text, String previous) {
    String fragment = fragment(text.current());
    if (fragment == null) {
      return null;
    }
    String prev = previous;
    Matcher prep = PREPOSITION.matcher(fragment);
    if (prep.find()) {
      String word = prep.group(1).toLowerCase(Locale.ROOT);
      int at = lastPhrase(prev, word);
      if (at >= 0) {
        int end = phraseEnd(prev, at + word.length() + 1);
        return build(prev, at, end, fragment, "the earlier question's '" + word + "' phrase");
      }
      // No phrase to replace: the fragment is added to the earlier question.
      return build(prev, prev.length(), prev.length(), " " + fragment, "added to it");
    }
    String last = namesThings(fragment) ? lastRequired(prev) : null;
    if (last == null) {
      return null;
    }
    int at = prev.toLowerCase(Locale.ROOT).lastIndexOf(last);
    if (at < 0) {
      return null;
    }
    Matcher article = ARTICLE.matcher(prev.substring(0, at));
    int start = article.find() ? article.start() : at;
    return build(prev, start, at + last.length(), fragment, "the earlier question's last concept");
  }

  /** Whether {@code current} is a bare why ("why?", "why is that?", "how come?"). */
  static boolean asksWhy(String current) {
    return WHY_ASK.matcher(current.strip()).matches();
  }

  /**
   * The reading of a bare why after {@code previous}: "Why" (or "Why not") followed by the earlier
   * question, keeping every required concept of it.
   */
  private static FollowUp why(String current, String previous) {
    boolean not = current.toLowerCase(Locale.ROOT).matches("(?s).*\\bnot\\b.*");
    String asked = previous.isEmpty() ? previous : lowerFirst(previous);
    String resolved = (not ? "Why not " : "Why ") + asked + "?";
    List<String> kept = requiredOf(previous).stream().map(Concept::key).toList();
    String reason =
        "a short follow-up of \""
            + previous
            + "?\" asking for the reason behind its answer; read as \""
            + resolved
            + "\"";
    return new FollowUp(resolved, previous + "?", null, kept, reason);
  }

  /** {@code s} with its first letter lower-case, unless its first word is a name ("I", "V60"). */
  private static String lowerFirst(String s) {
    String first = s.split("\\s+", 2)[0];
    boolean name = first.length() == 1 || first.chars().skip(1).anyMatch(Character::isUpperCase);
    return name ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  private static FollowUp build(String prev, int start, int end, String fragment, String how) {
    String resolved = (prev.substring(0, start) + fragment + prev.substring(end)).strip();
    resolved = resolved.replaceAll("\\s+", " ") + "?";
    String replaced = prev.substring(start, end).strip();
    Strategy before = QueryAnalyzer.analyze(prev, false);
    Strategy after = QueryAnalyzer.analyze(resolved, false);
    var kept =
        before.required().stream()
            .map(Concept::key)
            .filter(k -> after.required().stream().anyMatch(c -> c.key().equals(k)))
            .toList();
    String reason =
        "a short follow-up of \""
            + prev
            + "?\": "
            + (replaced.isEmpty() ? how : "'" + replaced + "' (" + how + ") replaced")
            + "; read as \""
            + resolved
            + "\"";
    return new FollowUp(resolved, prev + "?", replaced, kept, reason);
  }

  private static final Pattern PRONOUN =
      Pattern.compile("\\b(?:it|its|that|this|they|them|their|those|these|there)\\b");

  /**
   * The reading of a follow-up planned as itself that keeps {@code inherited}, the keys of required
   * concepts of {@code previous}: all of them when it names no concept of its own ({@code
   * namesNone}), else the names and tags a pronoun refers back to.
   */
  static FollowUp kept(String current, String previous, List<String> inherited, boolean namesNone) {
    String reason =
        "a follow-up of \""
            + previous
            + "?\" that "
            + (namesNone ? "names no concept of its own: it keeps " : "refers back to ")
            + String.join(", ", inherited);
    return new FollowUp(current, previous + "?", null, inherited, reason);
  }

  /** Whether {@code core} refers back with a pronoun ("what did it cost?"). */
  static boolean refersBack(String core) {
    return PRONOUN.matcher(core.toLowerCase(Locale.ROOT)).find();
  }

  /** The required concepts of an earlier question; none when it has no searchable word. */
  static List<Concept> requiredOf(String previous) {
    try {
      return QueryAnalyzer.analyze(previous, false).required();
    } catch (InvalidSearchException e) {
      return List.of();
    }
  }

  /** The fragment a follow-up names (its cue removed), or {@code null} when it is no fragment. */
  static String fragment(String current) {
    String s = trimEnd(current.strip());
    Matcher cue = CUE.matcher(s);
    boolean cued = cue.find() && cue.end() > 0;
    String rest = cued ? s.substring(cue.end()).strip() : s;
    if (rest.isEmpty() || QUESTION_WORD.matcher(rest).find()) {
      return null;
    }
    int words = rest.split("\\s+").length;
    boolean prepositional = PREPOSITION.matcher(rest).find();
    // A bare phrase without a cue may be a new question ("Tomato varieties?"): never resolved.
    if (words > MAX_FRAGMENT_WORDS || (!cued && !prepositional)) {
      return null;
    }
    return rest;
  }

  /** Where the last phrase opening with {@code preposition} starts in {@code text}, or -1. */
  private static int lastPhrase(String text, String preposition) {
    Matcher m = Pattern.compile("(?i)\\b" + Pattern.quote(preposition) + "\\s+\\S").matcher(text);
    int at = -1;
    while (m.find()) {
      at = m.start();
    }
    return at;
  }

  /** The end of the phrase from {@code from}: the next clause mark, "and", or the text's end. */
  private static int phraseEnd(String text, int from) {
    Matcher m = Pattern.compile("(?i)[,;:]|\\s(?:and|but|or)\\s").matcher(text);
    return m.find(from) ? m.start() : text.length();
  }

  /**
   * Whether every concept {@code fragment} requires is a named thing (a capitalized or quoted name,
   * a tag): "what about the V60?" swaps the earlier question's object, while a plain word ("and
   * what about descaling?") may be a new topic and only borrows the earlier words as context.
   */
  private static boolean namesThings(String fragment) {
    List<Concept> required;
    try {
      required = QueryAnalyzer.analyze(fragment, false).required();
    } catch (InvalidSearchException e) {
      return false; // nothing searchable: not a name
    }
    return !required.isEmpty()
        && required.stream().allMatch(c -> c.role() == Role.ENTITY || c.role() == Role.TAG);
  }

  /** The earlier question's last required concept, as written (lower-case), or {@code null}. */
  private static String lastRequired(String question) {
    List<Concept> required = QueryAnalyzer.analyze(question, false).required();
    return required.isEmpty() ? null : required.get(required.size() - 1).preferred();
  }

  private static String trimEnd(String s) {
    return s.replaceAll("[\\s?!.]+$", "");
  }
}
