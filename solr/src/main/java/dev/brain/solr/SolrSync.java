package dev.brain.solr;

import static dev.brain.index.IndexFields.*;

import dev.brain.chunking.Chunker;
import dev.brain.index.AttachmentCounts;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexConfig;
import dev.brain.index.RecordChunks;
import dev.brain.index.SyncListener;
import dev.brain.index.SyncReport;
import dev.brain.index.SyncReport.FileIssue;
import dev.brain.index.importer.Attachments;
import dev.brain.index.importer.ImportException;
import dev.brain.index.importer.ImportResult;
import dev.brain.index.importer.Importers;
import dev.brain.models.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.solr.common.SolrInputDocument;

/**
 * One sync into the Solr collection, through brain's own pipeline: brain's importers read the
 * files, {@link RecordChunks} chunks each new or changed record as the embedded index would, and
 * the bundled model embeds. Lexical first: records and chunks are written and committed before any
 * vector, then chunks without a vector are embedded in batches and rewritten ({@link
 * SolrEmbedPass}). Unchanged records (same content hash, chunking and collection) are skipped;
 * records whose file or entry is gone are deleted. A batch that fails its retries is reported as
 * failed for its files (their records are written by the next sync), never dropped unseen.
 */
final class SolrSync {

  /** Records per write batch. */
  static final int RECORD_BATCH = 64;

  private final SolrStore store;
  private final IndexConfig config;
  private final Supplier<Chunker> chunker;
  private final Supplier<Embedder> embedder;
  private final SyncListener listener;
  private final Importers importers = Importers.defaults();

  private final List<FileIssue> skipped = new ArrayList<>();
  private final List<FileIssue> failed = new ArrayList<>();
  private final List<FileIssue> warnings = new ArrayList<>();
  private final List<FileIssue> truncated = new ArrayList<>();
  private final Set<String> unreadOrigins = new HashSet<>();
  private final Map<String, Map<String, Integer>> attachments = new HashMap<>();
  private final Map<String, Path> produced = new HashMap<>();
  private final List<Pending> batch = new ArrayList<>();
  private final List<String> written = new ArrayList<>();
  private int added;
  private int updated;
  private int unchanged;
  private int deleted;
  private long chunksWritten;
  private long chunksReused;

  /** A record prepared for writing, with the file it came from. */
  private record Pending(
      Path file,
      CorpusRecord record,
      String collection,
      RecordChunks.Prepared prepared,
      boolean isNew) {}

  SolrSync(
      SolrStore store,
      IndexConfig config,
      Supplier<Chunker> chunker,
      Supplier<Embedder> embedder,
      SyncListener listener) {
    this.store = store;
    this.config = config;
    this.chunker = chunker;
    this.embedder = embedder;
    this.listener = listener == null ? SyncListener.NONE : listener;
  }

  SyncReport run(List<CollectionRoot> collections) throws IOException {
    long start = System.nanoTime();
    CollectionRoot.checkSyncable(collections);
    Map<String, SolrStore.RecordState> states = store.recordStates();
    var files = new LinkedHashMap<Path, CollectionRoot>();
    for (CollectionRoot c : collections) {
      for (Path file : importers.walk(c.root(), c.allExcludes(), this::skippedByWalk)) {
        files.putIfAbsent(file.toAbsolutePath().normalize(), c);
      }
    }
    // Attachments (images, audio, ...) are counted per collection, not read: see AttachmentCounts.
    files
        .entrySet()
        .removeIf(
            e -> {
              String type = Attachments.type(e.getKey());
              if (type != null) {
                attachments
                    .computeIfAbsent(e.getValue().name(), n -> new HashMap<>())
                    .merge(type, 1, Integer::sum);
              }
              return type != null;
            });
    listener.filesPlanned(files.size());
    for (var entry : files.entrySet()) {
      readFile(entry.getKey(), entry.getValue(), states);
    }
    flush(states);
    deleteStale(states, collections);
    return finish(start, collections, files);
  }

  SyncReport put(List<CorpusRecord> records) throws IOException {
    long start = System.nanoTime();
    Map<String, SolrStore.RecordState> states = store.recordStates();
    Path given = Path.of("(records)");
    listener.filesPlanned(1);
    for (CorpusRecord r : records) {
      prepare(given, r, "(records)", states);
    }
    flush(states);
    return finish(start, List.of(), Map.of());
  }

