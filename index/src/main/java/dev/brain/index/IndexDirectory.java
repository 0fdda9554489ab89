package dev.brain.index;

import dev.brain.models.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * The index folder on disk, before a {@link BrainIndex} holds it: whether it has a commit, the
 * metadata of that commit checked against the configuration, its one writer (and the error when
 * another process holds it), and deleting it for a rebuild.
 */
final class IndexDirectory {
  private IndexDirectory() {}

  /** See {@link BrainIndex#deleteIndex}. */
  static void delete(IndexConfig config) throws IOException {
    Path dir = config.directory();
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Directory directory = FSDirectory.open(dir)) {
      boolean empty = directory.listAll().length == 0;
      if (!empty && !DirectoryReader.indexExists(directory)) {
        throw new IOException(
            dir + " holds files that are no Lucene index; not deleting it. Move them away first.");
      }
      try (var lock = directory.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
        lock.ensureValid(); // held while the files go, so no writer opens the index meanwhile
        for (String file : directory.listAll()) {
          if (!file.equals(IndexWriter.WRITE_LOCK_NAME)) {
            directory.deleteFile(file);
          }
        }
      } catch (LockObtainFailedException e) {
        throw new IndexLockedException(
            "The index at "
                + dir
                + " is open for writing by another process (a running `brain index`, `brain"
                + " watch` or `brain serve --watch`?). Stop it, then try again.",
            e);
      }
    }
  }

  /** See {@link BrainIndex#hasCommit}. */
  static boolean hasCommit(IndexConfig config) throws IOException {
    if (!Files.isDirectory(config.directory())) {
      return false;
    }
    try (Directory directory = FSDirectory.open(config.directory())) {
      return DirectoryReader.indexExists(directory);
    }
  }

  /** The error of a read-only open where there is no index. */
  static NoSuchFileException noIndex(IndexConfig config) {
    return new NoSuchFileException(
        config.directory().toString(),
        null,
        "no brain index here; run `brain index PATH...` first");
  }

  /** Refuses an embedder of another model than {@code config}'s; {@code null} passes. */
  static void requireModel(Embedder embedder, IndexConfig config) {
    if (embedder != null && !sameModel(embedder, config)) {
      throw new IllegalArgumentException(
          "the embedder runs "
              + embedder.model().id()
              + " but the index configuration asks for "
              + config.model().id());
    }
  }

  private static boolean sameModel(Embedder embedder, IndexConfig config) {
    return embedder.model().id().equals(config.model().id())
        && embedder.model().dimension() == config.model().dimension();
  }

  /** The metadata of the last commit, checked against the configuration; null for no index. */
  static IndexMetadata readMetadata(Directory directory, IndexConfig config) throws IOException {
    if (!DirectoryReader.indexExists(directory)) {
      return null;
    }
    var userData = SegmentInfos.readLatestCommit(directory).getUserData();
    IndexMetadata metadata = IndexMetadata.fromUserData(userData, config.directory().toString());
    MetadataCheck.verify(metadata, config);
    return metadata;
  }

  /**
   * The writer's RAM buffer in MB: a flush trigger, not an allocation (a small sync never fills
   * it). Lucene's default of 16 MB flushes a bulk write of vectors that need no model (reused or
   * imported ones, the synthetic corpora of the scale benchmark) every few thousand chunks, and
   * each small segment's HNSW graph is then rebuilt again and again as merges combine them; 128 MB
   * makes a few large segments instead (a 100k synthetic build on the 2-core VM: 262 -> 446
   * chunks/s). A sync embedding with the model commits, and so flushes, every {@code
   * commitInterval} long before either size fills. An eighth of the heap at most, so a small {@code
   * -Xmx} keeps its room.
   */
  static final double RAM_BUFFER_MB =
      Math.max(16, Math.min(128, Runtime.getRuntime().maxMemory() / 8 / (1024 * 1024)));

  /** The index's one writer, with the vector codec of {@code config}; it never commits on close. */
  static IndexWriter openWriter(Directory directory, IndexConfig config, Analyzer analyzer)
      throws IOException {
    var writerConfig =
        new IndexWriterConfig(analyzer)
            .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
            .setCodec(VectorCodecs.codec(config))
            .setRAMBufferSizeMB(RAM_BUFFER_MB)
            // Only sync commits, at points where every written record is complete.
            .setCommitOnClose(false);
    try {
      return new IndexWriter(directory, writerConfig);
    } catch (LockObtainFailedException e) {
      throw new IndexLockedException(
          "The index at "
              + config.directory()
              + " is open for writing by another process (a running `brain index` or `brain"
              + " serve`?). Wait for it to finish or stop it, then try again.",
          e);
    }
  }
}
