package dev.brain.research.synthesis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The soft gates of verification: findings a reader should see that do not make an answer wrong.
 * One gate so far: a paragraph that states a fact without a citation. A paragraph is cited when it
 * holds a bracketed key (or a numbered marker), or when it follows a cited lead-in (a paragraph
 * ending with {@code :}, as the extractive answer introduces each quoted passage) with no other
 * cited paragraph between. Headings, code, short lines and sentences about the evidence itself
 * ("your notes do not say …") state no fact of their own. A closing {@code Sources:} block ends the
 * answer.
 */
final class SoftGates {
  private SoftGates() {}

  /** Fewer words than this is a label or a lead-in, not a statement. */
  static final int MIN_FACT_WORDS = 8;

  private static final Pattern NUMBER_MARKER = Pattern.compile("\\[\\d{1,3}]");
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
  private static final List<String> ABOUT_THE_EVIDENCE =
      List.of(
          "evidence",
          "your notes do not",
          "your notes don't",
          "notes do not",
          "not mention",
          "does not say",
          "do not say",
          "not found",
          "could not find",
          "couldn't find",
          "no record",
          "nothing in");

  /** The soft warnings of an answer (empty for none). */
  static List<SoftWarning> check(String answer) {
    var out = new ArrayList<SoftWarning>();
    if (answer == null || answer.isBlank()) {
      return out;
    }
    boolean leadIn = false;
    int n = 0;
    for (String block : blocks(answer)) {
      n++;
      String text = block.strip();
      if (text.startsWith("Sources:")) {
        break;
      }
      if (cites(text)) {
        leadIn = text.endsWith(":");
        continue;
      }
      if (leadIn || !statesAFact(text)) {
        continue;
      }
      out.add(
          new SoftWarning(
              SoftWarning.UNCITED_PARAGRAPH,
              n,
              excerpt(text),
              "paragraph " + n + " states a fact without citing a record"));
    }
    return out;
  }

  /** The answer's blank-line separated blocks; a fenced code block stays one block. */
  static List<String> blocks(String answer) {
    var out = new ArrayList<String>();
    var current = new StringBuilder();
    boolean fenced = false;
    for (String line : answer.replace("\r\n", "\n").split("\n", -1)) {
      String s = line.strip();
      if (s.startsWith("```") || s.startsWith("~~~")) {
        fenced = !fenced;
      }
      if (!fenced && s.isEmpty()) {
        if (!current.isEmpty()) {
          out.add(current.toString());
          current.setLength(0);
        }
        continue;
      }
      if (!current.isEmpty()) {
        current.append('\n');
      }
      current.append(line);
    }
    if (!current.isEmpty()) {
      out.add(current.toString());
    }
    return out;
  }

  private static boolean cites(String block) {
    return !Citations.keys(block).isEmpty() || NUMBER_MARKER.matcher(block).find();
  }

  private static boolean statesAFact(String block) {
    if (block.startsWith("#") || block.startsWith("```") || block.startsWith("~~~")) {
      return false;
    }
    String lower = block.toLowerCase(Locale.ROOT);
    if (ABOUT_THE_EVIDENCE.stream().anyMatch(lower::contains)) {
      return false;
    }
    return WORD.matcher(block).results().count() >= MIN_FACT_WORDS;
  }

  private static String excerpt(String block) {
    String one = block.replaceAll("\\s+", " ");
    return one.length() <= SoftWarning.EXCERPT_CHARS
        ? one
        : one.substring(0, SoftWarning.EXCERPT_CHARS - 1) + "…";
  }
}
