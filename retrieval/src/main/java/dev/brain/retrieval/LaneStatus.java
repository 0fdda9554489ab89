package dev.brain.retrieval;

/** Whether a lane took part in a search, and if not, why. */
public enum LaneStatus implements WireName {
  /** The lane ran (it may still have found nothing). */
  USED,
  /** The lane was switched off for this request. */
  DISABLED,
  /** The vector lane found no embeddings in the index (nothing indexed, or built without them). */
  NOT_INDEXED,
  /** The vector lane could not load or run the embedding model; the other lanes still ran. */
  MODEL_UNAVAILABLE;
}
