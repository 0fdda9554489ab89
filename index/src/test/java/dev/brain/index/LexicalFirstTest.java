package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sync commits records and BM25-searchable chunks before it embeds anything. */
class LexicalFirstTest {

  @TempDir Path data;
  @TempDir Path vault;

  @Test
  void recordsAndChunksAreCommittedAndSearchableBeforeEmbedding() throws IOException {
    CrashSafetyTest.writeNotes(vault, 20);
    var atLexical = new AtomicReference<IndexStats>();
    var found = new AtomicReference<Integer>();
    try (Embedder model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
        var index = BrainIndex.open(IndexConfig.defaults(data), model)) {
      var listener =
          new SyncListener() {
            @Override
            public void lexicalCommitted(int recordsWritten) {
              // A reader that follows commits (as `brain serve` does) sees everything, unembedded.
              try (var reader = BrainIndex.openReadOnly(IndexConfig.defaults(data), model)) {
                atLexical.set(reader.stats());
                IndexSearcher searcher = reader.acquireSearcher();
                try {
                  found.set(searcher.count(new TermQuery(new Term(IndexFields.TEXT, "astronomi"))));
                } finally {
                  reader.releaseSearcher(searcher);
                }
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }
          };

      SyncReport report = index.sync(List.of(vault), listener);

      assertThat(atLexical.get().records()).isEqualTo(20);
      assertThat(atLexical.get().chunks()).isEqualTo(20);
      assertThat(atLexical.get().embeddedChunks()).isZero();
      assertThat(atLexical.get().vectorCoverage()).isZero();
      assertThat(found.get()).as("BM25 matches before embedding").isEqualTo(4);
      assertThat(report.chunksEmbedded()).isEqualTo(20);
      assertThat(index.stats().vectorCoverage()).isEqualTo(1.0);
    }
  }
}
