package dev.brain.chunking;

import java.util.List;

/**
 * A window of a record's text with stable identity and provenance.
 *
 * @param chunkId {@code <key>#<ordinal>}
 * @param key the parent record's key
 * @param ordinal 0-based position of the chunk in its record
 * @param role which part of the record the text comes from
 * @param headingPath Markdown headings enclosing the chunk, outermost first (empty if none)
 * @param startChar offset of the first character in the record's raw text (inclusive)
 * @param endChar offset after the last character in the record's raw text (exclusive)
 * @param text the chunk text, exactly {@code raw.substring(startChar, endChar)}
 * @param textHash hex sha-256 of {@code text}; embeddings are reused by this hash
 * @param chunkerVersion version of the chunking rules that made this chunk
 */
public record Chunk(
    String chunkId,
    String key,
    int ordinal,
    ChunkRole role,
    List<String> headingPath,
    int startChar,
    int endChar,
    String text,
    String textHash,
    String chunkerVersion) {
  public Chunk {
    headingPath = List.copyOf(headingPath);
  }
}