  private SyncReport finish(
      long start, List<CollectionRoot> collections, Map<Path, CollectionRoot> files)
      throws IOException {
    store.writes().commit(); // lexical first: every record and chunk searchable by BM25 now
    listener.lexicalCommitted(added + updated);
    var embedding = new SolrEmbedPass(store, config, embedder, listener).run(written);
    if (embedding.failure() != null) {
      warnings.add(new FileIssue(Path.of("(embedding)"), embedding.failure()));
    }
    for (CollectionRoot c : collections) {
      int count = (int) files.values().stream().filter(c::equals).count();
      store.writeSync(
          c.name(),
          count,
          new AttachmentCounts(attachments.getOrDefault(c.name(), Map.of())),
          skipped,
          failed,
          truncated,
          warnings,
          0);
    }
    store.writeMeta(config);
    store.writes().commit();
    listener.committed(added + updated);
    return new SyncReport(
        files.size(),
        added,
        updated,
        unchanged,
        deleted,
        new AttachmentCounts(
            attachments.values().stream()
                .flatMap(m -> m.entrySet().stream())
                .collect(
                    java.util.stream.Collectors.toMap(
                        Map.Entry::getKey, Map.Entry::getValue, Integer::sum))),
        skipped,
        failed,
        truncated,
        warnings,
        chunksWritten,
        embedding.embedded(),
        chunksReused + embedding.reused(),
        0, // no embedding cache beside SolrCloud: reuse is by embed hash among its chunks only
        Duration.ofNanos(System.nanoTime() - start),
        Duration.ofNanos(embedding.embedNanos()),
        0, // the Solr backend makes no model summaries
        0);
  }

  private void skippedByWalk(Path file, String reason) {
    skipped.add(new FileIssue(file, reason));
    listener.fileFailed(file, reason, true);
  }

  private void readFile(Path file, CollectionRoot c, Map<String, SolrStore.RecordState> states)
      throws IOException {
    long size = sizeOf(file);
    if (size > c.maxFileBytes()) {
      String reason =
          String.format(
              java.util.Locale.ROOT,
              "%s is %.1f MB, over the per-file cap of %.1f MB of collection '%s' (max_file_mb in"
                  + " brain.yaml)",
              file,
              size / 1048576.0,
              c.maxFileBytes() / 1048576.0,
              c.name());
      issue(file, reason, true);
      return;
    }
    ImportResult result;
    try {
      result = importers.read(file, c.root(), c.name());
    } catch (ImportException e) {
      issue(file, e.getMessage(), e.skipped());
      return;
    } catch (RuntimeException e) {
      issue(file, "could not be read: " + e, false);
      return;
    }
    listener.fileStarted(file, result.records().size());
    result.warnings().forEach(w -> warn(file, w));
    int kept = 0;
    for (CorpusRecord r : result.records()) {
      r = r.origin() != null ? r : withOrigin(r, file);
      SolrStore.RecordState state = states.get(r.key());
      if (state != null
          && state.collection() != null
          && !state.collection().equals(c.name())
          && state.origin() != null
          && Files.exists(Path.of(state.origin()))) {
        warn(
            file,
            "record "
                + r.key()
                + " is already indexed from collection '"
                + state.collection()
                + "'; kept that one (a key belongs to one collection)");
        continue;
      }
      if (produced.putIfAbsent(r.key(), file) != null) {
        warn(file, "record " + r.key() + " has a key already imported this run; kept the first");
        continue;
      }
      prepare(file, r, c.name(), states);
      kept++;
    }
    listener.fileDone(file, kept);
  }

