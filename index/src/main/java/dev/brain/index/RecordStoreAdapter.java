package dev.brain.index;

import dev.brain.index.store.RecordStore;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A {@link RecordStore} outside this module as the store of a sync: no file states, no summaries.
 */
final class RecordStoreAdapter implements SyncStore {

  private final RecordStore store;

  RecordStoreAdapter(RecordStore store) {
    this.store = store;
  }

  @Override
  public Map<String, IndexReads.RecordState> recordStates() throws IOException {
    var out = new HashMap<String, IndexReads.RecordState>();
    store
        .recordStates()
        .forEach(
            (key, s) ->
                out.put(
                    key,
                    new IndexReads.RecordState(
                        s.contentHash(), s.chunking(), s.origin(), s.collection())));
    return out;
  }

  /** None: every file is read. */
  @Override
  public Map<String, FileStates.FileState> fileStates() {
    return Map.of();
  }

  @Override
  public void write(SyncItem.Prepared p) throws IOException {
    store.write(
        new RecordStore.Block(
            p.record(),
            p.contentHash(),
            p.collection(),
            p.chunking(),
            p.chunks(),
            p.embedHashes(),
            p.vectors()));
  }

  @Override
  public void delete(String key) throws IOException {
    store.delete(key);
  }

  @Override
  public void rememberFile(String path, FileStates.FileState state) {}

  @Override
  public void forgetFile(String path) {}

  @Override
  public float[][] storedVectors(List<String> embedHashes) throws IOException {
    return store.storedVectors(embedHashes);
  }

  @Override
  public Map<String, Integer> missingChunksByRecord() throws IOException {
    return store.missingChunksByRecord();
  }

  @Override
  public StoredBlock load(String key, Function<String, float[]> elsewhere) throws IOException {
    RecordStore.Block b = store.load(key);
    if (b == null) {
      return null;
    }
    float[][] vectors = b.vectors().clone();
    for (int i = 0; i < vectors.length; i++) {
      if (vectors[i] == null) {
        vectors[i] = elsewhere.apply(b.embedHashes().get(i));
      }
    }
    return new StoredBlock(
        b.record(),
        b.contentHash(),
        SummaryState.of(null),
        b.collection(),
        b.chunking(),
        b.chunks(),
        b.embedHashes(),
        vectors);
  }

  @Override
  public void rewrite(StoredBlock p) throws IOException {
    store.rewrite(
        new RecordStore.Block(
            p.record(),
            p.contentHash(),
            p.collection(),
            p.chunking(),
            p.chunks(),
            p.embedHashes(),
            p.vectors()));
  }

  @Override
  public void refresh() throws IOException {
    store.refresh();
  }

  @Override
  public boolean hasUncommittedChanges() {
    return store.hasUncommittedChanges();
  }

  @Override
  public void commit(boolean complete, List<CollectionSync> synced) throws IOException {
    store.commit(
        complete,
        synced.stream()
            .map(
                c ->
                    new RecordStore.CollectionOutcome(
                        c.name(),
                        c.at(),
                        c.files(),
                        c.attachments(),
                        c.skipped(),
                        c.failed(),
                        c.truncated(),
                        c.warnings(),
                        c.moreIssues()))
            .toList());
  }
}
