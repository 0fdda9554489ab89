package dev.brain.solr;

import static dev.brain.index.IndexFields.*;

import dev.brain.index.CorpusRecord;
import dev.brain.retrieval.Backend;
import dev.brain.retrieval.Hit;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.LaneHits;
import dev.brain.retrieval.QueryText;
import dev.brain.retrieval.SearchFilters;
import dev.brain.retrieval.StoredChunk;
import dev.brain.retrieval.VectorSearch;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;

/**
 * One search's answers from the Solr collection. Lanes ask for the chunk fields rows need with
 * their hits, so a row costs no second request; a chunk's handle is its place in this view's list.
 *
 * <p>BM25 mirrors the embedded lane's two passes, except that the embedded first pass also takes
 * the title and tags on each record's first chunk and this one does not yet: {@code edismax} over
 * text, heading and aliases finds the candidates, then a {@code rerank} with {@code
 * reRankOperator=replace} gives each the full score (title, phrase and tag clauses added). {@code
 * tie=1} makes edismax sum the fields' scores, as the embedded lane's boolean query does. The
 * vector lane is {@code {!knn}} with the filters as {@code fq}, which Solr applies before the graph
 * search.
 */
final class SolrView implements Backend.View {

  // The embedded lane's tuning (retrieval's Bm25Lane.Params.DEFAULTS; k1 and b are in schema.xml).
  static final String CANDIDATE_FIELDS = "text heading^0.5 aliases^0.4";
  static final String SCORING_FIELDS = "text title^0.4 heading^0.5 aliases^0.4";
  static final String PHRASE = "text^0.5";
  static final int PHRASE_SLOP = 2;
  static final String TAG_BOOST = "2.0";

  private final SolrStore store;
  private final String where;
  private final List<StoredChunk> handles = new ArrayList<>();

  SolrView(SolrStore store, String where) {
    this.store = store;
    this.where = where;
  }

  @Override
  public List<String> sourceTypes() throws IOException {
    return List.copyOf(store.facet(SOURCE_TYPE, SolrQueries.RECORDS).keySet());
  }

  @Override
  public LaneHits bm25(QueryText query, SearchFilters filters, int depth) throws IOException {
    String words = SolrQueries.words(query.searchText());
    if (words.isEmpty()) {
      return LaneHits.used(Lane.BM25, List.of(), 0, "the query has no searchable words");
    }
    var q = new SolrQuery("{!edismax qf=$qf tie=1 mm=0 q.op=OR v=$qq}");
    q.set("qq", words);
    q.set("qf", CANDIDATE_FIELDS);
    q.set(
        "rq",
        "{!rerank reRankQuery=$rqq reRankDocs="
            + depth
            + " reRankWeight=1 reRankOperator=replace}");
    q.set("rqq", scoring(query));
    q.set("sf", SCORING_FIELDS);
    tagBonus(q, query);
    q.addFilterQuery(SolrQueries.CHUNKS);
    SolrQueries.filters(filters).forEach(q::addFilterQuery);
    return lane(Lane.BM25, q, depth, (d, score) -> score, "edismax + rerank over " + where);
  }

  /** The full BM25 query: every field, the phrase bonus and the tag bonus. */
  private static String scoring(QueryText query) {
    var local =
        new StringBuilder(
            "{!edismax qf=$sf tie=1 mm=0 q.op=OR pf=" + "'" + PHRASE + "' ps=" + PHRASE_SLOP);
    if (!query.tagAliases().isEmpty()) {
      local.append(" bq=$tq");
    }
    return local.append(" v=$qq}").toString();
  }

