package dev.brain.retrieval;

import dev.brain.index.BrainIndex;
import dev.brain.index.IndexStats;
import dev.brain.index.RecordDetail;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Searches a {@link Backend} (the embedded index or SolrCloud): the retrieval module's entry point.
 * Runs the requested lanes (BM25, vector, exact tag) over the same filters, fuses their rankings
 * per record with lane provenance, consolidates each record's best chunks into one evidence row
 * with a query-centred excerpt, and optionally adds the link neighbours of the top rows. Read-only
 * and thread-safe; one retriever per backend is enough.
 *
 * <pre>{@code
 * var retriever = new Retriever(index);
 * SearchResult result = retriever.search("espresso grind size", SearchOptions.defaults());
 * }</pre>
 */
public final class Retriever {

  private final Backend backend;
  private final VectorLane vector;

  /** The records read so far by a retriever of one research run; null for a shared retriever. */
  private final Map<String, Optional<RecordDetail>> records;

  /**
   * Chunks' texts as a reader sees them (Markdown rendered), by the chunk's {@link
   * Backend.View#contentKey}: rendering the chunk a row shows took a tenth of a served search's
   * CPU, and the next searches show many of the same chunks. A chunk's text is at most a few KiB,
   * so a few MiB in all.
   */
  private final StoredDocCache<String> visibleTexts;

  /** How many chunks' visible texts {@link #visibleTexts} keeps. */
  static final int VISIBLE_TEXTS_KEPT = 2048;

  /**
   * Whether the record's text is blank between two of its chunks a row merges into one span, by the
   * second chunk and the offset: telling it reads the record's whole raw text.
   */
  private final StoredDocCache<Boolean> blankGaps;

  /** How many gaps {@link #blankGaps} keeps. */
  static final int GAPS_KEPT = 4096;

  /**
   * A retriever over the embedded {@code index}; the embedding model is loaded on the first vector
   * search.
   */
  public Retriever(BrainIndex index) {
    this(Backend.embedded(Objects.requireNonNull(index, "index")));
  }

  /** A retriever over a backend (the embedded index, or SolrCloud from module {@code solr}). */
  public Retriever(Backend backend) {
    this(
        Objects.requireNonNull(backend, "backend"),
        new VectorLane(backend::embedder),
        null,
        new StoredDocCache<>(VISIBLE_TEXTS_KEPT),
        new StoredDocCache<>(GAPS_KEPT));
  }

  private Retriever(
      Backend backend,
      VectorLane vector,
      Map<String, Optional<RecordDetail>> records,
      StoredDocCache<String> visibleTexts,
      StoredDocCache<Boolean> blankGaps) {
    this.backend = backend;
    this.vector = vector;
    this.records = records;
    this.visibleTexts = visibleTexts;
    this.blankGaps = blankGaps;
  }

  /**
   * This retriever for one research run: a record read once by {@link #get} (to window it, inspect
   * its row, expand its links, quote it) is kept for the run's later stages, which read the run's
   * working set instead of asking the index again. Searches are not kept.
   */
  public Retriever forOneRun() {
    return new Retriever(backend, vector, new ConcurrentHashMap<>(), visibleTexts, blankGaps);
  }

  /** A retriever with other BM25 tuning, for measurements. */
  Retriever(BrainIndex index, Bm25Lane.Params bm25Params) {
    this(new EmbeddedBackend(index, bm25Params));
  }

  /**
   * Searches the index.
   *
   * @param query the user's words; must contain a non-blank character
   * @param options lanes, limit, filters, fusion and sizes
   * @return ranked evidence rows, then related rows, with lane reports and timings
   * @throws InvalidSearchException if the query is blank or a filter names an unknown source type
   * @throws IOException if the index cannot be read
   */
  public SearchResult search(String query, SearchOptions options) throws IOException {
    try (Session session = session()) {
      return session.search(query, options);
    }
  }

  /**
   * A session: several searches and counts over one consistent view of the index, reading each
   * record and chunk once and analyzing each text once however many of its searches show them. What
   * a research pack (several searches of one question) uses. Close it when done; not thread-safe.
   *
   * @throws IOException if the index cannot be read
   */
  public Session session() throws IOException {
    return new Session(backend.view());
  }

  /** Searches and counts over one view of the index; see {@link Retriever#session()}. */
  public final class Session implements Closeable {
    private final Backend.View view;
    private final RowReads reads;

    private Session(Backend.View view) {
      this.view = view;
      this.reads = new RowReads(view, backend.analyzer(), visibleTexts, blankGaps);
    }

    /** As {@link Retriever#search(String, SearchOptions)}, on this session's view. */
    public SearchResult search(String query, SearchOptions options) throws IOException {
      Objects.requireNonNull(options, "options");
      if (query == null || query.isBlank()) {
        throw InvalidSearchException.empty("query", "the query is empty; give words to search for");
      }
      long start = System.nanoTime();
      checkSourceTypes(view, options.filters());
      QueryText parsed = QueryText.parse(query.strip(), backend.analyzer());
      // Only tags some record carries are searched and reported: the rest could match nothing.
      parsed = parsed.withTagAliases(view.existingTags(parsed.tagAliases()));
      return new SearchRun(view, reads, vector, parsed, options, start).execute();
    }

    /** The chunks in the index, counted once per index generation. */
    public long chunkCount() throws IOException {
      return view.coverage().chunks();
    }