  /** The file's size, or 0 when it cannot be read (reading it then reports why). */
  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return 0;
    }
  }

  private void prepare(
      Path file, CorpusRecord r, String collection, Map<String, SolrStore.RecordState> states)
      throws IOException {
    produced.putIfAbsent(r.key(), file);
    SolrStore.RecordState state = states.get(r.key());
    if (state != null
        && r.contentHash().equals(state.contentHash())
        && collection.equals(state.collection())
        && RecordChunks.isCurrent(state.chunking(), config)) {
      unchanged++;
      listener.recordDone(r.key(), SyncListener.Change.UNCHANGED);
      return;
    }
    RecordChunks.Prepared prepared;
    try {
      prepared = RecordChunks.prepare(r, chunker.get(), config);
    } catch (RuntimeException e) {
      issue(file, "record " + r.key() + " could not be chunked: " + e, false);
      return;
    }
    if (prepared.truncated() != null) {
      truncated.add(new FileIssue(file, prepared.truncated()));
      listener.fileWarning(file, prepared.truncated());
    }
    batch.add(new Pending(file, r, collection, prepared, state == null));
    if (batch.size() >= RECORD_BATCH) {
      flush(states);
    }
  }

  /**
   * Writes the pending records: their old chunks deleted, then records and chunks added (vectors
   * reused by embedding input where the collection has them). Nothing is visible before the next
   * commit, so no reader sees a record without its chunks.
   */
  private void flush(Map<String, SolrStore.RecordState> states) throws IOException {
    if (batch.isEmpty()) {
      return;
    }
    var pending = List.copyOf(batch);
    batch.clear();
    var hashes = new ArrayList<String>();
    pending.forEach(p -> hashes.addAll(p.prepared().embedHashes()));
    Map<String, float[]> reusable = store.vectorsByEmbedHash(hashes);
    var docs = new ArrayList<SolrInputDocument>();
    var replaced = new ArrayList<String>();
    long reused = 0;
    for (Pending p : pending) {
      if (!p.isNew()) {
        replaced.add(p.record().key());
      }
      docs.add(
          SolrDocs.record(
              p.record(), p.prepared().summary(), p.collection(), p.prepared().chunking()));
      var vectors = new ArrayList<float[]>();
      for (String h : p.prepared().embedHashes()) {
        float[] v = reusable.get(h);
        vectors.add(v);
        reused += v == null ? 0 : 1;
      }
      docs.addAll(SolrDocs.chunks(p.record(), p.collection(), p.prepared(), vectors));
    }
    try {
      if (!replaced.isEmpty()) {
        store.writes().deleteByQuery(SolrQueries.anyOf(PARENT_KEY, replaced));
      }
      store.writes().add(docs);
    } catch (SolrWrites.BatchFailed e) {
      for (Pending p : pending) {
        issue(
            p.file(), "record " + p.record().key() + " was not written: " + e.getMessage(), false);
        states.remove(p.record().key()); // not deleted as stale either: its file still exists
      }
      return;
    }
    for (Pending p : pending) {
      written.add(p.record().key());
      chunksWritten += p.prepared().chunks().size();
      if (p.isNew()) {
        added++;
      } else {
        updated++;
      }
      listener.recordDone(
          p.record().key(), p.isNew() ? SyncListener.Change.ADDED : SyncListener.Change.UPDATED);
    }
    chunksReused += reused;
  }

  /** Deletes records of the synced collections whose file or entry is gone. */
  private void deleteStale(Map<String, SolrStore.RecordState> states, List<CollectionRoot> synced)
      throws IOException {
    var stale = new ArrayList<String>();
    for (var entry : states.entrySet()) {
      String origin = entry.getValue().origin();
      if (produced.containsKey(entry.getKey())
          || origin == null
          || unreadOrigins.contains(origin)) {
        continue;
      }
      Path path = Path.of(origin);
      String collection = entry.getValue().collection();
      if (synced.stream().anyMatch(c -> c.name().equals(collection) && c.contains(path))) {
        stale.add(entry.getKey());
      }
    }
    for (int i = 0; i < stale.size(); i += RECORD_BATCH) {
      List<String> keys = stale.subList(i, Math.min(stale.size(), i + RECORD_BATCH));
      try {
        store.writes().deleteByQuery(SolrQueries.anyOf(PARENT_KEY, keys));
      } catch (SolrWrites.BatchFailed e) {
        warnings.add(new FileIssue(Path.of(states.get(keys.get(0)).origin()), e.getMessage()));
        continue;
      }
      deleted += keys.size();
      keys.forEach(k -> listener.recordDone(k, SyncListener.Change.DELETED));
    }
  }

  private void issue(Path file, String reason, boolean isSkipped) {
    (isSkipped ? skipped : failed).add(new FileIssue(file, reason));
    unreadOrigins.add(file.toString());
    listener.fileFailed(file, reason, isSkipped);
  }

  private void warn(Path file, String warning) {
    warnings.add(new FileIssue(file, warning));
    listener.fileWarning(file, warning);
  }

  private static CorpusRecord withOrigin(CorpusRecord r, Path file) {
    return r.withOrigin(file.toAbsolutePath().normalize().toString());
  }
}
