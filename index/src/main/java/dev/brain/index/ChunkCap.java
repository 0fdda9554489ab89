package dev.brain.index;

import dev.brain.chunking.Chunk;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The cap on one record's chunks ({@link IndexConfig#maxChunksPerRecord()}) and how a record cut by
 * it is remembered: its chunking signature carries the cap and where its text was cut ({@code
 * <signature>/max4000@4123456}), so an unchanged record is still reported as truncated on later
 * syncs without being chunked again, and is chunked again once the cap changes.
 *
 * @param signature the index's chunking signature ({@link IndexConfig#chunkingSignature()})
 * @param maxChunks the cap
 */
record ChunkCap(String signature, int maxChunks) {

  static ChunkCap of(IndexConfig config) {
    return new ChunkCap(config.chunkingSignature(), config.maxChunksPerRecord());
  }

  /** Where the cap cut {@code text}, or empty when {@code chunks} hold all of it. */
  OptionalInt cut(List<Chunk> chunks, String text) {
    if (chunks.size() < maxChunks) {
      return OptionalInt.empty();
    }
    int end = text.length();
    while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    int covered = chunks.getLast().endChar();
    return covered < end ? OptionalInt.of(covered) : OptionalInt.empty();
  }

  /** The signature of a record whose text the cap cut at {@code endChar}. */
  String truncated(int endChar) {
    return signature + "/max" + maxChunks + "@" + endChar;
  }

  /** Where a record stored with {@code chunking} was cut by this cap; empty if it was not. */
  OptionalInt cutAt(String chunking) {
    String prefix = signature + "/max" + maxChunks + "@";
    if (chunking == null || !chunking.startsWith(prefix)) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(chunking.substring(prefix.length())));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
  }

  /** What {@code brain status} says of a record cut at {@code endChar} of {@code length}. */
  String reason(String key, int endChar, int length) {
    return String.format(
        Locale.ROOT,
        "%s is truncated: only its first %,d chunks are indexed (index.max-chunks-per-record in"
            + " brain.yaml), up to character %,d of %,d; the rest is not searchable",
        key,
        maxChunks,
        endChar,
        length);
  }
}
