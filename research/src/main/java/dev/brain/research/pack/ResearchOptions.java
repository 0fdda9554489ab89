package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.SearchOptions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How one research pack is built. Start from {@link #defaults()} and change fields with the {@code
 * with...} methods.
 *
 * @param sourceTypes restrict evidence to these source types; default none (all)
 * @param limit most evidence rows, 1 to 100; default {@value #DEFAULT_LIMIT}
 * @param maxCharsPerDoc longest excerpt per row, 40 to 100,000; default {@value
 *     #DEFAULT_MAX_CHARS_PER_DOC}
 * @param includeRelated add the link neighbours of the top rows; default false
 * @param relatedLimit most related rows, 0 to 100; default {@value #DEFAULT_RELATED_LIMIT}
 * @param includeTopicBrief {@code true} always builds a topic brief, {@code false} never, {@code
 *     null} (default) when the question is a broad topic
 * @param semantic use the vector lane; default true ({@code false} is lexical debugging)
 * @param plannerTimeout how long a model planner may take before the deterministic plan is used;
 *     default 20 seconds
 * @param includeBrainWritten whether the {@code ## Research} sections brain wrote into notes may be
 *     evidence (then labelled "written by brain"); default false: they are brain's derived text,
 *     not the user's notes
 */
public record ResearchOptions(
    @JsonProperty("source_types") List<String> sourceTypes,
    int limit,
    @JsonProperty("max_chars_per_doc") int maxCharsPerDoc,
    @JsonProperty("include_related") boolean includeRelated,
    @JsonProperty("related_limit") int relatedLimit,
    @JsonProperty("include_topic_brief") Boolean includeTopicBrief,
    boolean semantic,
    @JsonProperty("planner_timeout") Duration plannerTimeout,
    @JsonProperty("include_brain_written") boolean includeBrainWritten) {

  /** Default {@link #limit()}. */
  public static final int DEFAULT_LIMIT = 8;

  /** Largest {@link #limit()}. */
  public static final int MAX_LIMIT = 100;

  /**
   * Longest question (and earlier question of a conversation) a surface accepts, in characters: a
   * long paragraph fits; a pasted document does not (search it instead). A research run refuses a
   * longer question, so every surface does (HTTP and MCP already when they read the request).
   */
  public static final int MAX_QUESTION_CHARS = 4_000;

  /** Default {@link #maxCharsPerDoc()}. */
  public static final int DEFAULT_MAX_CHARS_PER_DOC = 700;

  /** Default {@link #relatedLimit()}. */
  public static final int DEFAULT_RELATED_LIMIT = SearchOptions.DEFAULT_RELATED_LIMIT;

  /** Default {@link #plannerTimeout()}. */
  public static final Duration DEFAULT_PLANNER_TIMEOUT = Duration.ofSeconds(20);

  /**
   * @throws InvalidSearchException if a value is out of range
   */
  public ResearchOptions {
    sourceTypes = sourceTypes == null ? List.of() : List.copyOf(sourceTypes);
    requireRange("limit", limit, 1, MAX_LIMIT);
    requireRange("max_chars_per_doc", maxCharsPerDoc, 40, 100_000);
    requireRange("related_limit", relatedLimit, 0, 100);
    plannerTimeout = plannerTimeout == null ? DEFAULT_PLANNER_TIMEOUT : plannerTimeout;
    if (plannerTimeout.isNegative() || plannerTimeout.isZero()) {
      throw new InvalidSearchException(
          "planner_timeout", "must be positive, got " + plannerTimeout);
    }
  }

  /** Every default. */
  public static ResearchOptions defaults() {
    return new ResearchOptions(
        List.of(),
        DEFAULT_LIMIT,
        DEFAULT_MAX_CHARS_PER_DOC,
        false,
        DEFAULT_RELATED_LIMIT,
        null,
        true,
        DEFAULT_PLANNER_TIMEOUT,
        false);
  }

  /** These options restricted to the given source types. */
  public ResearchOptions withSourceTypes(List<String> value) {
    return copy(c -> c.sourceTypes = value);
  }

  /** These options with another row limit. */
  public ResearchOptions withLimit(int value) {
    return copy(c -> c.limit = value);
  }

  /** These options with another excerpt size. */
  public ResearchOptions withMaxCharsPerDoc(int value) {
    return copy(c -> c.maxCharsPerDoc = value);
  }

  /** These options with related rows switched on or off. */
  public ResearchOptions withIncludeRelated(boolean value) {
    return copy(c -> c.includeRelated = value);
  }

  /** These options with another related-row limit. */
  public ResearchOptions withRelatedLimit(int value) {
    return copy(c -> c.relatedLimit = value);
  }

  /**
   * These options with a topic brief forced on ({@code true}), off, or automatic ({@code null}).
   */
  public ResearchOptions withIncludeTopicBrief(Boolean value) {
    return copy(c -> c.includeTopicBrief = value);
  }

  /** These options with the vector lane on or off. */
  public ResearchOptions withSemantic(boolean value) {
    return copy(c -> c.semantic = value);
  }

  /** These options with another planner timeout. */
  public ResearchOptions withPlannerTimeout(Duration value) {
    return copy(c -> c.plannerTimeout = Objects.requireNonNull(value, "value"));
  }

  /**
   * These options letting the {@code ## Research} sections brain wrote into notes be evidence
   * ({@code true}; labelled as brain's wherever shown) or not (the default).
   */
  public ResearchOptions withIncludeBrainWritten(boolean value) {
    return copy(c -> c.includeBrainWritten = value);
  }

  private ResearchOptions copy(Consumer<Copy> change) {
    var copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** The fields of a {@code ResearchOptions} to change before building a checked copy. */
  private static final class Copy {
    List<String> sourceTypes;
    int limit;
    int maxCharsPerDoc;
    boolean includeRelated;
    int relatedLimit;
    Boolean includeTopicBrief;
    boolean semantic;
    Duration plannerTimeout;
    boolean includeBrainWritten;

    Copy(ResearchOptions o) {
      sourceTypes = o.sourceTypes;
      limit = o.limit;
      maxCharsPerDoc = o.maxCharsPerDoc;
      includeRelated = o.includeRelated;
      relatedLimit = o.relatedLimit;
      includeTopicBrief = o.includeTopicBrief;
      semantic = o.semantic;
      plannerTimeout = o.plannerTimeout;
      includeBrainWritten = o.includeBrainWritten;
    }

    ResearchOptions build() {
      return new ResearchOptions(
          sourceTypes,
          limit,
          maxCharsPerDoc,
          includeRelated,
          relatedLimit,
          includeTopicBrief,
          semantic,
          plannerTimeout,
          includeBrainWritten);
    }
  }

  private static void requireRange(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidSearchException(
          field, "must be between " + min + " and " + max + ", got " + value);
    }
  }
}
