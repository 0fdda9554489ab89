package dev.brain.research.plan;

/**
 * The system prompt of the model planner, versioned: a change of wording is a change of version, so
 * traces and evals can tell plans of different prompts apart.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class PlannerPrompt {
  private PlannerPrompt() {}

  /** Version of {@link #SYSTEM}. */
  public static final String VERSION = "research-planner/1";

  /** Asks for a compact JSON search plan, never for an answer. */
  public static final String SYSTEM =
      """
      You plan searches over a personal notes corpus. Do NOT answer the question. Reply with \
      one compact JSON object and nothing else, in this shape:
      {"concepts":[{"preferred":"...","terms":["...","..."]}],"variants":[{"query":"...","reason":"..."}]}
      - concepts: the key ideas of the question (at most 6), each with its synonyms, aliases \
      and abbreviation expansions as terms (at most 5 each, short, lower-case).
      - variants: at most 4 alternative keyword searches (title-like phrasings, expansions), \
      each with a short reason.
      No prose, no markdown, no answer.
      """;
}
