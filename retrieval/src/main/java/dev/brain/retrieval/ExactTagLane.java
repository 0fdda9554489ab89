package dev.brain.retrieval;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The exact-tag lane: records carrying a user tag that equals a tag alias of the query ({@code mark
 * carney} finds records tagged {@code mark-carney}). Records rank by how many query words their
 * matched tags cover, longer aliases first, then by key.
 */
final class ExactTagLane {
  private ExactTagLane() {}

  /** A record found by its tags, with the tags that matched. */
  record TagMatch(String key, List<String> tags, int words) {}

  static LaneHits search(Backend.View view, QueryText query, SearchFilters filters, int depth)
      throws IOException {
    List<TagMatch> matches = matches(view, query.tagAliases(), filters, depth);
    var hits = new ArrayList<Hit>(matches.size());
    for (TagMatch m : matches) {
      // Matches covering as many query words share a rank in fusion (Fusion ranks equal scores
      // alike), whatever order they were read in.
      hits.add(new Hit(m.key(), Hit.NO_CHUNK, m.words()));
    }
    return LaneHits.used(Lane.EXACT_TAG, hits, hits.size(), null);
  }

  /**
   * Most records asked of a backend per search: ranking needs them all, and a tag shared by more
   * records than this says little about the query anyway.
   */
  static final int MAX_TAGGED = 10_000;

  /** The records with a tag among {@code aliases}, best first, at most {@code depth}. */
  static List<TagMatch> matches(
      Backend.View view, List<String> aliases, SearchFilters filters, int depth)
      throws IOException {
    if (aliases.isEmpty()) {
      return List.of();
    }
    Set<String> wanted = new HashSet<>(aliases);
    var matches = new ArrayList<TagMatch>();
    for (var record : view.tagged(aliases, filters, MAX_TAGGED).entrySet()) {
      List<String> tags = new ArrayList<>();
      for (String tag : record.getValue()) {
        if (wanted.contains(tag)) {
          tags.add(tag);
        }
      }
      matches.add(new TagMatch(record.getKey(), tags, coveredWords(tags)));
    }
    matches.sort(
        Comparator.comparingInt(TagMatch::words)
            .reversed()
            .thenComparing(m -> -longest(m.tags()))
            .thenComparing(TagMatch::key));
    return matches.size() > depth ? matches.subList(0, depth) : matches;
  }

  private static int coveredWords(List<String> tags) {
    return tags.stream().mapToInt(QueryText::aliasWords).sum();
  }

  private static int longest(List<String> tags) {
    return tags.stream().mapToInt(QueryText::aliasWords).max().orElse(0);
  }
}
