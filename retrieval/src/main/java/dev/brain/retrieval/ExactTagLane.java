package dev.brain.retrieval;

import dev.brain.index.IndexFields;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;

/**
 * The exact-tag lane: records carrying a user tag that equals a tag alias of the query ({@code mark
 * carney} finds records tagged {@code mark-carney}). Records rank by how many query words their
 * matched tags cover, longer aliases first, then by key.
 */
final class ExactTagLane {
  private ExactTagLane() {}

  /** A record found by its tags, with the tags that matched. */
  record TagMatch(String key, List<String> tags, int words) {}

  static LaneHits search(IndexSearcher searcher, QueryText query, Query filter, int depth)
      throws IOException {
    List<TagMatch> matches = matches(searcher, query.tagAliases(), filter, depth);
    var hits = new ArrayList<Hit>(matches.size());
    for (TagMatch m : matches) {
      // Matches covering as many query words share a rank in fusion (Fusion ranks equal scores
      // alike), whatever order they were read in.
      hits.add(new Hit(m.key(), Hit.NO_CHUNK, m.words()));
    }
    return LaneHits.used(Lane.EXACT_TAG, hits, hits.size(), null);
  }

  /** The records with a tag among {@code aliases}, best first, at most {@code depth}. */
  static List<TagMatch> matches(
      IndexSearcher searcher, List<String> aliases, Query filter, int depth) throws IOException {
    if (aliases.isEmpty()) {
      return List.of();
    }
    Query query =
        new BooleanQuery.Builder()
            .add(Filters.records(filter), Occur.FILTER)
            .add(Filters.anyOf(IndexFields.TAGS, aliases), Occur.FILTER)
            .build();
    int count = searcher.count(query);
    if (count == 0) {
      return List.of();
    }
    TopDocs top = searcher.search(query, count);
    Set<String> wanted = new HashSet<>(aliases);
    var matches = new ArrayList<TagMatch>();
    for (ScoreDoc sd : top.scoreDocs) {
      Document doc =
          searcher.storedFields().document(sd.doc, Set.of(IndexFields.KEY, IndexFields.TAGS));
      List<String> tags = new ArrayList<>();
      for (String tag : doc.getValues(IndexFields.TAGS)) {
        if (wanted.contains(tag)) {
          tags.add(tag);
        }
      }
      matches.add(new TagMatch(doc.get(IndexFields.KEY), tags, coveredWords(tags)));
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
