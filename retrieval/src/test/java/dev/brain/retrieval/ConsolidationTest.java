package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.CorpusRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsolidationTest {

  private static final String TEXT =
      "a".repeat(100) + "\n\n" + "b".repeat(100) + "  " + "c".repeat(300);

  private static CorpusRecord record() {
    return CorpusRecord.builder("note:x.md", "item", "note", TEXT)
        .title("X")
        .path("x.md")
        .summary("summary text")
        .build();
  }

  private static StoredChunk chunk(int ordinal, String role, int start, int end) {
    return new StoredChunk(
        ordinal, "note:x.md#" + ordinal, "note:x.md", ordinal, role, List.of("H"), start, end, "t");
  }

  @Test
  void overlappingConsecutiveChunksMergeIntoOneSpan() {
    var chunks = List.of(chunk(3, "raw", 250, 400), chunk(2, "raw", 150, 260));

    assertThat(ChunkSpans.spans(chunks, record()))
        .containsExactly(new ChunkRef.Span(2, 3, 150, 400));
  }

  @Test
  void chunksSeparatedOnlyByWhitespaceMerge() {
    var chunks = List.of(chunk(0, "raw", 0, 100), chunk(1, "raw", 102, 202));

    assertThat(ChunkSpans.spans(chunks, record())).containsExactly(new ChunkRef.Span(0, 1, 0, 202));
  }

  @Test
  void distantOrNonConsecutiveChunksStaySeparate() {
    var chunks =
        List.of(chunk(0, "raw", 0, 100), chunk(2, "raw", 204, 300), chunk(4, "raw", 400, 500));

    assertThat(ChunkSpans.spans(chunks, record()))
        .containsExactly(
            new ChunkRef.Span(0, 0, 0, 100),
            new ChunkRef.Span(2, 2, 204, 300),
            new ChunkRef.Span(4, 4, 400, 500));
  }

  @Test
  void summaryChunksNeverMergeWithRawChunks() {
    var chunks = List.of(chunk(1, "raw", 0, 100), chunk(2, "summary", 0, 12));

    assertThat(ChunkSpans.spans(chunks, record())).hasSize(2);
  }

  @Test
  void chunkRefListsChunksBestFirstAndPointsAtTheBestSpan() {
    var best = chunk(5, "raw", 300, 400);
    var chunks = List.of(best, chunk(0, "raw", 0, 100), chunk(4, "raw", 204, 310));

    ChunkRef ref = ChunkSpans.chunkRef(chunks, record());

    assertThat(ref.chunkIds()).containsExactly("note:x.md#5", "note:x.md#0", "note:x.md#4");
    assertThat(ref.ordinals()).containsExactly(5, 0, 4);
    assertThat(ref.role()).isEqualTo("raw");
    assertThat(ref.headingPath()).containsExactly("H");
    assertThat(ref.startChar()).isEqualTo(204);
    assertThat(ref.endChar()).isEqualTo(400);
    assertThat(ref.spans())
        .containsExactly(new ChunkRef.Span(0, 0, 0, 100), new ChunkRef.Span(4, 5, 204, 400));
  }

  @Test
  void phraseMatchNeedsTheTermsContiguousAndInOrder() {
    assertThat(Rows.containsPhrase(List.of("mark", "carnei", "spoke"), List.of("mark", "carnei")))
        .isTrue();
    assertThat(Rows.containsPhrase(List.of("carnei", "mark"), List.of("mark", "carnei"))).isFalse();
    assertThat(Rows.containsPhrase(List.of("mark"), List.of("mark"))).isFalse();
  }
}
