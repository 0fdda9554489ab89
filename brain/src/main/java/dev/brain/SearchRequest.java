package dev.brain;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.brain.retrieval.DateRange;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.SearchFilters;
import dev.brain.retrieval.SearchOptions;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A search as every surface receives it: the arguments of the MCP tool {@code brain_search}, read
 * from JSON with snake_case names, the query parameters of {@code GET /api/search} ({@link
 * #fromParams}, names in {@link #PARAMS}) and the flags of {@code brain search}. Its names, limits
 * and errors live here once: {@link #validate()} throws {@link InvalidSearchException} naming the
 * field (an empty query is its {@code query}), which each surface words its own way (HTTP 400/422,
 * an MCP tool error, a usage error naming the flag). {@link Brain#search(SearchRequest)} completes
 * it from {@code brain.yaml} ({@code retrieval.*}). Every field but {@code query} is optional;
 * {@code null} (an empty filter list) means the configured default.
 *
 * @param query the words to search for, at most {@value #MAX_QUERY_CHARS} characters
 * @param lanes the lanes to run ({@code bm25}, {@code vector}, {@code exact_tag}, {@code related});
 *     an entry may be comma-separated; default {@code bm25, vector, exact_tag}
 * @param semantic {@code false} switches the vector lane off; default on
 * @param limit rows to return, 1 to {@value #MAX_LIMIT}; default {@code retrieval.limit} (10)
 * @param fusion {@code rrf} or {@code normalized}; default {@code retrieval.fusion} ({@code rrf})
 * @param kinds only these kinds ({@code item}, {@code source}); entries may be comma-separated
 * @param sourceTypes only these source types; entries may be comma-separated
 * @param tags only records with one of these tags; entries may be comma-separated
 * @param since only records created on or after this day ({@code YYYY-MM-DD})
 * @param until only records created before this day ({@code YYYY-MM-DD})
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record SearchRequest(
    String query,
    List<String> lanes,
    Boolean semantic,
    Integer limit,
    String fusion,
    List<String> kinds,
    List<String> sourceTypes,
    List<String> tags,
    String since,
    String until) {

  /** Longest {@link #query()}: as long as a research question. */
  public static final int MAX_QUERY_CHARS = ResearchRequest.MAX_QUESTION_CHARS;

  /** Largest {@link #limit()}. */
  public static final int MAX_LIMIT = SearchOptions.MAX_LIMIT;

  /**
   * Largest {@link #limit()} of an agent's tool call ({@code brain_search}, see {@link
   * #validateForTool()}): the rows go into a model's context.
   */
  public static final int MAX_TOOL_LIMIT = 100;

  /**
   * Most entries of one list ({@code lanes}, {@code kinds}, {@code source_types}, {@code tags}).
   */
  public static final int MAX_LIST_ENTRIES = 32;

  /** Longest tag or source type name. */
  public static final int MAX_NAME_CHARS = 1_024;

  /** Longest {@code fusion}, {@code since} and {@code until}: a mode name or a day. */
  public static final int MAX_VALUE_CHARS = 64;

  /** The fields of a request, in wire form: the arguments of {@code brain_search}. */
  public static final List<String> FIELDS =
      List.of(
          "query",
          "lanes",
          "semantic",
          "limit",
          "fusion",
          "kinds",
          "source_types",
          "tags",
          "since",
          "until");

  /**
   * The query parameters of {@code GET /api/search}, each with the field it fills: a filter is
   * named in the singular there, since it repeats ({@code ?tag=a&tag=b}), and the query is {@code
   * q}.
   */
  public static final Map<String, String> PARAMS = params();

  private static Map<String, String> params() {
    var params = new LinkedHashMap<String, String>();
    params.put("q", "query");
    params.put("kind", "kinds");
    params.put("source_type", "source_types");
    params.put("tag", "tags");
    for (String field : FIELDS) {
      if (!params.containsValue(field)) {
        params.put(field, field);
      }
    }
    return java.util.Collections.unmodifiableMap(params);
  }

  public SearchRequest {
    lanes = lanes == null ? null : split(lanes);
    kinds = kinds == null ? List.of() : split(kinds);
    sourceTypes = sourceTypes == null ? List.of() : split(sourceTypes);
    tags = tags == null ? List.of() : split(tags);
  }

  /** A request for {@code query} with every option at its default. */
  public static SearchRequest of(String query) {
    return new SearchRequest(query, null, null, null, null, null, null, null, null, null);
  }

  /**
   * The request of query parameters ({@link #PARAMS}): {@code values} gives all values of one
   * parameter (none when absent); a single-valued parameter takes its first.
   *
   * @throws InvalidSearchException naming the parameter when {@code semantic} is not {@code true}
   *     or {@code false} or {@code limit} not a whole number
   */
  public static SearchRequest fromParams(Function<String, List<String>> values) {
    Function<String, String> first = name -> values.apply(name).stream().findFirst().orElse(null);
    String semantic = first.apply("semantic");
    String limit = first.apply("limit");
    String lanes = first.apply("lanes");
    return new SearchRequest(
        first.apply("q"),
        lanes == null ? null : List.of(lanes),
        semantic == null ? null : flag("semantic", semantic),
        limit == null ? null : number("limit", limit),
        first.apply("fusion"),
        values.apply("kind"),
        values.apply("source_type"),
        values.apply("tag"),
        first.apply("since"),
        first.apply("until"));
  }

  /**
   * Checks every field on its own: the query, the names of lanes, kinds and fusion, the limit, the
   * days and the size of each list. Source types are checked against the index by the search.
   *
   * @return this request
   * @throws InvalidSearchException naming the field: {@code query} when it is empty or too long,
   *     else the value that cannot be read or is out of range
   */
  public SearchRequest validate() {
    if (query == null || query.isBlank()) {
      throw InvalidSearchException.empty("query", "the query is empty; give words to search for");
    }
    if (query.length() > MAX_QUERY_CHARS) {
      throw new InvalidSearchException(
          "query",
          "'query' is "
              + query.length()
              + " characters long; at most "
              + MAX_QUERY_CHARS
              + " are accepted");
    }
    checkLimit(MAX_LIMIT);
    checkList("lanes", lanes == null ? List.of() : lanes, MAX_VALUE_CHARS);
    checkList("kinds", kinds, MAX_VALUE_CHARS);
    checkList("source_types", sourceTypes, MAX_NAME_CHARS);
    checkList("tags", tags, MAX_NAME_CHARS);
    if (lanes != null) {
      lanes(EnumSet.noneOf(Lane.class)); // known names, one left; else the configured ones run
    }
    checkShort("fusion", fusion);
    if (fusion != null) {
      FusionMode.parse(fusion);
    }
    SearchFilters.NONE.withKinds(kinds);
    dateRange();
    return this;
  }

  /**
   * {@link #validate()} for an agent's tool call, whose {@code limit} is at most {@value
   * #MAX_TOOL_LIMIT}.
   *
   * @return this request
   */
  public SearchRequest validateForTool() {
    validate();
    checkLimit(MAX_TOOL_LIMIT);
    return this;
  }

  /**
   * Whether the vector lane may run: it is not switched off ({@code semantic: false}) nor left out
   * of the lanes given. A surface may start loading the embedding model on it.
   */
  public boolean mayUseVector() {
    return !Boolean.FALSE.equals(semantic)
        && (lanes == null || lanes.stream().anyMatch(l -> Lane.parse(l) == Lane.VECTOR));
  }

  /**
   * The search options: {@code defaults} (the configured {@code retrieval.*}) with every given
   * field applied (checked there as in {@link #validate()}).
   *
   * @throws InvalidSearchException naming the field when a value cannot be read or is out of range
   */
  public SearchOptions options(SearchOptions defaults) {
    var builder = defaults.toBuilder().lanes(lanes(defaults.lanes()));
    if (limit != null) {
      builder.limit(limit);
    }
    if (fusion != null) {
      builder.fusion(FusionMode.parse(fusion));
    }
    var filters = defaults.filters();
    if (!kinds.isEmpty()) {
      filters = filters.withKinds(kinds);
    }
    if (!sourceTypes.isEmpty()) {
      filters = filters.withSourceTypes(sourceTypes);
    }
    if (!tags.isEmpty()) {
      filters = filters.withTags(tags);
    }
    DateRange range = dateRange();
    if (range != null) {
      filters = filters.withDateRange(range);
    }
    return builder.filters(filters).build();
  }

  /** The lanes that run: those given, else {@code defaults}, without the vector lane if off. */
  private Set<Lane> lanes(Set<Lane> defaults) {
    Set<Lane> out =
        lanes == null ? EnumSet.copyOf(defaults) : Lane.parseList(String.join(",", lanes));
    if (Boolean.FALSE.equals(semantic)) {
      out.remove(Lane.VECTOR);
    }
    if (out.isEmpty()) {
      throw new InvalidSearchException(
          "lanes",
          "at least one lane is needed besides vector (semantic is off)",
          Lane.wireNames());
    }
    return out;
  }

  private DateRange dateRange() {
    checkShort("since", since);
    checkShort("until", until);
    Instant from = day("since", since);
    Instant to = day("until", until);
    return from == null && to == null ? null : DateRange.created(from, to);
  }

  private void checkLimit(int max) {
    if (limit != null && (limit < 1 || limit > max)) {
      throw new InvalidSearchException("limit", "must be between 1 and " + max + ", got " + limit);
    }
  }

  private static void checkList(String field, List<String> values, int maxChars) {
    if (values.size() > MAX_LIST_ENTRIES) {
      throw new InvalidSearchException(
          field, "takes at most " + MAX_LIST_ENTRIES + " entries, got " + values.size());
    }
    for (String value : values) {
      if (value.length() > maxChars) {
        throw new InvalidSearchException(
            field, "must hold names of at most " + maxChars + " characters");
      }
    }
  }

  private static void checkShort(String field, String value) {
    if (value != null && value.length() > MAX_VALUE_CHARS) {
      throw new InvalidSearchException(
          field, "is " + value.length() + " characters long; at most " + MAX_VALUE_CHARS);
    }
  }

  /** {@code true} or {@code false}, in any case; anything else is refused, never guessed. */
  private static boolean flag(String field, String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new InvalidSearchException(field, "must be true or false, got '" + value + "'");
    };
  }

  /**
   * A whole number given as text (a query parameter).
   *
   * @throws InvalidSearchException naming {@code field} when it is not one
   */
  public static int number(String field, String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new InvalidSearchException(field, "must be a whole number, got '" + value + "'");
    }
  }

  /** The start of a day {@code YYYY-MM-DD} in UTC, or {@code null} for none. */
  private static Instant day(String field, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return LocalDate.parse(value.strip()).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException e) {
      throw new InvalidSearchException(field, "must be a day as YYYY-MM-DD, got '" + value + "'");
    }
  }

  /** Every value, each comma-separated list split, blanks dropped. */
  private static List<String> split(List<String> values) {
    return values.stream()
        .filter(v -> v != null)
        .flatMap(v -> Arrays.stream(v.split(",")))
        .map(String::strip)
        .filter(v -> !v.isEmpty())
        .toList();
  }
}