  @Override
  public Backend.Coverage coverage() throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.CHUNKS);
    q.setRows(0);
    q.setFacet(true);
    q.addFacetQuery(SolrDocs.HAS_VECTOR + ":true");
    QueryResponse r = store.query(q);
    long vectors = r.getFacetQuery().getOrDefault(SolrDocs.HAS_VECTOR + ":true", 0);
    return new Backend.Coverage(r.getResults().getNumFound(), vectors);
  }

  @Override
  public LaneHits vector(
      float[] target, SearchFilters filters, int depth, VectorSearch mode, long vectors)
      throws IOException {
    var v = new StringBuilder("[");
    for (int i = 0; i < target.length; i++) {
      v.append(i == 0 ? "" : ",").append(target[i]);
    }
    var q = new SolrQuery("{!knn f=" + VECTOR + " topK=" + depth + "}" + v.append(']'));
    q.addFilterQuery(SolrQueries.CHUNKS);
    SolrQueries.filters(filters).forEach(q::addFilterQuery);
    // Lucene scores unit vectors compared by dot product as (1 + cos) / 2; rows report the cosine.
    // A summary chunk's cosine is weighed as the embedded lane weighs it, and the lane re-ranked.
    return lane(
        Lane.VECTOR,
        q,
        depth,
        (d, score) ->
            "summary".equals(SolrDocs.str(d, ROLE))
                ? Backend.SUMMARY_WEIGHT * (2.0 * score - 1.0)
                : 2.0 * score - 1.0,
        "knn (topK=" + depth + ") over " + where);
  }

  private LaneHits lane(
      Lane lane,
      SolrQuery q,
      int depth,
      java.util.function.ToDoubleBiFunction<SolrDocument, Double> raw,
      String how)
      throws IOException {
    q.setRows(depth);
    q.setFields(SolrDocs.ID, SolrDocs.CHUNK_FIELDS, "score");
    SolrDocumentList docs = store.query(q).getResults();
    var hits = new ArrayList<Hit>(docs.size());
    for (SolrDocument d : docs) {
      int handle = handle(d);
      double score = ((Number) d.getFieldValue("score")).doubleValue();
      hits.add(new Hit(SolrDocs.str(d, PARENT_KEY), handle, raw.applyAsDouble(d, score)));
    }
    // Stable: equal scores keep Solr's order.
    hits.sort(java.util.Comparator.comparingDouble((Hit h) -> -h.score()));
    return LaneHits.used(lane, hits, docs.getNumFound(), how);
  }

  private int handle(SolrDocument d) {
    int handle = handles.size();
    handles.add(SolrDocs.storedChunk(handle, d));
    return handle;
  }

  @Override
  public Map<String, List<String>> tagged(List<String> tags, SearchFilters filters, int limit)
      throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.RECORDS, SolrQueries.anyOf(TAGS, tags));
    SolrQueries.filters(filters).forEach(q::addFilterQuery);
    q.setFields(KEY, TAGS);
    q.setRows(limit);
    var out = new LinkedHashMap<String, List<String>>();
    for (SolrDocument d : store.query(q).getResults()) {
      out.put(SolrDocs.str(d, KEY), SolrDocs.strings(d, TAGS));
    }
    return out;
  }

  @Override
  public Backend.Loaded load(List<String> keys, Collection<Integer> chunks) throws IOException {
    var records = new HashMap<String, CorpusRecord>();
    if (!keys.isEmpty()) {
      var q = new SolrQuery("*:*");
      q.addFilterQuery(SolrQueries.RECORDS, SolrQueries.anyOf(KEY, keys));
      q.setFields(SolrDocs.RECORD_FIELDS);
      q.setRows(keys.size());
      for (SolrDocument d : store.query(q).getResults()) {
        CorpusRecord r = SolrDocs.corpusRecord(d);
        records.put(r.key(), r);
      }
    }
    var loaded = new HashMap<Integer, StoredChunk>();
    for (int handle : chunks) {
      loaded.put(handle, handles.get(handle));
    }
    return new Backend.Loaded(records, loaded);
  }

  @Override
  public StoredChunk bestChunk(String key, QueryText query) throws IOException {
    String words = SolrQueries.words(query.searchText());
    if (!words.isEmpty()) {
      var q = new SolrQuery(scoring(query));
      q.set("qq", words);
      q.set("sf", SCORING_FIELDS);
      tagBonus(q, query);
      q.addFilterQuery(
          SolrQueries.CHUNKS, SolrQueries.term(PARENT_KEY, key), SolrQueries.NOT_BRAIN_WRITTEN);
      q.setFields(SolrDocs.ID, SolrDocs.CHUNK_FIELDS);
      q.setRows(1);
      SolrDocumentList best = store.query(q).getResults();
      if (!best.isEmpty()) {
        return handles.get(handle(best.get(0)));
      }
    }
    var first = new SolrQuery("*:*");
    first.addFilterQuery(
        SolrQueries.CHUNKS, SolrQueries.term(PARENT_KEY, key), SolrQueries.NOT_BRAIN_WRITTEN);
    first.setFields(SolrDocs.ID, SolrDocs.CHUNK_FIELDS);
    first.setSort(ORDINAL, SolrQuery.ORDER.asc);
    first.setRows(1);
    SolrDocumentList docs = store.query(first).getResults();
    return docs.isEmpty() ? null : handles.get(handle(docs.get(0)));
  }

  private static void tagBonus(SolrQuery q, QueryText query) {
    if (!query.tagAliases().isEmpty()) {
      q.set("tq", SolrQueries.anyOf(TAGS, query.tagAliases()) + "^=" + TAG_BOOST);
    }
  }

  @Override
  public List<CorpusRecord> backlinks(String key, SearchFilters filters) throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.RECORDS, SolrQueries.term(LINKS, key));
    SolrQueries.filters(filters).forEach(q::addFilterQuery);
    q.setFields(SolrDocs.RECORD_FIELDS);
    q.setSort(KEY, SolrQuery.ORDER.asc);
    q.setRows(10_000);
    var out = new ArrayList<CorpusRecord>();
    for (SolrDocument d : store.query(q).getResults()) {
      out.add(SolrDocs.corpusRecord(d));
    }
    return out;
  }

  @Override
  public boolean passes(String key, SearchFilters filters) throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.RECORDS, SolrQueries.term(KEY, key));
    SolrQueries.filters(filters).forEach(q::addFilterQuery);
    q.setRows(0);
    return store.query(q).getResults().getNumFound() > 0;
  }

  @Override
  public void close() {
    handles.clear();
  }
}
