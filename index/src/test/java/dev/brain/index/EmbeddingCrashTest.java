package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lexical first, crash-safe: a real child JVM is killed with SIGKILL while it embeds (after the
 * records and chunks were committed); the index then holds every record and chunk, a re-run embeds
 * exactly the chunks that still lack a vector, and the result counts as a clean run does.
 */
class EmbeddingCrashTest {

  private static final int NOTES = 160;

  @TempDir Path data;
  @TempDir Path cleanData;
  @TempDir Path vault;

  @Test
  @Timeout(600)
  void aSyncKilledWhileEmbeddingLosesNothingAndEmbedsNoChunkTwice() throws Exception {
    CrashSafetyTest.writeNotes(vault, NOTES);

    // Killed once a commit of the embedding pass (after the lexical one) is on disk.
    List<String> output =
        SyncChild.runAndKill(
            data,
            vault,
            lines ->
                lines.getLast().startsWith("committed ")
                    && lines.stream().anyMatch(l -> l.startsWith("lexical ")));
    assertThat(output).as("child output").contains("lexical " + NOTES);
    assertThat(output).noneMatch(l -> l.startsWith("done"));

    try (Embedder model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15)) {
      var counting = new CountingEmbedder(model);
      long chunks;
      Set<String> embeddedBeforeKill;
      SyncReport rerun;
      IndexStats after;
      try (var index = BrainIndex.open(IndexConfig.defaults(data), counting)) {
        IndexStats killed = index.stats();
        assertThat(killed.records())
            .as("every record was committed before embedding")
            .isEqualTo(NOTES);
        assertThat(IndexInvariants.assertWhole(index)).isEqualTo(NOTES);
        chunks = killed.chunks();
        assertThat(killed.embeddedChunks()).as("killed mid-embedding").isBetween(1L, chunks - 1);
        embeddedBeforeKill = embedHashesWithVectors(index);

        rerun = index.sync(List.of(vault));
        after = index.stats();
      }

      assertThat(rerun.unchanged()).isEqualTo(NOTES);
      assertThat(rerun.added() + rerun.updated() + rerun.deleted()).isZero();
      assertThat(rerun.chunksEmbedded()).isEqualTo(chunks - embeddedBeforeKill.size());
      Set<String> embeddedAgain = new HashSet<>();
      for (String passage : counting.passages()) {
        if (embeddedBeforeKill.contains(CorpusRecord.sha256(passage))) {
          embeddedAgain.add(passage);
        }
      }
      assertThat(embeddedAgain).as("chunks embedded twice").isEmpty();
      assertThat(after.embeddedChunks()).isEqualTo(after.chunks());

      try (var clean = BrainIndex.open(IndexConfig.defaults(cleanData), model)) {
        clean.sync(List.of(vault));
        IndexStats cleanStats = clean.stats();
        assertThat(after.records()).isEqualTo(cleanStats.records());
        assertThat(after.chunks()).isEqualTo(cleanStats.chunks());
        assertThat(after.embeddedChunks()).isEqualTo(cleanStats.embeddedChunks());
      }
    }
  }

  private static Set<String> embedHashesWithVectors(BrainIndex index) throws IOException {
    IndexSearcher searcher = index.acquireSearcher();
    try {
      var query = IndexReads.embeddedChunksQuery();
      var hashes = new HashSet<String>();
      for (ScoreDoc hit : searcher.search(query, Math.max(1, searcher.count(query))).scoreDocs) {
        hashes.add(searcher.storedFields().document(hit.doc).get(IndexFields.EMBED_HASH));
      }
      return hashes;
    } finally {
      index.releaseSearcher(searcher);
    }
  }
}
