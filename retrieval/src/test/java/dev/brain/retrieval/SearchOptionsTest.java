package dev.brain.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchOptionsTest {

  @Test
  void defaultsAreDocumented() {
    SearchOptions o = SearchOptions.defaults();

    assertThat(o.lanes()).containsExactly(Lane.BM25, Lane.VECTOR, Lane.EXACT_TAG);
    assertThat(o.limit()).isEqualTo(10);
    assertThat(o.fusion()).isEqualTo(FusionMode.RRF);
    assertThat(o.rrfK()).isEqualTo(60);
    assertThat(o.depth()).isEqualTo(100);
    assertThat(o.maxExcerptChars()).isEqualTo(600);
    assertThat(o.maxChunksPerRecord()).isEqualTo(3);
    assertThat(o.vectorSearch()).isEqualTo(VectorSearch.AUTO);
    assertThat(o.filters().isEmpty()).isTrue();
    assertThat(o.weights()).containsKeys(Lane.BM25, Lane.VECTOR, Lane.EXACT_TAG);
  }

  @Test
  void depthGrowsWithTheLimit() {
    assertThat(SearchOptions.builder().limit(100).build().effectiveDepth()).isEqualTo(300);
    assertThat(SearchOptions.builder().limit(5).build().effectiveDepth()).isEqualTo(100);
  }

  @Test
  void negativeLimitNamesTheField() {
    assertThatThrownBy(() -> SearchOptions.builder().limit(-1).build())
        .isInstanceOfSatisfying(
            InvalidSearchException.class, e -> assertThat(e.field()).isEqualTo("limit"))
        .hasMessageContaining("between 1 and 1000")
        .hasMessageContaining("-1");
  }

  @Test
  void unknownLaneListsTheAllowedLanes() {
    assertThatThrownBy(() -> SearchOptions.builder().lanes("bm25,semantic").build())
        .isInstanceOfSatisfying(
            InvalidSearchException.class,
            e -> {
              assertThat(e.field()).isEqualTo("lanes");
              assertThat(e.allowedValues())
                  .containsExactly("bm25", "vector", "exact_tag", "related");
            })
        .hasMessageContaining("'semantic'");
  }

  @Test
  void laneNamesParseCaseInsensitivelyWithHyphens() {
    assertThat(Lane.parseList("BM25, exact-tag")).containsExactly(Lane.BM25, Lane.EXACT_TAG);
  }

  @Test
  void emptyLaneListIsRejected() {
    assertThatThrownBy(() -> SearchOptions.builder().lanes(List.of()).build())
        .isInstanceOf(InvalidSearchException.class)
        .hasMessageContaining("lanes");
  }

  @Test
  void unknownFusionModeListsTheModes() {
    assertThatThrownBy(() -> FusionMode.parse("borda"))
        .isInstanceOf(InvalidSearchException.class)
        .hasMessageContaining("rrf, normalized");
  }

  @Test
  void negativeWeightIsRejected() {
    assertThatThrownBy(() -> SearchOptions.builder().weight(Lane.VECTOR, -0.5).build())
        .isInstanceOfSatisfying(
            InvalidSearchException.class, e -> assertThat(e.field()).isEqualTo("weights"));
  }

  @Test
  void unknownKindListsTheKinds() {
    assertThatThrownBy(() -> SearchFilters.NONE.withKinds(List.of("person")))
        .isInstanceOfSatisfying(
            InvalidSearchException.class,
            e -> assertThat(e.allowedValues()).containsExactly("item", "source"));
  }

  @Test
  void filterTagsAreNormalizedLikeUserTags() {
    assertThat(SearchFilters.NONE.withTags(List.of("#Home Espresso")).tags())
        .containsExactly("home-espresso");
  }

  @Test
  void dateRangeThatEndsBeforeItStartsIsRejected() {
    assertThatThrownBy(
            () ->
                DateRange.created(
                    Instant.parse("2024-02-01T00:00:00Z"), Instant.parse("2024-01-01T00:00:00Z")))
        .isInstanceOfSatisfying(
            InvalidSearchException.class, e -> assertThat(e.field()).isEqualTo("date_range"));
  }
}
