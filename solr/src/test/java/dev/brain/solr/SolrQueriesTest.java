package dev.brain.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.retrieval.DateRange;
import dev.brain.retrieval.SearchFilters;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SolrQueriesTest {

  @Test
  void queryWordsKeepNoQuerySyntax() {
    assertThat(SolrQueries.words("  C++ -O2 \"fast\" title:x (a OR b) AND  "))
        .isEqualTo("C\\+\\+ \\-O2 \\\"fast\\\" title\\:x \\(a \"OR\" b\\) \"AND\"");
    assertThat(SolrQueries.words("   ")).isEmpty();
  }

  @Test
  void filtersBecomeOneFilterQueryPerRestriction() {
    var filters =
        SearchFilters.NONE
            .withKinds(List.of("item"))
            .withSourceTypes(List.of("note", "pdf"))
            .withTags(List.of("home espresso"))
            .withDateRange(
                new DateRange(DateRange.DateField.CREATED_AT, Instant.ofEpochMilli(1000), null));

    assertThat(SolrQueries.filters(filters))
        .containsExactly(
            "kind:(item)",
            "source_type:(note OR pdf)",
            "tags:home\\-espresso",
            "created_at:[1000 TO *]",
            "-role:brain_written");
    assertThat(SolrQueries.filters(SearchFilters.NONE)).containsExactly("-role:brain_written");
    assertThat(SolrQueries.filters(SearchFilters.NONE.withBrainWritten(true))).isEmpty();
  }

  @Test
  void aConfigurationNeedsWhereTheClusterIs() {
    assertThatThrownBy(() -> new SolrConfig(List.of(), List.of(), "brain", 2, 2))
        .hasMessageContaining("index.solr.url");
    assertThat(SolrConfig.ofUrls(List.of("http://127.0.0.1:8983/solr"), " ", 1, 1).collection())
        .isEqualTo("brain");
  }
}
