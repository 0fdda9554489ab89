package dev.brain.chunking;

import java.util.HashMap;
import java.util.Map;

/**
 * Token counts of ranges of one text, each range counted once. The same range is often seen at
 * several levels (a one-paragraph section, a one-sentence paragraph), and the counter is a real
 * tokenizer call, so counts are memoized by range. Not thread-safe: one per {@code chunk} call.
 */
final class TokenTally {

  private final TokenCounter counter;
  private final String text;
  private final Map<Long, Integer> counts = new HashMap<>();

  TokenTally(TokenCounter counter, String text) {
    this.counter = counter;
    this.text = text;
  }

  int count(Piece piece) {
    long range = ((long) piece.start() << 32) | piece.end();
    return counts.computeIfAbsent(range, r -> countText(piece));
  }

  private int countText(Piece piece) {
    String slice = text.substring(piece.start(), piece.end());
    int tokens = counter.count(slice);
    if (tokens < 0) {
      throw new IllegalStateException(
          "TokenCounter "
              + counter.getClass().getName()
              + " returned "
              + tokens
              + " tokens for a text of "
              + slice.length()
              + " characters; a token count must be zero or more");
    }
    return tokens;
  }
}
