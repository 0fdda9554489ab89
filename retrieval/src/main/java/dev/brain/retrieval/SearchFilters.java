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
 * @param includeBrainWritten whether chunks of a {@code ## Research} section brain wrote into a
 *     note (role {@code brain_written}) may be found; {@code false} by default: they are brain's
 *     derived text, not the user's notes
 */
public record SearchFilters(
    List<String> kinds,
    @JsonProperty("source_types") List<String> sourceTypes,
    List<String> tags,
    @JsonProperty("date_ranges") List<DateRange> dateRanges,
    @JsonProperty("include_brain_written") boolean includeBrainWritten) {

  /** The record kinds. */
  public static final List<String> KINDS = List.of("item", "source");

  /**
   * Source types brain's importers produce; a filter may also name any type present in the index.
   */
  public static final List<String> KNOWN_SOURCE_TYPES =
      List.of("note", "bookmark", "web", "pdf", "feed_entry", "transcript", "github", "doc");

  /** No filtering. */
  public static final SearchFilters NONE =
      new SearchFilters(List.of(), List.of(), List.of(), List.of(), false);

  /** Filters that keep brain's research sections out. */
  public SearchFilters(
      List<String> kinds, List<String> sourceTypes, List<String> tags, List<DateRange> dateRanges) {
    this(kinds, sourceTypes, tags, dateRanges, false);
  }

  /**
   * @throws InvalidSearchException if a kind is unknown
   */
  public SearchFilters {
    kinds = normalizeKinds(kinds);
    sourceTypes = lowerDistinct(sourceTypes);
    tags = normalizeTags(tags);
    dateRanges = dateRanges == null ? List.of() : List.copyOf(dateRanges);
  }

  /** True if no record is filtered out (brain's research sections may still be). */
  @JsonIgnore
  public boolean isEmpty() {
    return kinds.isEmpty() && sourceTypes.isEmpty() && tags.isEmpty() && dateRanges.isEmpty();
  }

  /** These filters restricted to records of one of {@code values} kinds as well. */
  public SearchFilters withKinds(List<String> values) {
    return new SearchFilters(values, sourceTypes, tags, dateRanges, includeBrainWritten);
  }

  /** These filters restricted to one of {@code values} source types. */
  public SearchFilters withSourceTypes(List<String> values) {
    return new SearchFilters(kinds, values, tags, dateRanges, includeBrainWritten);
  }

  /** These filters requiring all of {@code values} tags. */
  public SearchFilters withTags(List<String> values) {
    return new SearchFilters(kinds, sourceTypes, values, dateRanges, includeBrainWritten);
  }

  /** These filters with one more date range. */
  public SearchFilters withDateRange(DateRange range) {
    var ranges = new ArrayList<>(dateRanges);
    ranges.add(range);
    return new SearchFilters(kinds, sourceTypes, tags, ranges, includeBrainWritten);
  }

  /** These filters letting brain's research sections be found ({@code true}) or not. */
  public SearchFilters withBrainWritten(boolean value) {
    return new SearchFilters(kinds, sourceTypes, tags, dateRanges, value);
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
