package dev.brain.index.importer;

import dev.brain.index.CorpusRecord;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/** Paths of the test fixtures and a shortcut to read one. */
final class Fixtures {

  static final Importers IMPORTERS = Importers.defaults();

  private Fixtures() {}

  /** The folder of the per-format fixtures. */
  static Path formats() {
    try {
      return Path.of(Fixtures.class.getResource("/fixtures/formats").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A per-format fixture file. */
  static Path formats(String name) {
    return formats().resolve(name);
  }

  /** Reads a per-format fixture with the formats folder as root. */
  static ImportResult read(String name) throws ImportException {
    return IMPORTERS.read(formats(name), formats());
  }

  /** Reads a fixture that yields exactly one record. */
  static CorpusRecord readOne(String name) throws ImportException {
    List<CorpusRecord> records = read(name).records();
    if (records.size() != 1) {
      throw new AssertionError(name + " gave " + records.size() + " records");
    }
    return records.get(0);
  }
}
