package dev.brain.chunking;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deterministic token counter for tests: every run of letters or digits is one token, every other
 * non-whitespace character is one token. Like a WordPiece tokenizer it is additive over
 * whitespace-separated parts. Records how much text it was asked to count.
 */
final class WordPieceCounter implements TokenCounter {

  private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+|[^\\s\\p{L}\\p{N}]");

  private long calls;
  private long charsCounted;

  @Override
  public int count(String text) {
    calls++;
    charsCounted += text.length();
    return tokens(text);
  }

  static int tokens(String text) {
    Matcher m = TOKEN.matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  long calls() {
    return calls;
  }

  long charsCounted() {
    return charsCounted;
  }
}
