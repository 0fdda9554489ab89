package dev.brain.index;

import dev.brain.chunking.Chunk;
import java.util.List;

/**
 * One record as stored, for {@code brain get}: the record (with its raw text, summary and links),
 * its chunks in ordinal order, and its backlinks.
 *
 * @param record the record exactly as imported
 * @param chunks the record's chunks, ordered by ordinal (summary chunks after the text's)
 * @param backlinks keys of the records whose links contain this record's key, sorted
 */
public record RecordDetail(CorpusRecord record, List<Chunk> chunks, List<String> backlinks) {
  public RecordDetail {
    chunks = List.copyOf(chunks);
    backlinks = List.copyOf(backlinks);
  }
}
