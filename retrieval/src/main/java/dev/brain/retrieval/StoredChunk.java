package dev.brain.retrieval;

import java.util.List;

/**
 * A chunk's stored fields, as rows need them.
 *
 * @param doc the chunk's handle in the {@link Backend.View} that read it
 * @param chunkId {@code <key>#<ordinal>}
 * @param key its record's key
 * @param ordinal position in the record
 * @param role {@code raw}, {@code summary}, {@code transcript}, {@code ocr}
 * @param headingPath headings above the chunk
 * @param startChar first character in the record's text
 * @param endChar character after the last
 * @param text the chunk's text
 */
public record StoredChunk(
    int doc,
    String chunkId,
    String key,
    int ordinal,
    String role,
    List<String> headingPath,
    int startChar,
    int endChar,
    String text) {

  /** This chunk under another handle (the same chunk in another view). */
  StoredChunk withDoc(int handle) {
    return new StoredChunk(
        handle, chunkId, key, ordinal, role, headingPath, startChar, endChar, text);
  }
}
