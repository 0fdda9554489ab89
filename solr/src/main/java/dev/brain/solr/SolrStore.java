package dev.brain.solr;

import static dev.brain.index.IndexFields.*;

import dev.brain.index.CollectionStatus;
import dev.brain.index.IndexConfig;
import dev.brain.index.IndexMetadata;
import dev.brain.index.IndexStats;
import dev.brain.index.RecordDetail;
import dev.brain.index.VectorFormat;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.response.FacetField;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.CursorMarkParams;

/**
 * brain's collection as a record store: queries for what a sync and {@code brain status}, {@code
 * get} and {@code stats} need, and brain's own documents (metadata, each collection's last sync).
 * Every read sees the collection's last commit.
 */
final class SolrStore {

  private static final int PAGE = 1000;

  private final CloudSolrClient client;
  private final SolrConfig config;
  private final SolrWrites writes;

  SolrStore(CloudSolrClient client, SolrConfig config) {
    this.client = client;
    this.config = config;
    this.writes = new SolrWrites(client, config.collection());
  }

  SolrWrites writes() {
    return writes;
  }

  CloudSolrClient client() {
    return client;
  }

  String collection() {
    return config.collection();
  }

  /** Runs a query; a failure becomes an {@link IOException} naming the cluster and collection. */
  QueryResponse query(SolrQuery q) throws IOException {
    try {
      // POST: a query vector or a batch of hashes is longer than a URL may be.
      return client.query(config.collection(), q, SolrRequest.METHOD.POST);
    } catch (SolrServerException | SolrException e) {
      throw new IOException(
          "Solr collection '"
              + config.collection()
              + "' at "
              + config.where()
              + " could not be searched: "
              + SolrCollections.rootMessage(e),
          e);
    }
  }

