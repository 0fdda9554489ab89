package dev.brain.research.pack;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A suggested follow-up, named by what it does rather than by a transport's tool name; a surface
 * maps it to its own tool or button.
 *
 * @param action {@value #INSPECT_TOP_EVIDENCE}, {@value #EXPAND_RELATED}, {@value #OPEN_LOOKUP},
 *     {@value #BROADEN_SEARCH} or {@value #NEAREST_BY_MEANING}
 * @param label a short human-readable label
 * @param params the action's arguments ({@code lookups}, {@code lookup}, {@code query}, {@code
 *     content_mode}, ...)
 */
public record NextStep(String action, String label, Map<String, Object> params) {

  /** Read the strongest rows in full, windowed around the query. */
  public static final String INSPECT_TOP_EVIDENCE = "inspect_top_evidence";

  /** Follow the links and backlinks of a strong row. */
  public static final String EXPAND_RELATED = "expand_related";

  /** Open one record. */
  public static final String OPEN_LOOKUP = "open_lookup";

  /** Search again with fewer words or without filters (offered when nothing was found). */
  public static final String BROADEN_SEARCH = "broaden_search";

  /**
   * Look at the records nearest the question in meaning, which match too few of its key words to be
   * evidence (offered when nothing was found). Params: {@code lookups}, {@code titles}, {@code
   * cosines}, best first.
   */
  public static final String NEAREST_BY_MEANING = "nearest_by_meaning";

  public NextStep {
    params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
  }
}
