package dev.brain.chunking;

/** What part of a record a chunk comes from; it becomes the evidence role of a hit. */
public enum ChunkRole {
  /** The record's raw text. */
  RAW,
  /** A derived summary of the record. */
  SUMMARY,
  /** A speech transcript. */
  TRANSCRIPT,
  /** Text recognized from an image or scan. */
  OCR,
  /**
   * The {@code ## Research} section brain wrote into a note ({@link BrainWritten}): derived text
   * kept out of evidence unless asked for, and then labelled as brain's.
   */
  BRAIN_WRITTEN;

  /** The lower-case wire name ({@code raw}, {@code summary}, ...). */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
