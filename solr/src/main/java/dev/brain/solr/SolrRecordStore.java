package dev.brain.solr;

import static dev.brain.index.IndexFields.*;

import dev.brain.chunking.Chunk;
import dev.brain.index.IndexConfig;
import dev.brain.index.SyncReport.FileIssue;
import dev.brain.index.store.RecordStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * The Solr collection as the store of brain's sync pipeline: records and their chunks written in
 * batches of {@link #RECORD_BATCH} (a record's old chunks deleted by parent key first, nothing
 * visible before the next commit), stale records deleted in batches, the embedding pass's records
 * in the order this sync wrote them, and on the final commit each collection's sync document and
 * brain's metadata.
 */
final class SolrRecordStore implements RecordStore {

  /** Records per write batch. */
  static final int RECORD_BATCH = 64;

  private final SolrStore store;
  private final IndexConfig config;
  private final List<Block> pending = new ArrayList<>();
  private final List<Block> revectored = new ArrayList<>();
  private final List<String> deletes = new ArrayList<>();
  private final LinkedHashSet<String> written = new LinkedHashSet<>();
  private boolean uncommitted;

  SolrRecordStore(SolrStore store, IndexConfig config) {
    this.store = store;
    this.config = config;
  }

  @Override
  public Map<String, State> recordStates() throws IOException {
    var out = new HashMap<String, State>();
    store
        .recordStates()
        .forEach(
            (k, s) ->
                out.put(k, new State(s.contentHash(), s.chunking(), s.origin(), s.collection())));
    return out;
  }

  @Override
  public void write(Block block) throws IOException {
    pending.add(block);
    written.add(block.record().key());
    uncommitted = true;
    if (pending.size() >= RECORD_BATCH) {
      flush();
    }
  }

  /** Only the chunk documents go again, replaced by id: the record document is unchanged. */
  @Override
  public void rewrite(Block block) throws IOException {
    revectored.add(block);
    uncommitted = true;
    if (revectored.size() >= RECORD_BATCH) {
      flush();
    }
  }

  @Override
  public void delete(String key) throws IOException {
    deletes.add(key);
    uncommitted = true;
    if (deletes.size() >= RECORD_BATCH) {
      flush();
    }
  }

  /** Sends the writes and deletes waiting (nothing is visible before the next commit). */
  private void flush() throws IOException {
    if (!pending.isEmpty()) {
      var blocks = List.copyOf(pending);
      pending.clear();
      var docs = new ArrayList<SolrInputDocument>();
      var keys = new ArrayList<String>();
      for (Block b : blocks) {
        keys.add(b.record().key());
        docs.addAll(documents(b));
      }
      store.writes().deleteByQuery(SolrQueries.anyOf(PARENT_KEY, keys));
      store.writes().add(docs);
    }
    if (!revectored.isEmpty()) {
      var blocks = List.copyOf(revectored);
      revectored.clear();
      var docs = new ArrayList<SolrInputDocument>();
      for (Block b : blocks) {
        docs.addAll(chunkDocuments(b));
      }
      store.writes().add(docs);
    }
    if (!deletes.isEmpty()) {
      var keys = List.copyOf(deletes);
      deletes.clear();
      store.writes().deleteByQuery(SolrQueries.anyOf(PARENT_KEY, keys));
    }
  }

  /** A record's document and its chunks' documents, with the vectors the block has. */
  static List<SolrInputDocument> documents(Block b) {
    var docs = new ArrayList<SolrInputDocument>(b.chunks().size() + 1);
    SolrInputDocument record =
        SolrDocs.record(b.record(), b.record().summary(), b.collection(), b.chunking());
    // The hash of the record as read, not of the record with the summary its sync made: the next
    // sync compares what it reads with this.
    record.setField(CONTENT_HASH, b.contentHash());
    docs.add(record);
    docs.addAll(chunkDocuments(b));
    return docs;
  }

