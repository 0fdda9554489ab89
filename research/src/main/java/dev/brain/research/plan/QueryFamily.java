package dev.brain.research.plan;

import com.fasterxml.jackson.annotation.JsonCreator;
import dev.brain.retrieval.WireName;
import java.util.Locale;

/**
 * The shape of a question, which decides how the deterministic strategy cleans its terms, which
 * variants it searches and whether a topic brief is attached.
 */
public enum QueryFamily implements WireName {
  /** "What do I know about X?", "tell me about X", a bare topic: broad, gets a topic brief. */
  ENTITY_TOPIC_OVERVIEW,
  /** "Who ...", "what happened ...", a named person with an event word. */
  PERSON_EVENT_LOOKUP,
  /** "Which model/tool/library should I use ...", "alternatives to X", "best X for Y". */
  TOOL_MODEL_SELECTION,
  /** A GitHub repository, library, crate or package. */
  SOFTWARE_PROJECT_LOOKUP,
  /** "X vs Y", "compare X and Y", "difference between X and Y". */
  COMPARISON,
  /** "When ...", "history of", "timeline", "how has X changed". */
  TIMELINE_HISTORY,
  /** What a podcast, video, transcript, screenshot or scan said. */
  TRANSCRIPT_OCR_LOOKUP,
  /** A quoted title, a record key, a URL, "the article called ...". */
  EXACT_TITLE_SOURCE_LOOKUP,
  /** A chat follow-up that corrects the previous question ("no, I meant ..."). */
  CORRECTIVE_FOLLOW_UP,
  /** Any other specific question: find the records that state the fact. */
  FACT_LOOKUP;

  /** The family with this wire name (case-insensitive). */
  @JsonCreator
  public static QueryFamily parse(String name) {
    return valueOf(name.strip().toUpperCase(Locale.ROOT));
  }
}
