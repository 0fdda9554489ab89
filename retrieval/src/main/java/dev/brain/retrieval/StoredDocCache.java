package dev.brain.retrieval;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;

/**
 * Values decoded from stored fields, by segment and doc id: a segment never changes what it stores
 * for a doc, so a value read once stands while the segment lives, across index views (a deletion
 * only hides the doc, and searches hand out no hidden doc). Reading a record's stored fields
 * decompresses its whole text, which a served search did for every row of every search; the rows of
 * the next search mostly show records read before. The least recently used values go first past
 * {@code max}. Thread-safe.
 *
 * @param <V> the decoded value
 */
final class StoredDocCache<V> {

  private record Key(Object segment, int doc) {}

  private final Map<Object, V> values;

  StoredDocCache(int max) {
    this.values =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Object, V> eldest) {
            return size() > max;
          }
        };
  }

  /**
   * The key of {@code doc} (a doc id of {@code reader}), or null when its segment has no identity
   * to key it by (then nothing is kept for it).
   */
  static Object key(IndexReader reader, int doc) {
    List<LeafReaderContext> leaves = reader.leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    IndexReader.CacheHelper core = leaf.reader().getCoreCacheHelper();
    return core == null ? null : new Key(core.getKey(), doc - leaf.docBase);
  }

  /** The value kept under {@code key} (from {@link #key}, or a list holding one), or null. */
  synchronized V get(Object key) {
    return key == null ? null : values.get(key);
  }

  /** Keeps {@code value} under {@code key} (as for {@link #get}); nothing for a null key. */
  synchronized void put(Object key, V value) {
    if (key != null) {
      values.put(key, value);
    }
  }

  /** How a value missing from the cache is read. */
  interface Read<V> {
    V read() throws IOException;
  }

  /**
   * The value kept under {@code key} (as for {@link #get}), else the one {@code read} gives, kept
   * there.
   */
  V get(Object key, Read<V> read) throws IOException {
    V value = get(key);
    if (value == null) {
      value = read.read();
      put(key, value);
    }
    return value;
  }

  synchronized int size() {
    return values.size();
  }
}
