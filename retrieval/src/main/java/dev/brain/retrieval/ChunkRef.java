package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The chunks of a record behind one evidence row. Up to {@link SearchOptions#maxChunksPerRecord()}
 * matching chunks are kept; chunks with consecutive ordinals that touch or overlap are merged into
 * one span.
 *
 * @param chunkIds ids ({@code <key>#<ordinal>}) of the kept chunks, best first
 * @param ordinals their ordinals, in the same order
 * @param role role of the best chunk ({@code raw}, {@code summary}, {@code transcript}, {@code
 *     ocr})
 * @param headingPath Markdown headings enclosing the best chunk, outermost first
 * @param startChar start of the span holding the best chunk, in the record's raw text (in its
 *     summary for summary chunks)
 * @param endChar end (exclusive) of that span
 * @param spans every merged span, in ordinal order
 */
public record ChunkRef(
    @JsonProperty("chunk_ids") List<String> chunkIds,
    List<Integer> ordinals,
    String role,
    @JsonProperty("heading_path") List<String> headingPath,
    @JsonProperty("start_char") int startChar,
    @JsonProperty("end_char") int endChar,
    List<Span> spans) {

  public ChunkRef {
    chunkIds = List.copyOf(chunkIds);
    ordinals = List.copyOf(ordinals);
    headingPath = List.copyOf(headingPath);
    spans = List.copyOf(spans);
  }

  /**
   * A run of kept chunks with consecutive ordinals, merged into one window of the text.
   *
   * @param firstOrdinal ordinal of the first chunk of the run
   * @param lastOrdinal ordinal of the last chunk of the run
   * @param startChar start of the first chunk
   * @param endChar end (exclusive) of the last chunk
   */
  public record Span(
      @JsonProperty("first_ordinal") int firstOrdinal,
      @JsonProperty("last_ordinal") int lastOrdinal,
      @JsonProperty("start_char") int startChar,
      @JsonProperty("end_char") int endChar) {}
}
