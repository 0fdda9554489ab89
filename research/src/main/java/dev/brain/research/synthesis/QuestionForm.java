package dev.brain.research.synthesis;

import dev.brain.research.plan.Words;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What kind of answer a question's wording asks for, which decides what a passage leads with: a
 * how-to question wants the steps or the command, a what-is question the defining sentence, a why
 * question the reason, a pasted error message the section that explains it, a yes/no question the
 * sentence that decides it, a comparison both sides. Read from the wording alone (question words,
 * the shape of a compiler or runtime message), never from what the corpus is about.
 */
enum QuestionForm {
  /** "How do I …", "how to …", "show stack trace when …": the steps or the command. */
  HOW_TO,
  /** "What is …", "what are …", "what does … mean": the defining sentence first. */
  WHAT_IS,
  /** "Why …": the reason, or the conclusion drawn from one. */
  WHY,
  /** A pasted error or panic message: the section that explains it. */
  ERROR,
  /** "Is …", "Can I …", "Does …": the sentence that decides it. */
  YES_NO,
  /** "What's the difference between …", "X vs Y": the sentences naming both sides. */
  COMPARISON,
  /** Anything else: a fact. */
  FACT;

  /**
   * An error code or a message as a compiler or runtime prints it ({@code error[E0382]:}, {@code
   * panicked at}, {@code Traceback}, {@code KeyError:}).
   */
  private static final Pattern ERROR_MESSAGE =
      Pattern.compile(
          "\\berror(?:\\[[A-Za-z]*\\d+\\])?:|\\bpanicked at\\b|\\bTraceback\\b|"
              + "\\b\\w*(?:Error|Exception):|\\b[A-Z]\\d{4}\\b");

  /** Question words a user's own sentence opens with. */
  private static final Pattern QUESTION_START =
      Pattern.compile(
          "^(?:how|what|what's|why|when|where|which|who|is|are|can|could|does|do|did|will|would"
              + "|should|if|i|my)\\b");

  private static final Pattern HOW_TO_START =
      Pattern.compile(
          "^(?:how (?:do|can|should|would|could) (?:i|we|you|one)\\b|how to\\b|"
              + "(?:what is|what's) the (?:simplest|easiest|best|quickest|right) way\\b|"
              + "(?:simplest|easiest|best|quickest) way\\b|is there a (?:way|quick)\\b|"
              + "(?:show|make|get|set|use|run|install|add|remove|update|stop|send|read|write|load|"
              + "create|convert|turn|print|call|pass|return)\\b)");

  private static final Pattern WHAT_IS_START =
      Pattern.compile("^(?:what (?:is|are|was|were)|what's|what does .* mean|define)\\b");

  private static final Pattern YES_NO_START =
      Pattern.compile("^(?:is|are|can|could|does|do|did|will|would|should|has|have|must|may)\\b");

  private static final Pattern COMPARISON_WORDS =
      Pattern.compile(
          "\\b(?:difference between|differences between|differ from|compared? to|compare|"
              + "versus|vs\\.?|or)\\b");

  /** The form of {@code question}. */
  static QuestionForm of(String question) {
    String q = question.strip();
    String lower = q.toLowerCase(Locale.ROOT);
    if (ERROR_MESSAGE.matcher(q).find() || pastedMessage(lower)) {
      return ERROR;
    }
    if (lower.startsWith("why ") || lower.contains(" why ")) {
      return WHY;
    }
    if (lower.contains("difference between")
        || lower.contains("differences between")
        || lower.matches(".*\\b(?:vs\\.?|versus)\\b.*")) {
      return COMPARISON;
    }
    if (HOW_TO_START.matcher(lower).find() || lower.contains(" how do i ")) {
      return HOW_TO;
    }
    if (WHAT_IS_START.matcher(lower).find()) {
      return WHAT_IS;
    }
    if (YES_NO_START.matcher(lower).find()) {
      return COMPARISON_WORDS.matcher(lower).find() && lower.contains(" or ") ? COMPARISON : YES_NO;
    }
    return FACT;
  }

  /**
   * Words that give a reason ("because", "this is why", "Why I switched:") or draw the conclusion
   * from one ("therefore", "as a result", "As such, Rust does not have nulls" opening a clause, not
   * "a library as such"); not "since", which as often gives a date, nor a bare "so", nor "thus
   * far". Matched on the lower-cased sentence.
   */
  private static final Pattern REASON =
      Pattern.compile(
          "\\b(?:because|why|reasons?|so that|due to|in order to|otherwise|prevents?|ensures?"
              + "|guarantees?|therefore|thus(?! far)|hence|consequently|as a result)\\b"
              + "|(?:^|[.;:!?]\\s*)as such,");

  /** A sentence that says what something is. */
  private static final Pattern DEFINES =
      Pattern.compile(
          "\\b(?:is|are) (?:a|an|the|one of|called|known as)\\b|\\b(?:refers? to|means|stands for"
              + "|is short for|is an abbreviation)\\b");

  /** Inline code in a sentence shown as Markdown. */
  private static final Pattern CODE_SPAN = Pattern.compile("`+([^`]+)`+");

  /**
   * Whether {@code sentence} (as shown, Markdown) offers what this form of {@code question} asks
   * for: for a how-to question or an error message, a command or name in code whose words neither
   * the question nor the section's headings ({@code context}, stems) hold, or the code block, list
   * or table a lead-in introduces (an error is also explained by a reason or its consequence); for
   * a why question, a reason or the conclusion drawn from one; for a what-is question, a
   * definition.
   */
  boolean offers(String question, String sentence, Set<String> context, boolean introducesBlock) {
    String lower = sentence.toLowerCase(Locale.ROOT);
    return switch (this) {
      case HOW_TO -> introducesBlock || newCode(question, sentence, context);
      case ERROR ->
          introducesBlock || newCode(question, sentence, context) || REASON.matcher(lower).find();
      case WHY -> REASON.matcher(lower).find();
      case WHAT_IS -> DEFINES.matcher(lower).find();
      case YES_NO, COMPARISON, FACT -> false;
    };
  }

  /**
   * Whether {@code sentence} has inline code naming something new: a word (by stem) that neither
   * {@code question} nor {@code context} holds ({@code panic!} is no news under a heading about
   * panics or in a question about them; {@code RUST_BACKTRACE} is).
   */
  private static boolean newCode(String question, String sentence, Set<String> context) {
    Set<String> known = new HashSet<>(Words.stems(question));
    known.addAll(context);
    var m = CODE_SPAN.matcher(sentence);
    while (m.find()) {
      for (String stem : Words.stems(m.group(1))) {
        if (stem.chars().anyMatch(Character::isLetter) && !known.contains(stem)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether the question is a pasted message followed by the user's own words ("expected opaque
   * type, found a different opaque type -- I put the closures …"): a part before " -- " that does
   * not open as a question does.
   */
  private static boolean pastedMessage(String lower) {
    int dash = lower.indexOf(" -- ");
    return dash > 0 && !QUESTION_START.matcher(lower.substring(0, dash).strip()).find();
  }
}
