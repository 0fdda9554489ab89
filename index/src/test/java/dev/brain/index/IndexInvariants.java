package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;

/** Checks that an index is whole: every chunk has its record and every record its chunks. */
final class IndexInvariants {
  private IndexInvariants() {}

  /**
   * Asserts the invariants and returns the number of records.
   *
   * @return record count
   */
  static int assertWhole(BrainIndex index) throws IOException {
    IndexSearcher searcher = index.acquireSearcher();
    try {
      Set<String> records = new HashSet<>();
      for (ScoreDoc hit : all(searcher, IndexReads.recordsQuery())) {
        String key = searcher.storedFields().document(hit.doc).get(IndexFields.KEY);
        assertThat(records.add(key)).as("record %s is stored once", key).isTrue();
      }
      Map<String, Integer> chunksPerRecord = new HashMap<>();
      for (ScoreDoc hit : all(searcher, IndexReads.chunksQuery())) {
        String parent = searcher.storedFields().document(hit.doc).get(IndexFields.PARENT_KEY);
        chunksPerRecord.merge(parent, 1, Integer::sum);
      }
      assertThat(records).as("every chunk's parent record").containsAll(chunksPerRecord.keySet());
      assertThat(chunksPerRecord.keySet()).as("every record has chunks").containsAll(records);
      return records.size();
    } finally {
      index.releaseSearcher(searcher);
    }
  }

  private static ScoreDoc[] all(IndexSearcher searcher, org.apache.lucene.search.Query query)
      throws IOException {
    int n = Math.max(1, searcher.count(query));
    return searcher.search(query, n).scoreDocs;
  }
}
