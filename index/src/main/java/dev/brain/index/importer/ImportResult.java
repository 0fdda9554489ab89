package dev.brain.index.importer;

import dev.brain.index.CorpusRecord;
import java.util.List;

/**
 * What one file yielded: its records, plus warnings about parts that were skipped (a bad JSONL
 * line, a bookmark without a URL, a feed entry without a link). A file with warnings still
 * imported; a file that could not be imported at all raises {@link ImportException} instead.
 *
 * @param records the records read from the file, in file order
 * @param warnings one readable line per skipped part, naming the file and the position
 */
public record ImportResult(List<CorpusRecord> records, List<String> warnings) {

  public ImportResult {
    records = List.copyOf(records);
    warnings = List.copyOf(warnings);
  }

  /** A result without warnings. */
  static ImportResult of(List<CorpusRecord> records) {
    return new ImportResult(records, List.of());
  }
}
