package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonCreator;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** A retrieval lane: one way of finding evidence, with its own ranking and raw scores. */
public enum Lane implements WireName {
  /** Lucene BM25 over chunk text, headings, record titles and tags. */
  BM25,
  /** Nearest chunk embeddings to the embedded query (HNSW, or exact for small candidate sets). */
  VECTOR,
  /**
   * Records whose user tags equal a tag alias of the query ({@code mark carney} -> {@code
   * mark-carney}).
   */
  EXACT_TAG,
  /** Links and backlinks of the top records; reported as extra rows, never fused. */
  RELATED;

  /** The wire names of all lanes, in declaration order. */
  public static List<String> wireNames() {
    return Arrays.stream(values()).map(Lane::wireName).toList();
  }

  /**
   * The lane with this wire name (case-insensitive; {@code exact-tag} is accepted too).
   *
   * @throws InvalidSearchException naming the allowed lanes if there is none
   */
  @JsonCreator
  public static Lane parse(String name) {
    String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT).replace('-', '_');
    for (Lane lane : values()) {
      if (lane.wireName().equals(n)) {
        return lane;
      }
    }
    throw new InvalidSearchException("lanes", "unknown lane '" + name + "'", wireNames());
  }

  /**
   * The lanes of a comma-separated list such as {@code bm25,vector}.
   *
   * @throws InvalidSearchException if a name is unknown or the list is empty
   */
  public static Set<Lane> parseList(String csv) {
    Set<Lane> lanes = EnumSet.noneOf(Lane.class);
    for (String part : (csv == null ? "" : csv).split(",")) {
      if (!part.isBlank()) {
        lanes.add(parse(part));
      }
    }
    if (lanes.isEmpty()) {
      throw new InvalidSearchException("lanes", "no lane given in '" + csv + "'", wireNames());
    }
    return lanes;
  }
}
