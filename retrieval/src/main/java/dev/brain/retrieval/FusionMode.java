package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonCreator;
import java.util.Arrays;
import java.util.Locale;

/** How the ranked lists of the lanes are combined into one ranking of records. */
public enum FusionMode implements WireName {
  /**
   * Weighted reciprocal-rank fusion: a record at rank {@code r} in a lane adds {@code weight / (k +
   * r)}. Scale-free, robust to lanes whose scores are not comparable. The default.
   */
  RRF,
  /**
   * Min-max normalized score combination: each lane's raw scores are scaled to [0, 1] over that
   * lane's records and a record adds {@code weight * normalized}. Uses score gaps that RRF ignores.
   */
  NORMALIZED;

  /**
   * The mode with this wire name (case-insensitive).
   *
   * @throws InvalidSearchException naming the allowed modes if there is none
   */
  @JsonCreator
  public static FusionMode parse(String name) {
    String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
    for (FusionMode mode : values()) {
      if (mode.wireName().equals(n)) {
        return mode;
      }
    }
    throw new InvalidSearchException(
        "fusion",
        "unknown fusion mode '" + name + "'",
        Arrays.stream(values()).map(FusionMode::wireName).toList());
  }
}
