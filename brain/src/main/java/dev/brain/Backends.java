package dev.brain;

import dev.brain.index.BrainIndex;
import dev.brain.retrieval.Backend;
import dev.brain.solr.SolrBackend;
import dev.brain.solr.SolrConfig;
import java.io.IOException;

/** Opens the backend {@code index.backend} names: the embedded Lucene index or SolrCloud. */
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
