package dev.brain.index;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.chunking.Chunker;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * How a sync turns one record into its chunks and embedding inputs: the same for every backend, so
 * the embedded index and SolrCloud hold the same chunks with the same ids for the same files.
 */
public final class RecordChunks {
  private RecordChunks() {}

  /**
   * A record ready to store.
   *
   * @param chunks its chunks: the text's, then the summary's
   * @param chunking the chunking signature to store with it (carries the cap when the cap cut it)
   * @param truncated why the chunk cap cut it, or {@code null}
   * @param embedInputs what the model embeds for each chunk ({@link EmbeddingInput#of})
   * @param embedHashes the hash of each input, under which its vector is reused
   */
  public record Prepared(
      List<Chunk> chunks,
      String chunking,
      String truncated,
      List<String> embedInputs,
      List<String> embedHashes) {}

  /** Chunks {@code record} as a sync of {@code config} does. */
  public static Prepared prepare(CorpusRecord record, Chunker chunker, IndexConfig config) {
    ChunkCap cap = ChunkCap.of(config);
    List<Chunk> chunks = chunk(chunker, record, cap.maxChunks());
    String signature = cap.signature();
    String truncated = null;
    OptionalInt cut =
        cap.cut(chunks.stream().filter(k -> k.role() != ChunkRole.SUMMARY).toList(), record.text());
    if (cut.isPresent()) {
      signature = cap.truncated(cut.getAsInt());
      truncated = cap.reason(record.key(), cut.getAsInt(), record.text().length());
    }
    var inputs = new ArrayList<String>(chunks.size());
    var hashes = new ArrayList<String>(chunks.size());
    for (Chunk c : chunks) {
      String input = EmbeddingInput.of(record, c);
      inputs.add(input);
      hashes.add(CorpusRecord.sha256(input));
    }
    return new Prepared(chunks, signature, truncated, inputs, hashes);
  }

  /**
   * Whether a record stored with the chunking signature {@code stored} is chunked as {@code config}
   * would chunk it now (so an unchanged record needs no new chunks).
   */
  public static boolean isCurrent(String stored, IndexConfig config) {
    ChunkCap cap = ChunkCap.of(config);
    return cap.signature().equals(stored) || cap.cutAt(stored).isPresent();
  }

  /**
   * Chunks a record's text, then its summary (numbered after the text's chunks), each at most
   * {@code maxChunks} chunks.
   */
  static List<Chunk> chunk(Chunker c, CorpusRecord r, int maxChunks) {
    boolean markdown = "note".equals(r.sourceType());
    ChunkRole role = "transcript".equals(r.sourceType()) ? ChunkRole.TRANSCRIPT : ChunkRole.RAW;
    var chunks = new ArrayList<>(c.chunk(r.key(), r.text(), role, markdown, maxChunks));
    if (r.summary() == null || r.summary().isBlank()) {
      return chunks;
    }
    int offset = chunks.size();
    for (Chunk s : c.chunk(r.key(), r.summary(), ChunkRole.SUMMARY, false, maxChunks)) {
      int ordinal = offset + s.ordinal();
      chunks.add(
          new Chunk(
              r.key() + "#" + ordinal,
              r.key(),
              ordinal,
              s.role(),
              s.headingPath(),
              s.startChar(),
              s.endChar(),
              s.text(),
              s.textHash(),
              s.chunkerVersion()));
    }
    return chunks;
  }
}
