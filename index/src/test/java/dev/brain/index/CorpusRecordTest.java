package dev.brain.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CorpusRecordTest {

  @Test
  void theBuilderLeavesUnsetFieldsAbsentAndTheHashAsRecordsWithoutDatesWereIndexedWith() {
    var record =
        CorpusRecord.builder("note:a.md", CorpusRecord.KIND_ITEM, "note", "Text.")
            .title("A")
            .path("a.md")
            .tags(List.of("x", "y"))
            .createdAt(Instant.parse("2026-01-02T03:04:05Z"))
            .links(List.of("note:b.md"))
            .origin("/v/a.md")
            .build();

    assertThat(record.url()).isNull();
    assertThat(record.aliases()).isEmpty();
    assertThat(record.updatedAt()).isNull();
    assertThat(record.dateSource()).isNull();
    // sha-256 of the fields joined as before updatedAt and dateSource existed: a changed hash would
    // re-index every such record on the next sync
    assertThat(record.contentHash())
        .isEqualTo("03c24790950fa22985f375d96db11886ef3e2641ab0451bdc88d61b901740cba");
  }

  @Test
  void theBuilderSetsEveryFieldTheCanonicalConstructorTakes() {
    var created = Instant.ofEpochMilli(1_000);
    var published = Instant.ofEpochMilli(2_000);
    var updated = Instant.ofEpochMilli(3_000);
    var built =
        CorpusRecord.builder("doc:1", CorpusRecord.KIND_SOURCE, "web", "text")
            .title("t")
            .url("https://example.org/")
            .path("p.md")
            .author("a")
            .tags(List.of("tag"))
            .createdAt(created)
            .publishedAt(published)
            .summary("s")
            .links(List.of("src:x"))
            .origin("/o")
            .aliases(List.of("alias"))
            .updatedAt(updated)
            .dateSource(CorpusRecord.DATE_FILE_TIME)
            .build();

    assertThat(built)
        .isEqualTo(
            new CorpusRecord(
                "doc:1",
                CorpusRecord.KIND_SOURCE,
                "web",
                "t",
                "https://example.org/",
                "p.md",
                "a",
                List.of("tag"),
                created,
                published,
                "text",
                "s",
                List.of("src:x"),
                "/o",
                List.of("alias"),
                updated,
                CorpusRecord.DATE_FILE_TIME));
  }

  @Test
  void withSummaryAndWithOriginChangeOnlyTheirFieldAndKeepTheDates() {
    var record =
        CorpusRecord.builder("note:a.md", CorpusRecord.KIND_ITEM, "note", "Text.")
            .title("A")
            .aliases(List.of("Alias"))
            .updatedAt(Instant.ofEpochMilli(3_000))
            .dateSource(CorpusRecord.DATE_FRONT_MATTER_DATE)
            .origin("/v/a.md")
            .build();

    var changed = record.withSummary("S").withOrigin("/w/a.md");

    assertThat(changed.summary()).isEqualTo("S");
    assertThat(changed.origin()).isEqualTo("/w/a.md");
    assertThat(changed.withSummary(null).withOrigin("/v/a.md")).isEqualTo(record);
  }

  @Test
  void theBuilderRefusesAMissingRequiredField() {
    assertThatThrownBy(() -> CorpusRecord.builder("doc:1", "item", "doc", null).build())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("text");
  }
}