  /** Every document matching {@code q} (with its filters), page by page in id order. */
  void each(SolrQuery q, Consumer<SolrDocument> each) throws IOException {
    q.setRows(PAGE);
    q.setSort(SolrDocs.ID, SolrQuery.ORDER.asc);
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = query(q);
      r.getResults().forEach(each);
      String next = r.getNextCursorMark();
      if (next == null || next.equals(cursor)) {
        return;
      }
      cursor = next;
    }
  }

  /** What a sync compares a record with. */
  record RecordState(String contentHash, String chunking, String origin, String collection) {}

  Map<String, RecordState> recordStates() throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.RECORDS);
    q.setFields(KEY, CONTENT_HASH, CHUNKING, ORIGIN, COLLECTION);
    var out = new HashMap<String, RecordState>();
    each(
        q,
        d ->
            out.put(
                SolrDocs.str(d, KEY),
                new RecordState(
                    SolrDocs.str(d, CONTENT_HASH),
                    SolrDocs.str(d, CHUNKING),
                    SolrDocs.str(d, ORIGIN),
                    SolrDocs.str(d, COLLECTION))));
    return out;
  }

  /** Stored vectors of these embedding inputs, by hash (absent: not embedded yet). */
  Map<String, float[]> vectorsByEmbedHash(Collection<String> hashes) throws IOException {
    var out = new HashMap<String, float[]>();
    var distinct = new ArrayList<>(new TreeSet<>(hashes));
    for (int i = 0; i < distinct.size(); i += 256) {
      List<String> part = distinct.subList(i, Math.min(distinct.size(), i + 256));
      var q = new SolrQuery("*:*");
      q.addFilterQuery(SolrQueries.CHUNKS, SolrDocs.HAS_VECTOR + ":true");
      q.addFilterQuery(SolrQueries.anyOf(EMBED_HASH, part));
      q.setFields(EMBED_HASH, VECTOR);
      q.setRows(part.size() * 4);
      for (SolrDocument d : query(q).getResults()) {
        float[] v = vector(d);
        if (v != null) {
          out.putIfAbsent(SolrDocs.str(d, EMBED_HASH), v);
        }
      }
    }
    return out;
  }

  static float[] vector(SolrDocument d) {
    Collection<Object> values = d.getFieldValues(VECTOR);
    if (values == null || values.isEmpty()) {
      return null;
    }
    var v = new float[values.size()];
    int i = 0;
    for (Object o : values) {
      v[i++] = ((Number) o).floatValue();
    }
    return v;
  }

  long count(String... filters) throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(filters);
    q.setRows(0);
    return query(q).getResults().getNumFound();
  }

  /** Records brain's model, dimension and last sync in the metadata document. */
  void writeMeta(IndexConfig index) throws IOException {
    var d = new SolrInputDocument();
    d.setField(SolrDocs.ID, SolrDocs.META_ID);
    d.setField(DOC_TYPE, SolrDocs.META);
    d.setField(PARENT_KEY, SolrDocs.META_ID);
    d.setField(SolrDocs.MODEL_ID, index.model().id());
    d.setField(SolrDocs.DIMENSION, index.model().dimension());
    d.setField(SolrDocs.SCHEMA_VERSION, IndexMetadata.CURRENT_SCHEMA_VERSION);
    d.setField(CHUNKING, index.chunkingSignature());
    d.setField(SolrDocs.LAST_SYNC_AT, Instant.now().toEpochMilli());
    writes.add(List.of(d));
  }

  /** The metadata document, or empty before brain's first sync into the collection. */
  Optional<SolrDocument> meta() throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.term(SolrDocs.ID, SolrDocs.META_ID));
    var r = query(q).getResults();
    return r.isEmpty() ? Optional.empty() : Optional.of(r.get(0));
  }

  /** The metadata of the collection, or that of a fresh one for {@code index}. */
  IndexMetadata metadata(IndexConfig index) throws IOException {
    Optional<SolrDocument> meta = meta();
    Instant last =
        meta.map(d -> SolrDocs.longValue(d, SolrDocs.LAST_SYNC_AT))
            .filter(v -> v > 0)
            .map(Instant::ofEpochMilli)
            .orElse(null);
    return new IndexMetadata(
        IndexMetadata.CURRENT_SCHEMA_VERSION,
        meta.map(d -> SolrDocs.str(d, SolrDocs.MODEL_ID)).orElse(index.model().id()),
        meta.map(d -> SolrDocs.integer(d, SolrDocs.DIMENSION)).orElse(index.model().dimension()),
        VectorFormat.FLOAT,
        meta.map(d -> SolrDocs.str(d, CHUNKING)).orElse(index.chunkingSignature()),
        last);
  }

  /** Per collection: counts from the documents, the last sync from its sync document. */
  List<CollectionStatus> collections() throws IOException {
    return SyncDocuments.collections(this);
  }

  /** Counts by value of {@code field} among documents passing {@code filters}. */
  Map<String, Long> facet(String field, String... filters) throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(filters);
    q.setRows(0);
    q.setFacet(true);
    q.addFacetField(field);
    q.setFacetLimit(-1);
    q.setFacetMinCount(1);
    var out = new LinkedHashMap<String, Long>();
    FacetField f = query(q).getFacetField(field);
    if (f != null) {
      f.getValues().forEach(c -> out.put(c.getName(), c.getCount()));
    }
    return out;
  }

  /** Counts by kind, source type and tag; the creation span; the metadata. */
  IndexStats stats(IndexConfig index) throws IOException {
    Map<String, Long> tags = facet(TAGS, SolrQueries.RECORDS);
    var top = new ArrayList<IndexStats.TagCount>();
    tags.entrySet().stream()
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .limit(IndexStats.TOP_TAGS)
        .forEach(e -> top.add(new IndexStats.TagCount(e.getKey(), e.getValue())));
    return new IndexStats(
        count(SolrQueries.RECORDS),
        count(SolrQueries.CHUNKS),
        count(SolrQueries.CHUNKS, SolrDocs.HAS_VECTOR + ":true"),
        0, // summary coverage is not tracked in a Solr collection yet
        0,
        0, // nor model summaries, which only the embedded index makes
        0,
        0,
        List.of(),
        facet(KIND, SolrQueries.RECORDS),
        facet(SOURCE_TYPE, SolrQueries.RECORDS),
        top,
        tags.size(),
        created(),
        0, // the collection's size lives on the Solr nodes, not here
        metadata(index));
  }

  private IndexStats.DateSpan created() throws IOException {
    Long first = edge(SolrQuery.ORDER.asc);
    Long last = edge(SolrQuery.ORDER.desc);
    return first == null || last == null
        ? null
        : new IndexStats.DateSpan(Instant.ofEpochMilli(first), Instant.ofEpochMilli(last));
  }

  private Long edge(SolrQuery.ORDER order) throws IOException {
    var q = new SolrQuery(CREATED_AT + ":[* TO *]");
    q.addFilterQuery(SolrQueries.RECORDS);
    q.setFields(CREATED_AT);
    q.setSort(CREATED_AT, order);
    q.setRows(1);
    var r = query(q).getResults();
    return r.isEmpty() ? null : SolrDocs.longValue(r.get(0), CREATED_AT);
  }

  /** A record with its chunks (by ordinal) and the keys of the records linking to it. */
  Optional<RecordDetail> get(String key) throws IOException {
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.RECORDS, SolrQueries.term(KEY, key));
    var r = query(q).getResults();
    if (r.isEmpty()) {
      return Optional.empty();
    }
    var chunks = new ArrayList<dev.brain.chunking.Chunk>();
    var cq = new SolrQuery("*:*");
    cq.addFilterQuery(SolrQueries.CHUNKS, SolrQueries.term(PARENT_KEY, key));
    cq.setFields(SolrDocs.ID, SolrDocs.CHUNK_FIELDS, TEXT_HASH, CHUNKER_VERSION);
    each(cq, d -> chunks.add(SolrDocs.chunk(d)));
    chunks.sort(java.util.Comparator.comparingInt(dev.brain.chunking.Chunk::ordinal));
    var backlinks = new TreeSet<String>();
    var bq = new SolrQuery("*:*");
    bq.addFilterQuery(SolrQueries.RECORDS, SolrQueries.term(LINKS, key));
    bq.setFields(SolrDocs.ID, KEY);
    each(bq, d -> backlinks.add(SolrDocs.str(d, KEY)));
    backlinks.remove(key);
    return Optional.of(
        new RecordDetail(SolrDocs.corpusRecord(r.get(0)), chunks, List.copyOf(backlinks)));
  }
}
