/**
 * Reads files into records: Markdown vaults, MDX docs, plain text, saved HTML pages, PDF, JSONL,
 * bookmark exports, RSS/Atom feeds and WebVTT/SRT transcripts.
 *
 * <p>API: {@link dev.brain.index.importer.Importers} picks the importer by extension (and, for HTML
 * and XML, by the file's start) and returns an {@link dev.brain.index.importer.ImportResult} or
 * throws an {@link dev.brain.index.importer.ImportException}; {@link dev.brain.index.importer.Keys}
 * makes the stable record keys and {@link dev.brain.index.importer.Tags} the one normalization of
 * user tags, which retrieval and research match against. The importer of each format and the
 * helpers they share (dates, note syntax, excludes, HTML and PDF text) are package-private.
 */
package dev.brain.index.importer;
