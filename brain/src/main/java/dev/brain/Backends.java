package dev.brain;

import dev.brain.index.BrainIndex;
import dev.brain.retrieval.Backend;
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
    };
  }

  /** Deletes what the configured backend holds, for a rebuild. */
  static void delete(BrainConfig config) throws IOException {
    switch (config.index().backend()) {
      case EMBEDDED -> BrainIndex.deleteIndex(config.indexConfig());
    }
  }
}
