package dev.brain.retrieval;

import dev.brain.index.IndexFields;
import dev.brain.retrieval.Stored.StoredRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

/**
 * The related lane: records linked with the top ranked rows. For each of the first {@value #SEEDS}
 * rows in rank order, the records it links to ({@code links_to}), then the records linking to it
 * ({@code linked_from}, by key); records already in the result are skipped. The filters apply to
 * related records too.
 */
final class RelatedLane {
  private RelatedLane() {}

  /** How many of the top rows have their links followed. */
  static final int SEEDS = 3;

  /**
   * A record linked with a ranked row.
   *
   * @param record the linked record
   * @param relatedTo the ranked row's key
   * @param relationship {@link EvidenceRow#LINKS_TO} or {@link EvidenceRow#LINKED_FROM}
   * @param seedScore the ranked row's fused score
   */
  record Link(StoredRecord record, String relatedTo, String relationship, double seedScore) {}

  static List<Link> links(IndexSearcher searcher, List<EvidenceRow> ranked, Query filter, int limit)
      throws IOException {
    var out = new ArrayList<Link>();
    Set<String> seen = new HashSet<>();
    ranked.forEach(r -> seen.add(r.sourceKey()));
    List<EvidenceRow> seeds = ranked.subList(0, Math.min(SEEDS, ranked.size()));
    Map<String, StoredRecord> seedRecords =
        Stored.records(searcher, seeds.stream().map(EvidenceRow::sourceKey).toList());
    for (EvidenceRow seed : seeds) {
      StoredRecord seedRecord = seedRecords.get(seed.sourceKey());
      if (seedRecord == null) {
        continue;
      }
      double score = seed.retrieval().fusedScore();
      Map<String, StoredRecord> targets = Stored.records(searcher, seedRecord.links());
      for (String key : seedRecord.links()) {
        StoredRecord target = targets.get(key);
        if (target != null && seen.add(key) && passes(searcher, key, filter)) {
          out.add(new Link(target, seed.sourceKey(), EvidenceRow.LINKS_TO, score));
        }
      }
      for (StoredRecord source : backlinks(searcher, seed.sourceKey(), filter)) {
        if (seen.add(source.key())) {
          out.add(new Link(source, seed.sourceKey(), EvidenceRow.LINKED_FROM, score));
        }
      }
      if (out.size() >= limit) {
        break;
      }
    }
    return out.size() > limit ? out.subList(0, limit) : out;
  }

  private static boolean passes(IndexSearcher searcher, String key, Query filter)
      throws IOException {
    if (filter == null) {
      return true;
    }
    Query query =
        new BooleanQuery.Builder()
            .add(Filters.records(filter), Occur.FILTER)
            .add(new TermQuery(new Term(IndexFields.KEY, key)), Occur.FILTER)
            .build();
    return searcher.count(query) > 0;
  }

  /** Records (passing the filter) whose links name {@code key}, ordered by key. */
  private static List<StoredRecord> backlinks(IndexSearcher searcher, String key, Query filter)
      throws IOException {
    Query query =
        new BooleanQuery.Builder()
            .add(Filters.records(filter), Occur.FILTER)
            .add(new TermQuery(new Term(IndexFields.LINKS, key)), Occur.FILTER)
            .build();
    int count = searcher.count(query);
    if (count == 0) {
      return List.of();
    }
    var byKey = new TreeSet<StoredRecord>((a, b) -> a.key().compareTo(b.key()));
    for (ScoreDoc sd : searcher.search(query, count).scoreDocs) {
      Document doc = searcher.storedFields().document(sd.doc);
      StoredRecord r = Stored.record(doc);
      if (!r.key().equals(key)) {
        byKey.add(r);
      }
    }
    return List.copyOf(byKey);
  }
}