    /**
     * How many chunks hold each word (in text, heading or aliases, as the BM25 lane matches it, the
     * word analyzed as the lane analyzes it): the words' document frequencies, by word. A word with
     * nothing searchable (a stop word) counts 0.
     *
     * @throws IOException if the index cannot be read
     */
    public Map<String, Long> chunkFrequencies(Collection<String> words) throws IOException {
      var out = new LinkedHashMap<String, Long>();
      for (String word : words) {
        if (out.containsKey(word)) {
          continue;
        }
        out.put(
            word,
            word.isBlank()
                ? 0L
                : view.lexicalMatches(QueryText.parse(word.strip(), backend.analyzer())));
      }
      return out;
    }

    /**
     * The tags among {@code tags} that some record in the index carries, in their order: what a
     * plan reports as the tags it tried.
     *
     * @throws IOException if the index cannot be read
     */
    public List<String> existingTags(List<String> tags) throws IOException {
      return view.existingTags(List.copyOf(tags));
    }

    /**
     * How many distinct records the BM25 lane finds for {@code query} among its top {@code depth}
     * chunks passing {@code filters}: what {@code search(query, bm25 only, depth).lane(BM25)
     * .records()} reports, without building rows.
     *
     * @throws IOException if the index cannot be read
     */
    public int lexicalRecords(String query, SearchFilters filters, int depth) throws IOException {
      if (query == null || query.isBlank()) {
        throw InvalidSearchException.empty("query", "the query is empty; give words to search for");
      }
      checkSourceTypes(view, filters);
      return view.lexicalRecords(
          QueryText.parse(query.strip(), backend.analyzer()), filters, depth);
    }

    @Override
    public void close() throws IOException {
      view.close();
    }
  }

  /**
   * The source types a filter may name: the {@link SearchFilters#KNOWN_SOURCE_TYPES known ones} and
   * any present in the index, sorted.
   */
  public List<String> sourceTypes() throws IOException {
    try (Backend.View view = backend.view()) {
      return sourceTypes(view);
    }
  }

  /**
   * The record with this key, with its chunks and backlinks, or empty when the index holds none:
   * what research reads to window a whole record, inspect a row or expand its links.
   *
   * @throws IOException if the index cannot be read
   */
  public Optional<RecordDetail> get(String key) throws IOException {
    if (records == null) {
      return backend.get(key);
    }
    Optional<RecordDetail> kept = records.get(key);
    if (kept == null) {
      kept = backend.get(key);
      records.put(key, kept);
    }
    return kept;
  }

  /**
   * How many pieces the embedding model's tokenizer cuts {@code word} into (special tokens not
   * counted): 1 for a word its vocabulary holds whole, more for a rare word or a name ("tokio",
   * "lerna"). Loads the tokenizer on first use.
   *
   * @throws IllegalStateException if the embedding model cannot be loaded
   */
  public int wordPieces(String word) {
    return backend.embedder().countTokens(word);
  }

  /**
   * How close in meaning each text is to {@code query} by the index's embedding model (the query
   * embedded as a query, the texts as passages): one cosine in [-1, 1] per text, in input order.
   * Research ranks the sentences it quotes with it. Loads the model on first use (about a second).
   *
   * @throws IllegalStateException if the embedding model cannot be loaded
   */
  public double[] similarities(String query, List<String> texts) {
    var out = new double[texts.size()];
    if (texts.isEmpty()) {
      return out;
    }
    var embedder = backend.embedder();
    float[] q = embedder.embedQuery(query);
    List<float[]> vectors = embedder.embedPassages(texts);
    for (int i = 0; i < out.length; i++) {
      float[] v = vectors.get(i);
      double dot = 0;
      for (int d = 0; d < q.length; d++) {
        dot += q[d] * v[d];
      }
      out[i] = dot; // both vectors are L2-normalized
    }
    return out;
  }

  /**
   * The chunks in the index: what research weighs a concept's match count against.
   *
   * @throws IOException if the index cannot be read
   */
  public long chunkCount() throws IOException {
    try (Session session = session()) {
      return session.chunkCount();
    }
  }

  /**
   * Counts by kind, source type and tag (the most used tags with their record counts): what the
   * collection's topic map starts from.
   *
   * @throws IOException if the index cannot be read
   */
  public IndexStats stats() throws IOException {
    return backend.stats();
  }

  /**
   * The records carrying any of these user tags, at most {@code limit}, each with all its tags, by
   * key: the records behind a tag of the topic map and the entity map.
   *
   * @throws IOException if the index cannot be read
   */
  public Map<String, List<String>> tagged(List<String> tags, int limit) throws IOException {
    if (tags.isEmpty() || limit < 1) {
      return Map.of();
    }
    try (Backend.View view = backend.view()) {
      return new java.util.TreeMap<>(view.tagged(tags, SearchFilters.NONE, limit));
    }
  }

  private static List<String> sourceTypes(Backend.View view) throws IOException {
    var types = new TreeSet<>(SearchFilters.KNOWN_SOURCE_TYPES);
    types.addAll(view.sourceTypes());
    return List.copyOf(types);
  }

  private static void checkSourceTypes(Backend.View view, SearchFilters filters)
      throws IOException {
    if (filters.sourceTypes().isEmpty()) {
      return;
    }
    List<String> allowed = sourceTypes(view);
    for (String type : filters.sourceTypes()) {
      if (!allowed.contains(type)) {
        throw new InvalidSearchException(
            "source_types", "unknown source type '" + type + "'", allowed);
      }
    }
  }
}
