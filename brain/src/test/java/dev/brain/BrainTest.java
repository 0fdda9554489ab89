package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.CorpusRecord;
import dev.brain.research.run.StopReason;
import dev.brain.retrieval.EvidenceRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The front door over records a Java caller hands over directly: no files, a real index. */
class BrainTest {

  @TempDir Path data;

  private static CorpusRecord doc(String id, String title, String text) {
    return CorpusRecord.builder("doc:" + id, CorpusRecord.KIND_ITEM, "doc", text)
        .title(title)
        .tags(List.of("coffee"))
        .createdAt(Instant.parse("2026-01-02T03:04:05Z"))
        .build();
  }

  private static final List<CorpusRecord> RECORDS =
      List.of(
          doc(
              "descale",
              "Descaling the espresso machine",
              "Descale the espresso machine every two months with citric acid. Rinse the boiler"
                  + " twice afterwards so no acid reaches the coffee."),
          doc(
              "grind",
              "Grind size for the hand grinder",
              "For a V60 pour-over set the hand grinder to 24 clicks; finer for espresso."),
          doc(
              "tomatoes",
              "Tomato seedlings",
              "Sow tomato seeds indoors in March and plant them out after the last frost."));

  @Test
  void recordsHandedOverDirectlyAreSearchableAndResearchable() throws IOException {
    try (Brain brain = Brain.open(data)) {
      var report = brain.put(RECORDS);
      assertThat(report.added()).isEqualTo(3);
      assertThat(brain.put(RECORDS).unchanged()).isEqualTo(3);

      var hits = brain.search("how often to descale the espresso machine");
      assertThat(hits.rows()).isNotEmpty();
      assertThat(hits.rows().getFirst().sourceKey()).isEqualTo("doc:descale");
      assertThat(brain.get("doc:grind")).isPresent();
      assertThat(brain.sourceTypes()).contains("doc");

      var pack = brain.pack("How often should I descale the espresso machine?");
      assertThat(pack.evidence()).extracting(EvidenceRow::sourceKey).contains("doc:descale");

      var events = new CopyOnWriteArrayList<String>();
      var run =
          brain.run(
              brain.request("How often should I descale the espresso machine?"),
              event -> events.add(event.stage().wireName()));
      assertThat(run.stopReason()).isEqualTo(StopReason.ENOUGH_EVIDENCE);
      assertThat(run.synthesis().answer()).contains("[doc:descale]");
      assertThat(events).contains("retrieval", "synthesis");
      Path trace = Path.of(run.tracePath());
      assertThat(trace).isDirectory().startsWith(data.toAbsolutePath());
      assertThat(brain.traces().list()).hasSize(1);
      String id = trace.getFileName().toString();
      assertThat(brain.traces().find(id.substring(0, 20))).contains(trace);

      var status = brain.status();
      assertThat(status.records()).isEqualTo(3);
      assertThat(status.embeddingModel()).isEqualTo("bge-small-en-v1.5");
      assertThat(status.chatModel()).isEqualTo("extractive");
      assertThat(status.readOnly()).isFalse();
    }
  }

  @Test
  void readOnlyBrainReadsBesideAWriterAndSeesItsCommitsAfterRefresh() throws IOException {
    try (Brain writer = Brain.open(data)) {
      writer.put(RECORDS.subList(0, 1));
      try (Brain reader = Brain.openReadOnly(BrainConfig.load(data))) {
        assertThat(reader.stats().records()).isEqualTo(1);
        writer.put(RECORDS.subList(1, 3));
        assertThat(reader.refresh()).isTrue();
        assertThat(reader.stats().records()).isEqualTo(3);
        assertThat(reader.status().readOnly()).isTrue();
        assertThatThrownBy(() -> reader.put(RECORDS))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("read-only");
      }
    }
  }

  @Test
  void readOnlyWithoutIndexSaysHowToCreateOne() {
    assertThatThrownBy(() -> Brain.openReadOnly(BrainConfig.load(data)))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining("brain index");
    assertThat(Files.exists(data.resolve("index"))).isFalse();
  }
}
