package dev.brain.index;

/** Refuses an index that was built with something other than this configuration. */
final class MetadataCheck {
  private MetadataCheck() {}

  static void verify(IndexMetadata stored, IndexConfig config) {
    String dir = config.directory().toString();
    if (stored.schemaVersion() > IndexMetadata.CURRENT_SCHEMA_VERSION) {
      throw new IndexMismatchException(
          "The index at "
              + dir
              + " was written by a newer brain (schema version "
              + stored.schemaVersion()
              + "; this brain reads version "
              + IndexMetadata.CURRENT_SCHEMA_VERSION
              + "). Upgrade brain, or build a separate index with this one: "
              + fix(dir));
    }
    if (stored.schemaVersion() == IndexMetadata.BEFORE_COLLECTIONS) {
      throw new IndexMismatchException(
          "The index at "
              + dir
              + " was built before collections existed: its keys do not name a collection"
              + " (note:PATH instead of note:COLLECTION/PATH), so it cannot be mixed with new"
              + " records. Rebuild it: `brain index --rebuild PATH...` (the folders you indexed"
              + " before; each becomes a collection).");
    }
    if (stored.schemaVersion() < IndexMetadata.CURRENT_SCHEMA_VERSION) {
      throw new IndexMismatchException(
          "The index at "
              + dir
              + " uses an older schema (version "
              + stored.schemaVersion()
              + ") than this brain writes ("
              + IndexMetadata.CURRENT_SCHEMA_VERSION
              + "). Re-index: "
              + fix(dir));
    }
    if (!stored.modelId().equals(config.model().id())
        || stored.dimension() != config.model().dimension()) {
      throw new IndexMismatchException(
          "The index at "
              + dir
              + " was built with embedding model "
              + stored.modelId()
              + " ("
              + stored.dimension()
              + " dimensions), but this run uses "
              + config.model().id()
              + " ("
              + config.model().dimension()
              + " dimensions). Vectors of different models cannot be mixed. Use the model the"
              + " index was built with, or re-embed everything: "
              + fix(dir));
    }
    if (stored.vectorFormat() != config.vectorFormat()) {
      throw new IndexMismatchException(
          "The index at "
              + dir
              + " stores "
              + stored.vectorFormat()
              + " vectors, but this run asks for "
              + config.vectorFormat()
              + ". Use the index's vector format, or rebuild it: "
              + fix(dir));
    }
  }

  private static String fix(String dir) {
    return "re-index into a new data directory with `brain --data NEW_DIR index PATH...`, or"
        + " delete "
        + dir
        + " and run `brain index PATH...` again.";
  }
}
