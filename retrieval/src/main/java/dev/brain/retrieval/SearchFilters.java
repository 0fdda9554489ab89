package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.brain.index.importer.Tags;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Which records a search may return. Every lane applies the same filters (the vector lane as a
 * pre-filter, so a filtered search still returns {@code limit} rows when enough records match). An
 * empty list means no restriction.
 *
 * @param kinds any of these kinds ({@code item}, {@code source})
 * @param sourceTypes any of these source types ({@code note}, {@code pdf}, ...); checked against
 *     {@link #KNOWN_SOURCE_TYPES} and the source types present in the index
 * @param tags every one of these user tags (normalized like the importers do: {@code "Home
 *     Espresso"} is {@code home-espresso})
 * @param dateRanges every one of these date ranges
 */
public record SearchFilters(
    List<String> kinds,
    @JsonProperty("source_types") List<String> sourceTypes,
    List<String> tags,
    @JsonProperty("date_ranges") List<DateRange> dateRanges) {

  /** The record kinds. */
  public static final List<String> KINDS = List.of("item", "source");

  /**
   * Source types brain's importers produce; a filter may also name any type present in the index.
   */
  public static final List<String> KNOWN_SOURCE_TYPES =
      List.of("note", "bookmark", "web", "pdf", "feed_entry", "transcript", "github", "doc");

  /** No filtering. */
  public static final SearchFilters NONE =
      new SearchFilters(List.of(), List.of(), List.of(), List.of());

  /**
   * @throws InvalidSearchException if a kind is unknown
   */
  public SearchFilters {
    kinds = normalizeKinds(kinds);
    sourceTypes = lowerDistinct(sourceTypes);
    tags = normalizeTags(tags);
    dateRanges = dateRanges == null ? List.of() : List.copyOf(dateRanges);
  }

  /** True if nothing is filtered. */
  @JsonIgnore
  public boolean isEmpty() {
    return kinds.isEmpty() && sourceTypes.isEmpty() && tags.isEmpty() && dateRanges.isEmpty();
  }

  /** These filters restricted to records of one of {@code values} kinds as well. */
  public SearchFilters withKinds(List<String> values) {
    return new SearchFilters(values, sourceTypes, tags, dateRanges);
  }

  /** These filters restricted to one of {@code values} source types. */
  public SearchFilters withSourceTypes(List<String> values) {
    return new SearchFilters(kinds, values, tags, dateRanges);
  }

  /** These filters requiring all of {@code values} tags. */
  public SearchFilters withTags(List<String> values) {
    return new SearchFilters(kinds, sourceTypes, values, dateRanges);
  }

  /** These filters with one more date range. */
  public SearchFilters withDateRange(DateRange range) {
    var ranges = new ArrayList<>(dateRanges);
    ranges.add(range);
    return new SearchFilters(kinds, sourceTypes, tags, ranges);
  }

  private static List<String> normalizeKinds(List<String> values) {
    List<String> out = lowerDistinct(values);
    for (String kind : out) {
      if (!KINDS.contains(kind)) {
        throw new InvalidSearchException("kinds", "unknown kind '" + kind + "'", KINDS);
      }
    }
    return out;
  }

  private static List<String> lowerDistinct(List<String> values) {
    if (values == null) {
      return List.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        out.add(v.strip().toLowerCase(Locale.ROOT));
      }
    }
    return List.copyOf(out);
  }

  private static List<String> normalizeTags(List<String> values) {
    return values == null
        ? List.of()
        : Tags.normalizeAll(values.stream().filter(Objects::nonNull).toList());
  }
}
