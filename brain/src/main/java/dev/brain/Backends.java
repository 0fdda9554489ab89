package dev.brain;

import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexStatus;
import dev.brain.retrieval.Backend;
import dev.brain.solr.SolrBackend;
import dev.brain.solr.SolrConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.Optional;

/**
 * Opens the backend {@code index.backend} names (the embedded Lucene index or SolrCloud), and what
 * {@link Brain} says about one before or without opening it.
 */
final class Backends {
  private Backends() {}

  static boolean isEmbedded(BrainConfig config) {
    return config.index().backend() == IndexSettings.BackendKind.EMBEDDED;
  }

  /** The configured backend, opened for reading and writing. */
  static Backend open(BrainConfig config) throws IOException {
    return switch (config.index().backend()) {
      case EMBEDDED -> Backend.embedded(BrainIndex.open(config.indexConfig()));
      case SOLR -> SolrBackend.open(solr(config), config.indexConfig());
    };
  }

  /**
   * The configured backend, opened for reading only: the embedded index without its write lock (it
   * must exist), a shared backend as it is (it has no write lock).
   */
  static Backend openReadOnly(BrainConfig config) throws IOException {
    if (!isEmbedded(config)) {
      return open(config);
    }
    var indexConfig = config.indexConfig();
    if (!Files.isDirectory(indexConfig.directory())) {
      throw new NoSuchFileException(
          indexConfig.directory().toString(),
          null,
          "no index here; create one with 'brain index PATH' (or pass --data DIR of an existing"
              + " one)");
    }
    return Backend.embedded(BrainIndex.openReadOnly(indexConfig, null));
  }

  /** See {@link Brain#statusBeforeFirstCommit}: only an embedded index can be without a commit. */
  static Optional<IndexStatus> statusBeforeFirstCommit(BrainConfig config) throws IOException {
    if (!isEmbedded(config) || BrainIndex.hasCommit(config.indexConfig())) {
      return Optional.empty();
    }
    return Optional.of(
        IndexStatus.beforeFirstCommit(
            config.indexConfig(), CollectionsFile.of(config.dataDir()).read()));
  }

  private static SolrConfig solr(BrainConfig config) {
    try {
      return config.index().solr().toSolrConfig();
    } catch (IllegalArgumentException e) {
      throw new BrainConfigException(e.getMessage());
    }
  }

  /** Deletes what the configured backend holds, for a rebuild. */
  static void delete(BrainConfig config) throws IOException {
    switch (config.index().backend()) {
      case EMBEDDED -> BrainIndex.deleteIndex(config.indexConfig());
      case SOLR -> {
        try (SolrBackend solr = SolrBackend.open(solr(config), config.indexConfig())) {
          solr.deleteAll();
        }
      }
    }
  }
}
