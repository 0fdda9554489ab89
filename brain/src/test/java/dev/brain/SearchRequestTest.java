package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.json.Json;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.SearchOptions;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one search request every surface reads (MCP arguments, HTTP parameters, CLI flags): its JSON
 * and parameter names, its limits and the field each error names.
 */
class SearchRequestTest {
  private static final ObjectMapper JSON =
      Json.newMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private static SearchRequest read(Map<String, Object> json) {
    return JSON.convertValue(json, SearchRequest.class);
  }

  @Test
  void itIsReadFromSnakeCaseJsonAndAppliesItsFieldsOverTheConfiguredDefaults() {
    SearchRequest r =
        read(Map.of(
                "query",
                "espresso",
                "source_types",
                List.of("note,pdf"),
                "kinds",
                List.of("item"),
                "semantic",
                false,
                "since",
                "2024-01-01"))
            .validate();
    var configured = SearchOptions.builder().limit(3).fusion(FusionMode.NORMALIZED).build();

    SearchOptions options = r.options(configured);

    assertThat(options.limit()).isEqualTo(3); // not sent: the configured value stands
    assertThat(options.fusion()).isEqualTo(FusionMode.NORMALIZED);
    assertThat(options.lanes()).containsExactlyInAnyOrder(Lane.BM25, Lane.EXACT_TAG);
    assertThat(options.filters().sourceTypes()).containsExactly("note", "pdf");
    assertThat(options.filters().kinds()).containsExactly("item");
    assertThat(options.filters().dateRanges()).hasSize(1);
    var written = new java.util.ArrayList<String>();
    JSON.valueToTree(r).fieldNames().forEachRemaining(written::add);
    assertThat(written).containsExactlyElementsOf(SearchRequest.FIELDS);
  }

  @Test
  void queryParametersFillTheSameFieldsUnderTheirSingularNames() {
    Map<String, List<String>> params =
        Map.of(
            "q", List.of("grind size"),
            "tag", List.of("coffee", "gear"),
            "source_type", List.of("note"),
            "limit", List.of("4"),
            "semantic", List.of("FALSE"));
    SearchRequest r = SearchRequest.fromParams(n -> params.getOrDefault(n, List.of()));

    assertThat(r)
        .isEqualTo(
            new SearchRequest(
                "grind size",
                null,
                false,
                4,
                null,
                null,
                List.of("note"),
                List.of("coffee", "gear"),
                null,
                null));
    assertThat(SearchRequest.PARAMS.values())
        .containsExactlyInAnyOrderElementsOf(SearchRequest.FIELDS);
    assertThatThrownBy(
            () -> SearchRequest.fromParams(n -> n.equals("limit") ? List.of("ten") : List.of()))
        .isInstanceOf(InvalidSearchException.class)
        .hasMessageContaining("invalid limit: must be a whole number, got 'ten'");
  }

  @Test
  void eachBadRequestNamesItsField() {
    assertField(SearchRequest.of("  "), "query");
    assertField(SearchRequest.of("w".repeat(SearchRequest.MAX_QUERY_CHARS + 1)), "query");
    assertField(request("lanes", List.of("bm25,magic")), "lanes");
    assertField(request("lanes", List.of("")), "lanes");
    assertField(request("lanes", List.of("vector"), "semantic", false), "lanes");
    assertField(request("limit", 0), "limit");
    assertField(request("limit", SearchRequest.MAX_LIMIT + 1), "limit");
    assertField(request("fusion", "max"), "fusion");
    assertField(request("kinds", List.of("thing")), "kinds");
    assertField(
        request("tags", Collections.nCopies(SearchRequest.MAX_LIST_ENTRIES + 1, "t")), "tags");
    assertField(
        request("source_types", List.of("n".repeat(SearchRequest.MAX_NAME_CHARS + 1))),
        "source_types");
    assertField(request("since", "yesterday"), "since");
    assertField(request("until", "2024-13-01"), "until");
    assertField(request("since", "2024-02-01", "until", "2024-01-01"), "date_range");
  }

  @Test
  void aToolCallReadsAtMostAHundredRows() {
    SearchRequest many = request("limit", SearchRequest.MAX_TOOL_LIMIT + 1);
    assertThat(many.validate()).isSameAs(many);
    assertThatThrownBy(many::validateForTool)
        .isInstanceOf(InvalidSearchException.class)
        .hasMessage("invalid limit: must be between 1 and 100, got 101");
  }

  @Test
  void theVectorLaneMayRunUnlessSwitchedOffOrLeftOut() {
    assertThat(SearchRequest.of("x").mayUseVector()).isTrue();
    assertThat(request("semantic", false).mayUseVector()).isFalse();
    assertThat(request("lanes", List.of("bm25,exact_tag")).mayUseVector()).isFalse();
    assertThat(request("lanes", List.of("bm25", "vector")).mayUseVector()).isTrue();
  }

  private static SearchRequest request(Object... fieldsAndValues) {
    var json = new java.util.HashMap<String, Object>();
    json.put("query", "espresso");
    for (int i = 0; i < fieldsAndValues.length; i += 2) {
      json.put((String) fieldsAndValues[i], fieldsAndValues[i + 1]);
    }
    return read(json);
  }

  private static void assertField(SearchRequest request, String field) {
    assertThatThrownBy(request::validate)
        .as(request.toString())
        .isInstanceOfSatisfying(
            InvalidSearchException.class, e -> assertThat(e.field()).isEqualTo(field));
  }
}
