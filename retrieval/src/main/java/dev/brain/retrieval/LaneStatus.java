package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Whether a lane took part in a search, and if not, why. */
public enum LaneStatus {
  /** The lane ran (it may still have found nothing). */
  USED,
  /** The lane was switched off for this request. */
  DISABLED,
  /** The vector lane found no embeddings in the index (nothing indexed, or built without them). */
  NOT_INDEXED,
  /** The vector lane could not load or run the embedding model; the other lanes still ran. */
  MODEL_UNAVAILABLE;

  /** The lower-case wire name: {@code used}, {@code disabled}, {@code not_indexed}, ... */
  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
