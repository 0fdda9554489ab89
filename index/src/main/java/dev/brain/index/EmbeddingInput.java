package dev.brain.index;

import dev.brain.chunking.Chunk;

/**
 * What the embedding model reads for a chunk: the record's title, a blank line, then the chunk
 * text. A chunk deep inside a note or an abstract often no longer names its subject ("it", "the
 * grinder"); the title puts it back, as BEIR and MTEB embed documents. Measured on SciFact: vector
 * nDCG@10 0.706 → 0.723 (index README). Embeddings are reused by the hash of this input, so a
 * changed title re-embeds the record's chunks and nothing else does.
 */
final class EmbeddingInput {
  private EmbeddingInput() {}

  /** Part of the chunking signature: bump when the input changes, so old vectors are replaced. */
  static final String VERSION = "title-v1";

  static String of(CorpusRecord record, Chunk chunk) {
    String title = record.title();
    return title == null || title.isBlank() ? chunk.text() : title.strip() + "\n\n" + chunk.text();
  }

  static String hash(CorpusRecord record, Chunk chunk) {
    return CorpusRecord.sha256(of(record, chunk));
  }
}
