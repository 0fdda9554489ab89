package dev.brain.index;

import java.io.IOException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.search.IndexSearcher;

/**
 * Not API: the Lucene searcher and analyzer of a {@link BrainIndex}, for the retrieval module (and
 * benchmarks that measure Lucene directly). Kept off {@code BrainIndex} so that the index's own API
 * has no Lucene type; applications search through {@code dev.brain.Brain} or the {@code Retriever}.
 */
public final class IndexInternals {
  private IndexInternals() {}

  /**
   * A near-real-time searcher over {@code index}. Every acquired searcher must be handed back with
   * {@link #releaseSearcher} (in a {@code finally}). Field names are in {@link IndexFields}.
   */
  public static IndexSearcher acquireSearcher(BrainIndex index) throws IOException {
    return index.acquireSearcher();
  }

  /** Releases a searcher from {@link #acquireSearcher}. */
  public static void releaseSearcher(BrainIndex index, IndexSearcher searcher) throws IOException {
    index.releaseSearcher(searcher);
  }

  /**
   * The analyzer of the text fields ({@link IndexFields#TEXT}, {@link IndexFields#HEADING}, {@link
   * IndexFields#TITLE}); queries must be analyzed the same way.
   */
  public static Analyzer analyzer(BrainIndex index) {
    return index.analyzer();
  }

  /**
   * An analyzer giving the same tokens as {@code analyzer} that is quicker at analyzing the same
   * words again: for the text analyzer of the index, one that filters each distinct word once and
   * remembers its term; any other analyzer is returned as it is. For analyzing stored text in
   * memory (search rows), not for indexing.
   */
  public static Analyzer forRereading(Analyzer analyzer) {
    return analyzer instanceof TextAnalyzer text ? text.wordCached() : analyzer;
  }

  /**
   * The record a stored record document holds (one read whole from a searcher's stored fields): the
   * same decoding as {@link BrainIndex#get}, so every reader of the index sees one record.
   */
  public static CorpusRecord record(Document recordDocument) {
    return Documents.toRecord(recordDocument);
  }
}
