package dev.brain.research.note;

import dev.brain.retrieval.WireName;
import java.util.Locale;

/** How far note research goes on the web: search snippets only, or the top pages read too. */
public enum Depth implements WireName {
  /** Search snippets only (the default). */
  SHALLOW,
  /** Also fetch and read the top two result pages of each topic. */
  DEEP;

  /**
   * The depth of a wire name ({@code shallow} or {@code deep}); {@link #SHALLOW} for {@code null}.
   *
   * @throws NoteResearchException of reason {@link NoteResearchException.Reason#INVALID_INPUT} for
   *     any other name
   */
  public static Depth of(String name) {
    if (name == null || name.isBlank()) {
      return SHALLOW;
    }
    for (Depth d : values()) {
      if (d.wireName().equals(name.strip().toLowerCase(Locale.ROOT))) {
        return d;
      }
    }
    throw new NoteResearchException(
        NoteResearchException.Reason.INVALID_INPUT,
        "depth must be 'shallow' or 'deep', got '" + name + "'",
        "depth");
  }
}
