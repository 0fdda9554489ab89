/**
 * The brain index: a Lucene index of records and their embedded chunks, kept in step with the
 * user's files by incremental sync.
 *
 * <p>{@link dev.brain.index.BrainIndex} is the entry point (open, sync, stats, get), configured by
 * {@link dev.brain.index.IndexConfig}. Results are records: {@link dev.brain.index.SyncReport},
 * {@link dev.brain.index.IndexStats}, {@link dev.brain.index.RecordDetail}, {@link
 * dev.brain.index.IndexMetadata}. The retrieval module additionally uses {@link
 * dev.brain.index.IndexFields} and the searcher methods of {@code BrainIndex}; no module above
 * retrieval sees Lucene types. Files are read by {@link dev.brain.index.importer.Importers}.
 */
package dev.brain.index;
