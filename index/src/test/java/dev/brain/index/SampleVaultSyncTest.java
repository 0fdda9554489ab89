package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample vault of the README's tour, end to end: every format, then an idle re-sync. */
class SampleVaultSyncTest {

  @TempDir Path data;

  @Test
  void indexesTheSampleVaultAndAReSyncEmbedsNothing() throws Exception {
    Path vault = sampleVault();
    try (var model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
        var index = BrainIndex.open(IndexConfig.defaults(data), new CountingEmbedder(model))) {
      SyncReport first = index.sync(List.of(vault));

      assertThat(first.failed()).isEmpty();
      assertThat(first.added()).isGreaterThanOrEqualTo(40);
      assertThat(IndexInvariants.assertWhole(index)).isEqualTo(first.added());
      IndexStats stats = index.stats();
      assertThat(stats.bySourceType())
          .containsKeys("note", "pdf", "web", "feed_entry", "transcript", "bookmark");
      assertThat(stats.byKind()).containsKeys("item", "source");
      assertThat(stats.topTags()).isNotEmpty();
      // The earliest front-matter date of the vault ("created: 2024-01-02") bounds the span.
      assertThat(stats.created()).isNotNull();
      assertThat(stats.created().first()).isBeforeOrEqualTo(Instant.parse("2024-01-02T00:00:00Z"));
      assertThat(stats.created().last()).isAfter(stats.created().first());

      var counting = new CountingEmbedder(model);
      try (var reopened = reopen(index, counting)) {
        SyncReport second = reopened.sync(List.of(vault));

        assertThat(second.unchanged()).isEqualTo(first.added());
        assertThat(second.added() + second.updated() + second.deleted()).isZero();
        assertThat(second.chunksEmbedded()).isZero();
        assertThat(counting.calls()).isZero();
      }
    }
  }

  /** Closes {@code index} and opens its folder again, as a second `brain index` run would. */
  private BrainIndex reopen(BrainIndex index, Embedder embedder) throws Exception {
    index.close();
    return BrainIndex.open(IndexConfig.defaults(data), embedder);
  }

  /** {@code samples/vault} at the repository root, found from the module's working directory. */
  static Path sampleVault() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("samples/vault");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "samples/vault not found above " + Path.of("").toAbsolutePath());
  }
}
