package dev.brain.retrieval;

import dev.brain.index.BrainIndex;
import dev.brain.index.CorpusRecord;
import dev.brain.index.CorpusStore;
import dev.brain.models.Embedder;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;

/**
 * The backend seam: where the lanes run and the records live. The embedded Lucene index ({@link
 * #embedded(BrainIndex)}, the default) is one implementation; SolrCloud (module {@code solr}) is
 * the other. Above this interface everything is shared and does not know which one runs: query
 * analysis, the embedding of the query, fusion with lane provenance, rows, excerpts, related rows,
 * research. Below it, each backend answers the lanes' storage questions in its own engine and
 * returns each lane's ranking separately, so a row keeps which lanes found it at what rank.
 */
public interface Backend extends CorpusStore {

  /**
   * What a summary chunk's cosine is multiplied by before the vector lane ranks it, on every
   * backend. A summary (opening, outline of headings and first sentences) is close to many
   * questions about its record, closer than the passage that answers them: at weight 1 the sample
   * vault's "When did I run the Berlin Marathon and what was my time?" ranked the training plan's
   * summary first and the answer lost the race-day note (retrieval README, "Summary chunks").
   */
  double SUMMARY_WEIGHT = 0.97;

  /** The embedded backend over a Lucene index on this machine. */
  static Backend embedded(BrainIndex index) {
    return new EmbeddedBackend(index);
  }

  /**
   * One consistent view of the backend for one search: every lane and every row read of a search
   * sees the same documents. Close it when the search is done.
   */
  View view() throws IOException;

  /**
   * The analyzer of the text fields as brain's own Lucene runs it (English: possessives, lower
   * case, stop words, Porter stem); queries and rows are analyzed with it. A backend's schema must
   * analyze its text fields the same way.
   */
  Analyzer analyzer();

  /** The embedding model of the stored vectors; queries are embedded with it. */
  Embedder embedder();

  /**
   * A backend's answers for one search. Chunk handles ({@link Hit#doc()}, {@link
   * StoredChunk#doc()}) are valid only within the view that returned them.
   */
  interface View extends Closeable {

    /** The distinct source types of the stored records. */
    List<String> sourceTypes() throws IOException;

    /**
     * The BM25 lane: the top {@code depth} chunks for the query's words among chunks passing the
     * filters, scored on text, heading, title and aliases with brain's field boosts, best first.
     */
    LaneHits bm25(QueryText query, SearchFilters filters, int depth) throws IOException;

    /** How many chunks are stored and how many of them have their vector. */
    Coverage coverage() throws IOException;

    /**
     * How many chunks the BM25 lane matches for the query's words (in text, heading or aliases),
     * over all chunks: a word's document frequency. The default asks the lane itself (its total,
     * which a backend may count exactly only up to a threshold); the embedded index reads it from
     * its term statistics.
     */
    default long lexicalMatches(QueryText query) throws IOException {
      return bm25(query, SearchFilters.NONE, 1).totalMatches();
    }

    /**
     * The distinct records among the top {@code depth} chunks of the BM25 lane (passing the
     * filters): how many records' text matches a query, without building rows. The default runs the
     * lane; the embedded index skips the lane's re-scoring, which orders the same chunks.
     */
    default int lexicalRecords(QueryText query, SearchFilters filters, int depth)
        throws IOException {
      return bm25(query, filters, depth).distinctRecords();
    }

    /**
     * The vector lane: the {@code depth} chunks (passing the filters, applied before the search)
     * whose vectors are nearest {@code target}, best first, with cosine similarity as raw score.
     *
     * @param vectors the chunks with a vector, from {@link #coverage()}
     */
    LaneHits vector(
        float[] target, SearchFilters filters, int depth, VectorSearch mode, long vectors)
        throws IOException;

    /**
     * Records (passing the filters) carrying a tag among {@code tags}, at most {@code limit}, with
     * all their tags; in no particular order (the exact-tag lane ranks them).
     */
    Map<String, List<String>> tagged(List<String> tags, SearchFilters filters, int limit)
        throws IOException;

    /**
     * The tags among {@code tags} that some record carries, in their order: what a search tries of
     * the tag forms of its words, so that it neither searches for nor reports a tag that does not
     * exist. The default asks {@link #tagged}; the embedded index counts each tag's live documents.
     */
    default List<String> existingTags(List<String> tags) throws IOException {
      if (tags.isEmpty()) {
        return List.of();
      }
      Set<String> carried = new HashSet<>();
      tagged(tags, SearchFilters.NONE, ExactTagLane.MAX_TAGGED).values().forEach(carried::addAll);
      return tags.stream().filter(carried::contains).toList();
    }

    /**
     * The records with these keys and the chunks with these handles. A backend may leave the
     * records' raw text out (empty): rows read it with {@link #recordText} when they need it.
     */
    Loaded load(List<String> keys, Collection<Integer> chunks) throws IOException;

    /**
     * A key under which what the chunk's stored content decodes to may be kept across views: two
     * chunks with equal keys store the same content, in whatever view. The default keeps nothing
     * (null); the embedded index keys a chunk by its segment and doc.
     */
    default Object contentKey(int chunk) {
      return null;
    }

    /**
     * The raw text of the record {@code key}, or {@code null} if there is none. The default takes
     * it from {@link #load}, for a backend that loads records whole.
     */
    default String recordText(String key) throws IOException {
      CorpusRecord record = load(List.of(key), List.of()).records().get(key);
      return record == null ? null : record.text();
    }

    /**
     * Which of the analyzed {@code terms} each chunk's text holds, by chunk handle, as the backend
     * indexed the text (with {@link Backend#analyzer()}): what rows learn about a chunk's words
     * without analyzing its text again. A chunk the backend cannot answer for is absent; the
     * default answers for none.
     */
    default Map<Integer, Set<String>> textTerms(Collection<Integer> chunks, Set<String> terms)
        throws IOException {
      return Map.of();
    }

    /**
     * The record's chunk that scores best for the query's words (its first chunk when none
     * matches), or {@code null} if it has no chunk: the chunk shown for rows found without one.
     */
    StoredChunk bestChunk(String key, QueryText query) throws IOException;

    /** Records (passing the filters) whose links name {@code key}, ordered by key. */
    List<CorpusRecord> backlinks(String key, SearchFilters filters) throws IOException;

    /** Whether the record {@code key} passes the filters. */
    boolean passes(String key, SearchFilters filters) throws IOException;
  }

  /**
   * Records and chunks read together.
   *
   * @param records by key (missing keys are absent)
   * @param chunks by handle
   */
  record Loaded(Map<String, CorpusRecord> records, Map<Integer, StoredChunk> chunks) {}

  /**
   * Chunk counts for the vector lane's report.
   *
   * @param chunks chunks stored
   * @param vectors chunks with their vector
   */
  record Coverage(long chunks, long vectors) {}
}
