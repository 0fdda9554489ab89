package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.Chunk;
import dev.brain.chunking.ChunkRole;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.FakeHttpServer;
import dev.brain.models.chat.FakeOpenAiServer;
import dev.brain.models.chat.FakeResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With a summary model ({@code index.summary-model}) a sync, after making a long note searchable
 * and embedding it, asks the model for its summary and indexes that in place of the extractive one;
 * the summary is versioned by model, prompt and input, so an unchanged note is never summarized
 * again; a failed call leaves the extractive summary, is recorded with its reason, and is tried
 * again by a later sync once its back-off has passed.
 */
class ModelSummariesTest {

  private static final String ISLAND = "note:vault/island.md";
  private static final String MODEL_TEXT =
      "A travel note about a small island: the dawn ferry, bicycle rental and the lighthouse.";

  @TempDir Path data;
  @TempDir Path tmp;

  private static Embedder model;
  private FakeOpenAiServer openAi;
  private Path vault;

  @BeforeAll
  static void loadModel() {
    model = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15);
  }

  @AfterAll
  static void closeModel() {
    model.close();
  }

  @BeforeEach
  void startServer() throws IOException {
    openAi = FakeOpenAiServer.start();
    vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("island.md"),
        ExtractiveSummariesTest.longNote(
            "Island",
            "The ferry left at dawn.",
            "Bicycles are rented by the pier.",
            "The lighthouse is closed on Mondays."));
    Files.writeString(vault.resolve("short.md"), "# Short\n\nOne line.\n\nAnother line.\n");
  }

  @AfterEach
  void stopServer() {
    openAi.close();
  }

  private IndexConfig config(String spec, Duration backoff) {
    return IndexConfig.defaults(data)
        .withSummaryModel(SummaryModel.of(spec, openAi.config()).withRetryBackoff(backoff));
  }

  private static FakeResponse answer(String text) {
    return FakeOpenAiServer.answer(
        "fake", List.of(text.substring(0, 10), text.substring(10)), 9, 9);
  }

  @Test
  void aLongNoteGetsTheModelsSummaryWithItsVersionAndItsSummaryChunksEmbedded() throws IOException {
    openAi.enqueue(answer(MODEL_TEXT));
    try (var index = BrainIndex.open(config("openai/fake", Duration.ZERO), model)) {
      SyncReport report = index.sync(List.of(vault));

      assertThat(report.modelSummaries()).isEqualTo(1);
      assertThat(openAi.requests()).hasSize(1); // the short note needs no summary
      assertThat(openAi.lastRequest().body()).contains("The ferry left at dawn.");
      RecordDetail island = index.get(ISLAND).orElseThrow();
      assertThat(island.record().summary()).isEqualTo(MODEL_TEXT);
      assertThat(summaryChunks(island)).extracting(Chunk::text).containsExactly(MODEL_TEXT);
      Document stored = recordDocument(index, ISLAND);
      assertThat(stored.get(IndexFields.SUMMARY_SOURCE)).isEqualTo("model");
      assertThat(stored.get(IndexFields.SUMMARY_VERSION))
          .matches("openai/fake\\|" + SummaryModel.PROMPT_VERSION + "\\|[0-9a-f]{16}");
      IndexStats stats = index.stats();
      assertThat(stats.modelSummarizedRecords()).isEqualTo(1);
      assertThat(stats.modelSummaryCandidates()).isEqualTo(1);
      assertThat(stats.modelSummaryCoverage()).isEqualTo(1.0);
      assertThat(stats.embeddedChunks()).isEqualTo(stats.chunks());
    }
  }

  @Test
  void anUnchangedNoteIsNotSummarizedAgainButAChangedNoteOrAnotherModelIs() throws IOException {
    openAi.enqueue(answer(MODEL_TEXT), answer("The island note, second version, at noon."));
    try (var index = BrainIndex.open(config("openai/fake", Duration.ZERO), model)) {
      index.sync(List.of(vault));
      SyncReport again = index.sync(List.of(vault));
      assertThat(again.unchanged()).isEqualTo(2);
      assertThat(openAi.requests()).hasSize(1);
      assertThat(index.get(ISLAND).orElseThrow().record().summary()).isEqualTo(MODEL_TEXT);

      Path island = vault.resolve("island.md");
      Files.writeString(
          island,
          Files.readString(island).replace("The ferry left at dawn.", "The ferry left at noon."));
      index.sync(List.of(vault));
      assertThat(openAi.requests()).hasSize(2);
      assertThat(openAi.lastRequest().body()).contains("The ferry left at noon.");
      assertThat(index.get(ISLAND).orElseThrow().record().summary())
          .isEqualTo("The island note, second version, at noon.");
    }
    openAi.enqueue(answer("Written by another model."));
    try (var index = BrainIndex.open(config("openai/other", Duration.ZERO), model)) {
      index.sync(List.of(vault));
      assertThat(openAi.requests()).hasSize(3);
      assertThat(index.get(ISLAND).orElseThrow().record().summary())
          .isEqualTo("Written by another model.");
      assertThat(recordDocument(index, ISLAND).get(IndexFields.SUMMARY_VERSION))
          .startsWith("openai/other|");
    }
  }

  @Test
  void aNoteChunkedAgainWithTheSameTextKeepsItsModelSummaryWithoutAskingAgain() throws IOException {
    openAi.enqueue(answer(MODEL_TEXT));
    try (var index = BrainIndex.open(config("openai/fake", Duration.ZERO), model)) {
      index.sync(List.of(vault));
    }
    String version;
    try (var index = BrainIndex.open(config("openai/fake", Duration.ZERO), model)) {
      version = recordDocument(index, ISLAND).get(IndexFields.SUMMARY_VERSION);
    }
    var rechunked = config("openai/fake", Duration.ZERO).withChunking(128, 16);
    try (var index = BrainIndex.open(rechunked, model)) {
      SyncReport report = index.sync(List.of(vault));
      assertThat(report.updated()).isEqualTo(2); // a new chunk budget chunks every record again
      assertThat(openAi.requests()).hasSize(1);
      RecordDetail island = index.get(ISLAND).orElseThrow();
      assertThat(island.record().summary()).isEqualTo(MODEL_TEXT);
      assertThat(summaryChunks(island)).extracting(Chunk::text).containsExactly(MODEL_TEXT);
      Document stored = recordDocument(index, ISLAND);
      assertThat(stored.get(IndexFields.SUMMARY_SOURCE)).isEqualTo("model");
      assertThat(stored.get(IndexFields.SUMMARY_VERSION)).isEqualTo(version);
    }
  }

  @Test
  void aFailingModelLeavesTheExtractiveSummaryRecordsWhyAndIsRetriedOnceItRecovers()
      throws IOException {
    try (var index = BrainIndex.open(config("openai/fake", Duration.ZERO), model)) {
      // Nothing scripted: the fake server answers HTTP 500.
      index.sync(List.of(vault));
      RecordDetail island = index.get(ISLAND).orElseThrow();
      assertThat(island.record().summary()).startsWith("This note is about island.");
      assertThat(summaryChunks(island)).isNotEmpty();
      IndexStats stats = index.stats();
      assertThat(stats.modelSummarizedRecords()).isZero();
      assertThat(stats.modelSummaryFailed()).isEqualTo(1);
      IndexStats.SummaryFailure failure = stats.modelSummaryFailures().getFirst();
      assertThat(failure.key()).isEqualTo(ISLAND);
      assertThat(failure.reason()).contains("HTTP 500");
      assertThat(failure.attempts()).isEqualTo(1);

      // Garbage instead of an event stream: still the extractive summary, a second failure.
      openAi.enqueue(FakeResponse.json(200, "<html>not a chat answer</html>"));
      index.sync(List.of(vault));
      assertThat(index.get(ISLAND).orElseThrow().record().summary())
          .startsWith("This note is about island.");
      assertThat(index.stats().modelSummaryFailures().getFirst().attempts()).isEqualTo(2);

      // The model recovers: the next sync fills it and clears the failure.
      openAi.enqueue(answer(MODEL_TEXT));
      index.sync(List.of(vault));
      assertThat(openAi.requests()).hasSize(3);
      assertThat(index.get(ISLAND).orElseThrow().record().summary()).isEqualTo(MODEL_TEXT);
      assertThat(index.stats().modelSummaryFailed()).isZero();
      assertThat(index.stats().modelSummarizedRecords()).isEqualTo(1);
      assertThat(recordDocument(index, ISLAND).get(IndexFields.SUMMARY_FAILURE)).isNull();
    }
  }

  @Test
  void aFailedNoteIsNotTriedAgainBeforeItsBackoffHasPassed() throws IOException {
    try (var index = BrainIndex.open(config("openai/fake", Duration.ofHours(1)), model)) {
      index.sync(List.of(vault)); // HTTP 500
      openAi.enqueue(answer(MODEL_TEXT));
      index.sync(List.of(vault));
      assertThat(openAi.requests()).hasSize(1);
      assertThat(index.stats().modelSummaryFailed()).isEqualTo(1);
      assertThat(index.stats().modelSummaryFailures().getFirst().retryAt())
          .isAfter(java.time.Instant.now().plus(Duration.ofMinutes(30)));
    }
  }

  @Test
  void aModelServerThatStopsAnsweringEndsThePassAtItsFirstTimeout() throws IOException {
    writeHarbourNote();
    // The server accepts the request, starts a stream and never finishes it.
    openAi.enqueue(FakeOpenAiServer.stream().write(FakeOpenAiServer.roleChunk("fake")).thenHang());
    var config =
        IndexConfig.defaults(data)
            .withSummaryModel(
                new SummaryModel(
                    "openai/fake", openAi.config(), Duration.ofSeconds(1), Duration.ZERO));
    try (var index = BrainIndex.open(config, model)) {
      SyncReport report = index.sync(List.of(vault));
      assertThat(openAi.requests()).hasSize(1);
      assertThat(report.modelSummaryFailures()).isEqualTo(1);
      assertThat(report.modelSummaries()).isZero();
      IndexStats stats = index.stats();
      assertThat(stats.modelSummaryCandidates()).isEqualTo(2);
      assertThat(stats.modelSummaryFailed()).isEqualTo(1);
    }
  }

  @Test
  void anUnreachableModelServerEndsThePassAtItsFirstFailure() throws IOException {
    writeHarbourNote();
    var servers = ChatConfig.defaults().withOpenAiUrl(FakeHttpServer.refusingUrl());
    var config =
        IndexConfig.defaults(data)
            .withSummaryModel(
                SummaryModel.of("openai/fake", servers).withRetryBackoff(Duration.ZERO));
    var told = new ArrayList<String>();
    var listener =
        new SyncListener() {
          @Override
          public void summariesPlanned(int records) {
            told.add("planned " + records);
          }

          @Override
          public void recordSummarized(String key, boolean made) {
            told.add(key + (made ? " made" : " failed"));
          }
        };
    try (var index = BrainIndex.open(config, model)) {
      SyncReport report = index.sync(List.of(vault), listener);
      assertThat(told).hasSize(2).first().isEqualTo("planned 2");
      assertThat(told.get(1)).endsWith(" failed");
      assertThat(report.modelSummaryFailures()).isEqualTo(1);
      assertThat(report.modelSummaries()).isZero();
      IndexStats stats = index.stats();
      assertThat(stats.modelSummaryCandidates()).isEqualTo(2);
      assertThat(stats.modelSummaryFailed()).isEqualTo(1);
      assertThat(stats.modelSummaryFailures().getFirst().reason()).isNotBlank();
      assertThat(index.get(ISLAND).orElseThrow().record().summary())
          .startsWith("This note is about island.");
      assertThat(index.get("note:vault/harbour.md").orElseThrow().record().summary())
          .startsWith("This note is about harbour.");
    }
  }

  @Test
  void backoffDoublesWithEachFailureUpToADay() {
    var m = SummaryModel.of("openai/fake", openAi.config());
    assertThat(m.retryAfter(1)).isEqualTo(Duration.ofMinutes(1));
    assertThat(m.retryAfter(2)).isEqualTo(Duration.ofMinutes(2));
    assertThat(m.retryAfter(4)).isEqualTo(Duration.ofMinutes(8));
    assertThat(m.retryAfter(40)).isEqualTo(SummaryModel.MAX_BACKOFF);
  }

  private static List<Chunk> summaryChunks(RecordDetail detail) {
    return detail.chunks().stream().filter(c -> c.role() == ChunkRole.SUMMARY).toList();
  }

  private static Document recordDocument(BrainIndex index, String key) throws IOException {
    IndexSearcher searcher = index.acquireSearcher();
    try {
      TopDocs hits = searcher.search(new TermQuery(new Term(IndexFields.KEY, key)), 1);
      return searcher.storedFields().document(hits.scoreDocs[0].doc);
    } finally {
      index.releaseSearcher(searcher);
    }
  }

  /** A second long note beside the one every test writes, for the tests of a pass cut short. */
  private void writeHarbourNote() throws IOException {
    Files.writeString(
        vault.resolve("harbour.md"),
        ExtractiveSummariesTest.longNote(
            "Harbour",
            "Old boats lie on the slipway.",
            "Gulls nest on the roofs.",
            "Tea is sold."));
  }
}
