package dev.brain.retrieval;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;

/**
 * A search as a surface receives it, before any value is checked: the flags of {@code brain
 * search}, the parameters of {@code GET /api/search} and the arguments of the MCP tool {@code
 * brain_search} all become one of these, and {@link #options(SearchOptions)} turns it into options
 * on top of the configured defaults — the one place a lane list, a flag, a number or a day is
 * parsed. A {@code null} field keeps the default.
 *
 * @param lanes comma-separated lane names ({@code bm25,vector})
 * @param semantic {@code true} or {@code false}: whether the vector lane runs
 * @param limit rows to return, a whole number
 * @param fusion {@code rrf} or {@code normalized}
 * @param kinds only these kinds ({@code item}, {@code source}); each may be comma-separated
 * @param sourceTypes only these source types; each may be comma-separated
 * @param tags only records with one of these tags; each may be comma-separated
 * @param since only records created on or after this day ({@code YYYY-MM-DD})
 * @param until only records created before this day ({@code YYYY-MM-DD})
 */
public record SearchRequest(
    String lanes,
    String semantic,
    String limit,
    String fusion,
    List<String> kinds,
    List<String> sourceTypes,
    List<String> tags,
    String since,
    String until) {

  public SearchRequest {
    kinds = split(kinds);
    sourceTypes = split(sourceTypes);
    tags = split(tags);
  }

  /** A request with no field given: the defaults. */
  public static final SearchRequest NONE =
      new SearchRequest(null, null, null, null, null, null, null, null, null);

  /**
   * {@code defaults} with every given field applied.
   *
   * @throws InvalidSearchException naming the field when a value cannot be read or is out of range
   */
  public SearchOptions options(SearchOptions defaults) {
    var builder = defaults.toBuilder();
    if (lanes != null) {
      builder.lanes(Lane.parseList(lanes));
    }
    if (semantic != null && !flag("semantic", semantic)) {
      builder.withoutVector();
    }
    if (limit != null) {
      builder.limit(number("limit", limit));
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
    Instant from = day("since", since);
    Instant to = day("until", until);
    if (from != null || to != null) {
      filters = filters.withDateRange(DateRange.created(from, to));
    }
    return builder.filters(filters).build();
  }

  /** {@code true} or {@code false}, in any case; anything else is refused, never guessed. */
  public static boolean flag(String field, String value) {
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new InvalidSearchException(field, "must be true or false, got '" + value + "'");
    };
  }

  /** A whole number. */
  public static int number(String field, String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new InvalidSearchException(field, "must be a whole number, got '" + value + "'");
    }
  }

  /** The start of a day {@code YYYY-MM-DD} in UTC, or {@code null} for none. */
  public static Instant day(String field, String value) {
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
    if (values == null) {
      return List.of();
    }
    return values.stream()
        .filter(v -> v != null)
        .flatMap(v -> java.util.Arrays.stream(v.split(",")))
        .map(String::strip)
        .filter(v -> !v.isEmpty())
        .toList();
  }
}
