package dev.brain.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Combines the lanes' ranked hits into one ranking of records. Each lane's chunk hits are first
 * collapsed to records (a record takes the rank and raw score of its best chunk in that lane);
 * records are then fused across lanes with weighted RRF or min-max normalized scores. The same
 * formula, applied to chunk ranks, orders the chunks within a record.
 */
final class Fusion {
  private Fusion() {}

  /**
   * A chunk of a fused record with its own fused score.
   *
   * @param doc the chunk's doc id
   * @param score the chunk's fused score (from its chunk ranks in each lane)
   */
  record FusedChunk(int doc, double score) {}

  /**
   * One record after fusion.
   *
   * @param key record key
   * @param score fused score
   * @param lanes per-lane rank, raw score and contribution, in lane order
   * @param chunks the record's chunk hits, best first
   * @param laneChunks the record's best chunk in each lane that hit a chunk
   */
  record FusedRecord(
      String key,
      double score,
      List<LaneScore> lanes,
      List<FusedChunk> chunks,
      Map<Lane, Integer> laneChunks) {
    int bestRank() {
      return lanes.stream().mapToInt(LaneScore::rank).min().orElse(Integer.MAX_VALUE);
    }

    /** The rank in {@code lane}, or 0 when the lane did not find the record. */
    int rank(Lane lane) {
      return lanes.stream()
          .filter(l -> l.lane() == lane)
          .mapToInt(LaneScore::rank)
          .findFirst()
          .orElse(0);
    }

    /** The fused score without the exact-tag lane's part. */
    double withoutTags() {
      return score
          - lanes.stream()
              .filter(l -> l.lane() == Lane.EXACT_TAG)
              .mapToDouble(LaneScore::contribution)
              .sum();
    }
  }

  /**
   * Fuses ranked lane hits.
   *
   * @param lanes each lane's hits, best first; iteration order is the order of {@link
   *     FusedRecord#lanes()}
   * @param weights weight per lane
   * @return every record found by any lane, best first (ties: better best rank, then key)
   */
  static List<FusedRecord> fuse(
      Map<Lane, List<Hit>> lanes, FusionMode mode, int k, Map<Lane, Double> weights) {
    Map<String, Builder> records = new LinkedHashMap<>();
    for (var entry : lanes.entrySet()) {
      Lane lane = entry.getKey();
      double weight = weights.getOrDefault(lane, 1.0);
      addLane(records, lane, entry.getValue(), mode, k, weight);
    }
    var fused = new ArrayList<FusedRecord>(records.size());
    records.values().forEach(b -> fused.add(b.build()));
    fused.sort(
        Comparator.comparingDouble(FusedRecord::score)
            .reversed()
            .thenComparingInt(FusedRecord::bestRank)
            .thenComparing(FusedRecord::key));
    return tagsLiftNoneAboveTheBest(fused);
  }

  /**
   * A record both retrieval lanes ranked first is not passed by one whose lead comes from tag
   * matches alone: such a record moves just below it. (A tag names what a record is filed under,
   * not what it says; the lanes that read the text agree on the best record.)
   */
  static List<FusedRecord> tagsLiftNoneAboveTheBest(List<FusedRecord> fused) {
    int at = -1;
    for (int i = 0; i < fused.size(); i++) {
      if (fused.get(i).rank(Lane.BM25) == 1 && fused.get(i).rank(Lane.VECTOR) == 1) {
        at = i;
        break;
      }
    }
    if (at <= 0) {
      return fused;
    }
    FusedRecord best = fused.get(at);
    var lifted = new ArrayList<FusedRecord>();
    var out = new ArrayList<FusedRecord>();
    for (int i = 0; i < at; i++) {
      FusedRecord r = fused.get(i);
      (r.withoutTags() < best.withoutTags() ? lifted : out).add(r);
    }
    out.add(best);
    out.addAll(lifted);
    out.addAll(fused.subList(at + 1, fused.size()));
    return out;
  }

  private static void addLane(
      Map<String, Builder> records,
      Lane lane,
      List<Hit> hits,
      FusionMode mode,
      int k,
      double weight) {
    // Records in the lane, by their best (first) hit.
    Map<String, Hit> best = new LinkedHashMap<>();
    hits.forEach(h -> best.putIfAbsent(h.key(), h));
    Normalizer recordNorm = Normalizer.of(best.values());
    Normalizer chunkNorm = Normalizer.of(hits);
    // Records with equal scores share a rank (the best of their group): exact-tag matches of
    // equal weight, say, are not set apart by the order they were read in.
    int position = 0;
    int rank = 0;
    double previous = Double.NaN;
    for (Hit h : best.values()) {
      position++;
      if (Double.compare(h.score(), previous) != 0) {
        rank = position;
        previous = h.score();
      }
      double contribution =
          mode == FusionMode.RRF ? weight / (k + rank) : weight * recordNorm.apply(h.score());
      Builder record = records.computeIfAbsent(h.key(), Builder::new);
      record.lanes.add(new LaneScore(lane, rank, h.score(), contribution));
      if (h.hasChunk()) {
        record.laneChunks.put(lane, h.doc());
      }
    }
    int chunkRank = 0;
    for (Hit h : hits) {
      chunkRank++;
      if (!h.hasChunk()) {
        continue;
      }
      double contribution =
          mode == FusionMode.RRF ? weight / (k + chunkRank) : weight * chunkNorm.apply(h.score());
      records.get(h.key()).chunks.merge(h.doc(), contribution, Double::sum);
    }
  }

  /** Min-max scaling over one lane's scores; a lane whose scores are all equal maps to 1. */
  record Normalizer(double min, double max) {
    static Normalizer of(Iterable<Hit> hits) {
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      for (Hit h : hits) {
        min = Math.min(min, h.score());
        max = Math.max(max, h.score());
      }
      return new Normalizer(min, max);
    }

    double apply(double score) {
      return max > min ? (score - min) / (max - min) : 1.0;
    }
  }

  private static final class Builder {
    final String key;
    final List<LaneScore> lanes = new ArrayList<>();
    final Map<Integer, Double> chunks = new HashMap<>();
    final Map<Lane, Integer> laneChunks = new EnumMap<>(Lane.class);

    Builder(String key) {
      this.key = key;
    }

    FusedRecord build() {
      double score = lanes.stream().mapToDouble(LaneScore::contribution).sum();
      var ranked = new ArrayList<FusedChunk>();
      chunks.forEach((doc, s) -> ranked.add(new FusedChunk(doc, s)));
      ranked.sort(
          Comparator.comparingDouble(FusedChunk::score)
              .reversed()
              .thenComparingInt(FusedChunk::doc));
      return new FusedRecord(key, score, lanes, ranked, Map.copyOf(laneChunks));
    }
  }
}
