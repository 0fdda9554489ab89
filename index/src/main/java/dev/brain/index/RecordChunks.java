package dev.brain.index;

import dev.brain.chunking.BrainWritten;
import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.chunking.Chunker;
import dev.brain.chunking.ExtractiveSummary;
import dev.brain.chunking.MarkdownText;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a sync turns one record into its chunks: one pipeline for every store ({@link SyncStore}), so
 * the embedded index and SolrCloud hold the same chunks with the same ids for the same files.
 */
final class RecordChunks {
  private RecordChunks() {}

  /**
   * A record's chunks and the summary they index.
   *
   * @param chunks the text's chunks, then the summary's (numbered after them)
   * @param summary the record's own summary, else its extractive one, else {@code null}
   * @param source where the summary came from; {@code null} for a short record without one
   */
  record Split(List<Chunk> chunks, String summary, SummarySource source) {}

  /**
   * Chunks a record's text, then its summary: its own if it brings one, else (with {@link
   * SummaryMode#EXTRACTIVE}) the extractive summary of a long text, each part of it (the record
   * summary, then each long section's) chunked on its own. Text and summary each get at most {@code
   * maxChunks} chunks.
   */
  static Split split(Chunker c, CorpusRecord r, int maxChunks, SummaryMode mode) {
    boolean markdown = "note".equals(r.sourceType());
    ChunkRole role = "transcript".equals(r.sourceType()) ? ChunkRole.TRANSCRIPT : ChunkRole.RAW;
    int[] derived = markdown ? BrainWritten.span(r.text()) : null;
    var chunks = new ArrayList<Chunk>();
    String own = r.text();
    if (derived == null) {
      chunks.addAll(c.chunk(r.key(), r.text(), role, markdown, maxChunks));
    } else {
      // brain's research section is chunked on its own, so no chunk mixes it with the user's text
      addPart(c, r.key(), r.text(), 0, derived[0], role, maxChunks, chunks);
      addPart(
          c, r.key(), r.text(), derived[0], derived[1], ChunkRole.BRAIN_WRITTEN, maxChunks, chunks);
      addPart(c, r.key(), r.text(), derived[1], r.text().length(), role, maxChunks, chunks);
      own = r.text().substring(0, derived[0]) + r.text().substring(derived[1]);
    }
    if (r.summary() != null && !r.summary().isBlank()) {
      var part = new ExtractiveSummary.Part(0, r.summary().length(), List.of());
      addSummary(c, r.key(), r.summary(), part, maxChunks, chunks);
      return new Split(chunks, r.summary(), SummarySource.IMPORTED);
    }
    Optional<ExtractiveSummary> made =
        c.summarize(own, MarkdownText.isMarkdown(r.sourceType())); // brain's section is no part
    if (made.isEmpty()) {
      return new Split(chunks, null, null);
    }
    if (mode == SummaryMode.NONE) {
      return new Split(chunks, null, SummarySource.OFF);
    }
    ExtractiveSummary summary = made.get();
    int textChunks = chunks.size();
    for (ExtractiveSummary.Part part : summary.parts()) {
      addSummary(
          c, r.key(), summary.text(), part, maxChunks - (chunks.size() - textChunks), chunks);
    }
    return new Split(chunks, summary.text(), SummarySource.EXTRACTIVE);
  }

  /**
   * Appends the chunks of {@code text[start, end)} with {@code role}, numbered after {@code
   * chunks}, with offsets into {@code text}; at most {@code maxChunks} chunks in all.
   */
  private static void addPart(
      Chunker c,
      String key,
      String text,
      int start,
      int end,
      ChunkRole role,
      int maxChunks,
      List<Chunk> chunks) {
    int room = maxChunks - chunks.size();
    if (room < 1 || start >= end) {
      return;
    }
    for (Chunk s : c.chunk(key, text.substring(start, end), role, true, room)) {
      int ordinal = chunks.size();
      chunks.add(
          new Chunk(
              key + "#" + ordinal,
              key,
              ordinal,
              s.role(),
              s.headingPath(),
              start + s.startChar(),
              start + s.endChar(),
              s.text(),
              s.textHash(),
              s.chunkerVersion()));
    }
  }

  /**
   * Appends the chunks of {@code part} of {@code summary}, numbered after {@code chunks}, with
   * offsets into {@code summary} and the part's heading path.
   */
  static void addSummary(
      Chunker c,
      String key,
      String summary,
      ExtractiveSummary.Part part,
      int maxChunks,
      List<Chunk> chunks) {
    if (maxChunks < 1) {
      return;
    }
    String text = summary.substring(part.start(), part.end());
    for (Chunk s : c.chunk(key, text, ChunkRole.SUMMARY, false, maxChunks)) {
      int ordinal = chunks.size();
      chunks.add(
          new Chunk(
              key + "#" + ordinal,
              key,
              ordinal,
              s.role(),
              part.headingPath(),
              part.start() + s.startChar(),
              part.start() + s.endChar(),
              s.text(),
              s.textHash(),
              s.chunkerVersion()));
    }
  }
}