  private static List<SolrInputDocument> chunkDocuments(Block b) {
    return SolrDocs.chunks(
        b.record(), b.collection(), b.chunks(), b.embedHashes(), Arrays.asList(b.vectors()));
  }

  @Override
  public float[][] storedVectors(List<String> embedHashes) throws IOException {
    Map<String, float[]> known = store.vectorsByEmbedHash(embedHashes);
    var out = new float[embedHashes.size()][];
    for (int i = 0; i < out.length; i++) {
      out[i] = known.get(embedHashes.get(i));
    }
    return out;
  }

  /** Those this sync wrote first, in their order; then any a stopped sync left, by key. */
  @Override
  public Map<String, Integer> missingChunksByRecord() throws IOException {
    var counts = new HashMap<String, Integer>();
    var q = new SolrQuery("*:*");
    q.addFilterQuery(SolrQueries.CHUNKS, SolrDocs.HAS_VECTOR + ":false");
    q.setFields(SolrDocs.ID, PARENT_KEY);
    store.each(q, d -> counts.merge(SolrDocs.str(d, PARENT_KEY), 1, Integer::sum));
    var ordered = new LinkedHashMap<String, Integer>();
    for (String key : written) {
      Integer n = counts.remove(key);
      if (n != null) {
        ordered.put(key, n);
      }
    }
    counts.keySet().stream().sorted().forEach(k -> ordered.put(k, counts.get(k)));
    return ordered;
  }

  @Override
  public Block load(String key) throws IOException {
    var rq = new SolrQuery("*:*");
    rq.addFilterQuery(SolrQueries.RECORDS, SolrQueries.term(KEY, key));
    var found = store.query(rq).getResults();
    if (found.isEmpty()) {
      return null;
    }
    SolrDocument record = found.get(0);
    var docs = new ArrayList<SolrDocument>();
    var cq = new SolrQuery("*:*");
    cq.addFilterQuery(SolrQueries.CHUNKS, SolrQueries.term(PARENT_KEY, key));
    store.each(cq, docs::add);
    docs.sort(java.util.Comparator.comparingInt(d -> SolrDocs.integer(d, ORDINAL)));
    var chunks = new ArrayList<Chunk>(docs.size());
    var hashes = new ArrayList<String>(docs.size());
    var vectors = new float[docs.size()][];
    for (int i = 0; i < docs.size(); i++) {
      chunks.add(SolrDocs.chunk(docs.get(i)));
      hashes.add(SolrDocs.str(docs.get(i), EMBED_HASH));
      vectors[i] = SolrStore.vector(docs.get(i));
    }
    return new Block(
        SolrDocs.corpusRecord(record),
        SolrDocs.str(record, CONTENT_HASH),
        SolrDocs.str(record, COLLECTION),
        SolrDocs.str(record, CHUNKING),
        chunks,
        hashes,
        vectors);
  }

  /** A commit: Solr's reads see its last commit only. */
  @Override
  public void refresh() throws IOException {
    flush();
    if (uncommitted) {
      store.writes().commit();
      uncommitted = false;
    }
  }

  @Override
  public boolean hasUncommittedChanges() {
    return uncommitted || !pending.isEmpty() || !revectored.isEmpty() || !deletes.isEmpty();
  }

  @Override
  public void commit(boolean complete, List<CollectionOutcome> synced) throws IOException {
    flush();
    if (complete) {
      for (CollectionOutcome c : synced) {
        SyncDocuments.write(
            store,
            c.name(),
            c.files(),
            c.attachments(),
            issues(c.skipped()),
            issues(c.failed()),
            issues(c.truncated()),
            issues(c.warnings()),
            c.moreIssues());
      }
      store.writeMeta(config);
    }
    store.writes().commit();
    uncommitted = false;
  }

  private static List<FileIssue> issues(List<dev.brain.index.CollectionStatus.Issue> issues) {
    return issues.stream().map(i -> new FileIssue(Path.of(i.file()), i.reason())).toList();
  }
}
