package dev.brain.index.importer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads files of every supported format into {@link CorpusRecord}s: Markdown vaults, plain text,
 * saved HTML pages, PDF, JSONL (including BEIR {@code corpus.jsonl}), Netscape bookmark exports,
 * RSS/Atom feeds and WebVTT/SRT transcripts. Thread-safe and stateless.
 */
public final class Importers {

  /** The importers for every supported format. */
  public static Importers defaults() {
    throw new UnsupportedOperationException("not built yet");
  }

  /**
   * Lists the files below {@code root} (or {@code root} itself if it is a file) that a sync should
   * consider, in a stable order; hidden files and folders ({@code .obsidian}, {@code .git}, ...)
   * are left out.
   */
  public List<Path> walk(Path root) throws IOException {
    throw new UnsupportedOperationException("not built yet");
  }

  /**
   * Reads one file into records, with warnings for parts of the file that were skipped.
   *
   * @param file the file to read
   * @param root the import root it was found under; note keys and paths are relative to it
   * @throws ImportException if the file is unsupported (skipped) or malformed
   */
  public ImportResult read(Path file, Path root) throws ImportException {
    throw new UnsupportedOperationException("not built yet");
  }
}
