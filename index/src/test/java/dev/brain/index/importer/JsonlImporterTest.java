package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.index.CorpusRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonlImporterTest {

  private static final Path SCIFACT = Path.of("/work/shared/datasets/scifact/corpus.jsonl");

  @Test
  void readsBeirAndGenericLinesAndReportsTheBadOnes() throws Exception {
    ImportResult result = Fixtures.read("docs.jsonl");

    assertThat(result.records())
        .extracting(CorpusRecord::key)
        .containsExactly(
            "doc:4983",
            "doc:5836",
            "doc:recipe-1",
            "doc:" + Keys.hash12("https://example.com/only-url"));
    assertThat(result.warnings())
        .hasSize(4)
        .satisfiesExactly(
            w -> assertThat(w).startsWith("docs.jsonl:6: not valid JSON"),
            w -> assertThat(w).startsWith("docs.jsonl:7: skipped: no \"_id\""),
            w -> assertThat(w).startsWith("docs.jsonl:8: skipped: a line must be a JSON object"),
            w -> assertThat(w).contains("docs.jsonl:9:", "doc:4983", "already used"));
  }

  @Test
  void aBeirLineBecomesADocSource() throws Exception {
    CorpusRecord doc = Fixtures.read("docs.jsonl").records().get(0);

    assertThat(doc.kind()).isEqualTo(CorpusRecord.KIND_SOURCE);
    assertThat(doc.sourceType()).isEqualTo("doc");
    assertThat(doc.title())
        .isEqualTo("Microstructural development of human newborn cerebral white matter");
    assertThat(doc.text()).startsWith("Alterations of the architecture");
    assertThat(doc.createdAt()).as("not the file's mtime").isNull();
    assertThat(Fixtures.read("docs.jsonl").records().get(1).title()).isNull();
  }

  @Test
  void aGenericLineKeepsUrlTagsAndDate() throws Exception {
    CorpusRecord doc = Fixtures.read("docs.jsonl").records().get(2);

    assertThat(doc.url()).isEqualTo("https://example.com/cold-brew");
    assertThat(doc.tags()).containsExactly("coffee", "cold-brew");
    assertThat(doc.createdAt()).isEqualTo(Instant.parse("2024-01-02T00:00:00Z"));
  }

  @Test
  void aFileWithoutASingleRecordIsMalformed() {
    assertThatThrownBy(() -> Fixtures.read("broken.jsonl"))
        .isInstanceOfSatisfying(ImportException.class, e -> assertThat(e.skipped()).isFalse())
        .hasMessageContaining("no line of")
        .hasMessageContaining("broken.jsonl:1: not valid JSON");
  }

  @Test
  void theSciFactCorpusYieldsAllItsDocumentsQuickly() throws Exception {
    assumeTrue(Files.isRegularFile(SCIFACT), "SciFact corpus not present at " + SCIFACT);

    long start = System.nanoTime();
    ImportResult result = Importers.defaults().read(SCIFACT, SCIFACT.getParent());
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    List<CorpusRecord> records = result.records();
    assertThat(records).hasSize(5183);
    assertThat(records).allSatisfy(r -> assertThat(r.key()).startsWith("doc:"));
    assertThat(result.warnings()).isEmpty();
    assertThat(took).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void anIdOrTextOfTheWrongTypeIsAReportedBadLineNotARecord(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path root) throws Exception {
    java.nio.file.Path file =
        java.nio.file.Files.writeString(
            root.resolve("typed.jsonl"),
            String.join(
                "\n",
                "{\"_id\": \"ok\", \"text\": \"fine\"}",
                "{\"_id\": {\"a\": 1}, \"text\": \"object id\"}",
                "{\"_id\": \"t1\", \"text\": [\"list\"], \"title\": \"has title\"}",
                "{\"_id\": \"t2\", \"text\": true}",
                "{\"_id\": 7, \"text\": \"numeric ids are fine\"}"));

    ImportResult result = Fixtures.IMPORTERS.read(file, root);

    assertThat(result.records()).extracting(CorpusRecord::key).containsExactly("doc:ok", "doc:7");
    assertThat(result.warnings()).hasSize(3);
    assertThat(result.warnings().get(0)).contains(":2:", "\"_id\" must be a string");
    assertThat(result.warnings().get(1)).contains(":3:", "\"text\" must be a string, got array");
  }

  @Test
  void aLineNestedPastJacksonsLimitIsABadLineSaidInWords(
      @org.junit.jupiter.api.io.TempDir Path root) throws Exception {
    Path file =
        Files.writeString(
            root.resolve("deep.jsonl"),
            "{\"_id\": \"ok\", \"text\": \"fine\"}\n"
                + "{\"a\":".repeat(1500)
                + "1"
                + "}".repeat(1500)
                + "\n");

    ImportResult result = Fixtures.IMPORTERS.read(file, root);

    assertThat(result.records()).extracting(CorpusRecord::key).containsExactly("doc:ok");
    assertThat(result.warnings())
        .singleElement()
        .asString()
        .isEqualTo("deep.jsonl:2: skipped: JSON nested deeper than 1000 levels");
  }

  @Test
  void aLineWithTextAfterItsObjectOrAFieldNamedTwiceIsABadLine(
      @org.junit.jupiter.api.io.TempDir Path root) throws Exception {
    Path file =
        Files.writeString(
            root.resolve("strict.jsonl"),
            String.join(
                "\n",
                "{\"_id\": \"ok\", \"text\": \"fine\"}",
                "{\"_id\": \"g1\", \"text\": \"garbage follows\"} trailing words",
                "{\"_id\": \"g2\", \"text\": \"two objects\"}{\"_id\": \"g3\", \"text\": \"x\"}",
                "{\"_id\": \"d1\", \"_id\": \"d2\", \"text\": \"which id?\"}",
                "{\"_id\": \"ok2\", \"text\": \"fine too\"}   "));

    ImportResult result = Fixtures.IMPORTERS.read(file, root);

    assertThat(result.records()).extracting(CorpusRecord::key).containsExactly("doc:ok", "doc:ok2");
    assertThat(result.warnings())
        .satisfiesExactly(
            w ->
                assertThat(w).contains("strict.jsonl:2:", "text after the JSON value", "column 41"),
            w -> assertThat(w).contains("strict.jsonl:3:", "text after the JSON value"),
            w -> assertThat(w).contains("strict.jsonl:4:", "Duplicate field '_id'"));
  }

  @Test
  void aWholeNumberIdIsTheSameIdAsItsDecimalString(@org.junit.jupiter.api.io.TempDir Path root)
      throws Exception {
    Path file =
        Files.writeString(
            root.resolve("ids.jsonl"),
            String.join(
                "\n",
                "{\"_id\": 5, \"text\": \"number\"}",
                "{\"_id\": \"5\", \"text\": \"string\"}",
                "{\"_id\": 5.5, \"text\": \"fraction\"}"));

    ImportResult result = Fixtures.IMPORTERS.read(file, root);

    assertThat(result.records()).extracting(CorpusRecord::key).containsExactly("doc:5");
    assertThat(result.warnings())
        .satisfiesExactly(
            w -> assertThat(w).contains("ids.jsonl:2:", "key doc:5 was already used above"),
            w -> assertThat(w).contains("ids.jsonl:3:", "must be a string or a whole number"));
  }
}
