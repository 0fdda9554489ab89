package dev.brain.bench;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;

/**
 * Reads the chunk documents of a brain index with their stored texts and raw float vectors (every
 * vector format keeps the floats), in document order. The bench uses it to harvest real embeddings
 * from an existing index, to derive the scaled corpus, and as the input of exact search.
 */
final class IndexChunks {
  private IndexChunks() {}

  /**
   * A live chunk document.
   *
   * @param doc global document id in the reader it was read from
   * @param embedHash hash of what the model embedded ({@code embed_hash}; the text hash in indexes
   *     written before the title went into the embedding input)
   */
  record Chunk(
      int doc, String textHash, String embedHash, String text, String parentKey, float[] vector) {}

  private static final Set<String> FIELDS =
      Set.of(
          IndexFields.TEXT_HASH, IndexFields.EMBED_HASH, IndexFields.TEXT, IndexFields.PARENT_KEY);

  /** The brain metadata in the latest commit of the index at {@code dir}. */
  static Map<String, String> commitData(Path dir) throws IOException {
    try (Directory directory = FSDirectory.open(dir)) {
      return SegmentInfos.readLatestCommit(directory).getUserData();
    }
  }

  /** Every live chunk with a vector, in document order. */
  static List<Chunk> read(Path dir) throws IOException {
    try (Directory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      return read(reader);
    }
  }

  static List<Chunk> read(DirectoryReader reader) throws IOException {
    var out = new ArrayList<Chunk>();
    for (LeafReaderContext leaf : reader.leaves()) {
      readLeaf(leaf, out);
    }
    return out;
  }

  private static void readLeaf(LeafReaderContext leaf, List<Chunk> out) throws IOException {
    LeafReader reader = leaf.reader();
    FloatVectorValues vectors = reader.getFloatVectorValues(IndexFields.VECTOR);
    if (vectors == null) {
      return;
    }
    Bits live = reader.getLiveDocs();
    StoredFields stored = reader.storedFields();
    KnnVectorValues.DocIndexIterator it = vectors.iterator();
    for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
      if (live != null && !live.get(doc)) {
        continue;
      }
      var fields = stored.document(doc, FIELDS);
      out.add(
          new Chunk(
              leaf.docBase + doc,
              fields.get(IndexFields.TEXT_HASH),
              Objects.requireNonNullElse(
                  fields.get(IndexFields.EMBED_HASH), fields.get(IndexFields.TEXT_HASH)),
              fields.get(IndexFields.TEXT),
              fields.get(IndexFields.PARENT_KEY),
              vectors.vectorValue(it.index()).clone()));
    }
  }

  /** Record key to title, for the record documents that have one. */
  static Map<String, String> titles(Path dir) throws IOException {
    var titles = new HashMap<String, String>();
    try (Directory directory = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        StoredFields stored = leaf.reader().storedFields();
        Bits live = leaf.reader().getLiveDocs();
        for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
          if (live != null && !live.get(doc)) {
            continue;
          }
          var fields = stored.document(doc, Set.of(IndexFields.KEY, IndexFields.TITLE));
          String key = fields.get(IndexFields.KEY);
          String title = fields.get(IndexFields.TITLE);
          if (key != null && title != null) {
            titles.put(key, title);
          }
        }
      }
    }
    return titles;
  }
}
