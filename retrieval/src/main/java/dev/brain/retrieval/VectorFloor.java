package dev.brain.retrieval;

import dev.brain.retrieval.Fusion.FusedRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * The relevance floor of vector-only rows. The vector lane ranks every chunk, so a query with one
 * real hit still fills the page with the nearest of the rest; a record that only the vector lane
 * found is kept when its cosine is at least {@code floor} times the best cosine of the search (the
 * vector lane's first record). Rows a lexical or tag lane found are never dropped. The default
 * floor and the measurements behind it are in the module README ("Relevance floor").
 */
final class VectorFloor {
  private VectorFloor() {}

  /**
   * The fused records that pass, in order.
   *
   * @param leftOut records dropped among the first {@code limit}: the rows the floor took away
   */
  record Applied(List<FusedRecord> kept, int leftOut) {}

  static Applied apply(List<FusedRecord> fused, double floor, int limit) {
    double best = bestCosine(fused);
    if (floor <= 0 || !(best > 0)) {
      return new Applied(fused, 0);
    }
    double min = floor * best;
    var kept = new ArrayList<FusedRecord>(fused.size());
    int leftOut = 0;
    for (int i = 0; i < fused.size(); i++) {
      FusedRecord r = fused.get(i);
      if (vectorOnly(r) && cosine(r) < min) {
        leftOut += i < limit ? 1 : 0;
      } else {
        kept.add(r);
      }
    }
    return new Applied(kept, leftOut);
  }

  static boolean vectorOnly(FusedRecord r) {
    return r.lanes().size() == 1 && r.lanes().get(0).lane() == Lane.VECTOR;
  }

  private static double cosine(FusedRecord r) {
    return r.lanes().stream()
        .filter(l -> l.lane() == Lane.VECTOR)
        .mapToDouble(LaneScore::rawScore)
        .findFirst()
        .orElse(Double.NaN);
  }

  private static double bestCosine(List<FusedRecord> fused) {
    return fused.stream()
        .flatMap(r -> r.lanes().stream())
        .filter(l -> l.lane() == Lane.VECTOR)
        .mapToDouble(LaneScore::rawScore)
        .max()
        .orElse(Double.NaN);
  }
}
