package dev.brain.chunking;

import java.util.List;

/**
 * Splits a record's text into chunks: Markdown headings first, then paragraphs, then sentences,
 * bounded by model tokens with a small overlap. Deterministic: the same input always yields the
 * same chunks and ids. Thread-safe.
 */
public final class Chunker {

  /** Version of the chunking rules; stored on every chunk. Bump it when the output changes. */
  public static final String VERSION = "chunker-v1";

  /** Default token budget of one chunk. */
  public static final int DEFAULT_MAX_TOKENS = 256;

  /** Default overlap, in tokens, between consecutive chunks. */
  public static final int DEFAULT_OVERLAP_TOKENS = 32;

  /**
   * A chunker with the given budget.
   *
   * @param counter counts model tokens
   * @param maxTokens upper bound of tokens per chunk (a single over-long word may exceed it)
   * @param overlapTokens tokens of trailing context repeated at the start of the next chunk
   */
  public Chunker(TokenCounter counter, int maxTokens, int overlapTokens) {
    throw new UnsupportedOperationException("not built yet");
  }

  /**
   * Chunks one text.
   *
   * @param key the record key; chunk ids are {@code key#ordinal}
   * @param text the record's raw text
   * @param role the role every chunk gets
   * @param markdown whether to honour Markdown headings (and keep fenced code blocks whole)
   * @return the chunks in text order; empty for blank text
   */
  public List<Chunk> chunk(String key, String text, ChunkRole role, boolean markdown) {
    throw new UnsupportedOperationException("not built yet");
  }
}
