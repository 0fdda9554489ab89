package dev.brain.research.synthesis;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The soft gate of {@link Verification}: paragraphs of an answer that state something without
 * citing a record. A paragraph is covered by its own citation, or by the citing paragraph before it
 * that ends with a colon ("From your notes, “Espresso” [note:…]:" leads in the quotes that follow,
 * up to the next citing paragraph). Code blocks, headings, questions, a few words and brain's own
 * statements about the evidence ("These passages do not mention …", "No evidence: …") claim
 * nothing. Advisory: a warning never changes whether the answer passed.
 */
final class UncitedClaims {
  private UncitedClaims() {}

  /** Fewest words of a paragraph that states something on its own. */
  static final int MIN_WORDS = 6;

  /** Longest quote of an uncited paragraph in a warning. */
  static final int QUOTE_CHARS = 80;

  private static final Pattern PARAGRAPH_BREAK = Pattern.compile("\\n\\s*\\n");

  /** The warnings for {@code answer}, one per uncited paragraph, in answer order. */
  static List<String> of(String answer) {
    var out = new ArrayList<String>();
    if (answer == null || answer.isBlank()) {
      return out;
    }
    boolean ledIn = false;
    boolean inFence = false;
    int n = 0;
    for (String raw : PARAGRAPH_BREAK.split(answer.strip())) {
      String p = raw.strip();
      n++;
      // A fenced code block may hold blank lines: every part of it until its closing fence is code.
      if (inFence || p.startsWith("```") || p.startsWith("~~~")) {
        inFence ^= fences(p) % 2 == 1;
        continue;
      }
      boolean cites = !Citations.keys(p).isEmpty();
      if (cites) {
        ledIn = p.endsWith(":");
        continue;
      }
      if (ledIn || !claims(p)) {
        continue;
      }
      out.add("paragraph " + n + " states something without citing a record: “" + quote(p) + "”");
    }
    return out;
  }

  private static long fences(String p) {
    return p.lines()
        .map(String::strip)
        .filter(l -> l.startsWith("```") || l.startsWith("~~~"))
        .count();
  }

  /** Whether paragraph {@code p} (no citation, not led in) states something. */
  private static boolean claims(String p) {
    if (p.startsWith("#")
        || p.endsWith("?")
        || p.startsWith(AnswerText.NOT_MENTIONED)
        || p.startsWith(AnswerText.NO_EVIDENCE)) {
      return false;
    }
    return p.split("\\s+").length >= MIN_WORDS;
  }

  private static String quote(String p) {
    String line = p.replaceAll("\\s+", " ");
    return line.length() <= QUOTE_CHARS ? line : line.substring(0, QUOTE_CHARS - 1) + "…";
  }
}
