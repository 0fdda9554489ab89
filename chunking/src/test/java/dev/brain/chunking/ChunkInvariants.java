package dev.brain.chunking;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** Properties every chunking of every text must have; shared by the example and random tests. */
final class ChunkInvariants {

  private ChunkInvariants() {}

  static void assertAll(
      String key, String raw, ChunkRole role, List<Chunk> chunks, int maxTokens, int overlap) {
    if (raw.isBlank()) {
      assertThat(chunks).isEmpty();
      return;
    }
    assertThat(chunks).isNotEmpty();
    for (int i = 0; i < chunks.size(); i++) {
      Chunk chunk = chunks.get(i);
      assertSlicesRaw(raw, chunk);
      assertThat(chunk.ordinal()).isEqualTo(i);
      assertThat(chunk.chunkId()).isEqualTo(key + "#" + i);
      assertThat(chunk.key()).isEqualTo(key);
      assertThat(chunk.role()).isEqualTo(role);
      assertThat(chunk.chunkerVersion()).isEqualTo(Chunker.VERSION);
      assertThat(chunk.textHash()).isEqualTo(sha256Hex(chunk.text()));
      assertWithinBudget(chunk, maxTokens);
      if (i > 0) {
        assertOrderedAfter(chunks.get(i - 1), chunk, maxTokens, overlap);
      }
    }
    assertCoversAllText(raw, chunks);
  }

  static void assertSlicesRaw(String raw, Chunk chunk) {
    assertThat(chunk.startChar()).isBetween(0, chunk.endChar() - 1);
    assertThat(chunk.endChar()).isLessThanOrEqualTo(raw.length());
    assertThat(chunk.text()).isEqualTo(raw.substring(chunk.startChar(), chunk.endChar()));
    assertThat(chunk.text()).isEqualTo(chunk.text().strip());
  }

  static void assertWithinBudget(Chunk chunk, int maxTokens) {
    if (WordPieceCounter.tokens(chunk.text()) > maxTokens) {
      assertThat(chunk.text())
          .as("only a single unsplittable word may exceed the budget")
          .doesNotContainPattern("\\s");
    }
  }

  /** Chunks advance; an overlap with the previous chunk is bounded by the overlap budget. */
  static void assertOrderedAfter(Chunk previous, Chunk next, int maxTokens, int overlap) {
    assertThat(next.startChar()).isGreaterThan(previous.startChar());
    assertThat(next.endChar()).isGreaterThan(previous.endChar());
    if (next.startChar() < previous.endChar()) {
      String shared = previous.text().substring(next.startChar() - previous.startChar());
      assertThat(WordPieceCounter.tokens(shared))
          .isLessThanOrEqualTo(Math.min(overlap, maxTokens / 2));
      assertThat(next.headingPath()).isEqualTo(previous.headingPath());
    }
  }

  /** Every non-whitespace character of the raw text is in some chunk. */
  static void assertCoversAllText(String raw, List<Chunk> chunks) {
    int covered = 0;
    for (Chunk chunk : chunks) {
      for (int i = covered; i < chunk.startChar(); i++) {
        assertThat(Character.isWhitespace(raw.charAt(i)))
            .as("character %d (%s) lies in no chunk", i, raw.charAt(i))
            .isTrue();
      }
      covered = Math.max(covered, chunk.endChar());
    }
    assertThat(raw.substring(covered)).isBlank();
  }

  static String sha256Hex(String text) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }
}
