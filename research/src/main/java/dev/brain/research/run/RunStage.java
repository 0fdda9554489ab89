package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.brain.retrieval.WireName;
import java.util.Locale;

/** A stage of a research run, as named in progress events, timings and traces. */
public enum RunStage implements WireName {
  /** The run as a whole: its first and last event. */
  RUN,
  /** Query understanding, with the model planner when one is configured. */
  PLANNING,
  /** The research pack: one search per query variant, combined and re-scored. */
  RETRIEVAL,
  /** Deeper query-centred windows of the top rows, read from the stored records. */
  INSPECTION,
  /** The judge's verdict on the evidence. */
  JUDGE,
  /** The one focused retry the judge may ask for. */
  RETRY,
  /** The one related expansion from the strongest row the judge may ask for. */
  EXPANSION,
  /** The synthesis input under the evidence budget (and pinned evidence). */
  PREPARATION,
  /** The answer: extractive or from a chat model. */
  SYNTHESIS,
  /** The citation hard gates (and the soft ones, which only warn). */
  VERIFICATION,
  /** An optional model's advisory review of the answer against its evidence. */
  REVIEW,
  /** Writing the trace directory and applying retention. */
  TRACE;

  /** The stage with this wire name. */
  @JsonCreator
  public static RunStage parse(String name) {
    return valueOf(name.strip().toUpperCase(Locale.ROOT));
  }
}
