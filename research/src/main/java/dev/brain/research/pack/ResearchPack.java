package dev.brain.research.pack;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.brain.research.plan.QueryPlan;
import dev.brain.retrieval.EvidenceRow;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The evidence gathered for one question ({@code research_pack.v1}): the plan, the ranked evidence
 * with the provenance of every rank, exact-tag examples, coverage, an optional topic brief and
 * suggested next steps. Read-only research produces it; synthesis and verification consume it.
 *
 * @param schemaVersion always {@value #SCHEMA_VERSION}
 * @param question the question as asked
 * @param mode {@value #MODE_EVIDENCE_ONLY} or {@value #MODE_TOPIC_BRIEF_AND_EVIDENCE}
 * @param queryPlan how the question was searched
 * @param coverage what the evidence covers and leaves out
 * @param evidence ranked rows, then related rows (marked by {@code related_to}/{@code
 *     relationship}); empty when nothing matched the question's key concepts
 * @param exactTagEvidence up to {@value #MAX_EXACT_TAG_EVIDENCE} records whose user tags equal a
 *     tag query
 * @param topicBrief the topic overview, or {@code null} (omitted from JSON) when none was built
 * @param nextSteps suggested follow-ups
 */
@JsonPropertyOrder({
  "schema_version",
  "question",
  "mode",
  "query_plan",
  "coverage",
  "evidence",
  "exact_tag_evidence",
  "topic_brief",
  "next_steps"
})
public record ResearchPack(
    @JsonProperty("schema_version") String schemaVersion,
    String question,
    String mode,
    @JsonProperty("query_plan") QueryPlan queryPlan,
    Coverage coverage,
    List<EvidenceRow> evidence,
    @JsonProperty("exact_tag_evidence") List<EvidenceRow> exactTagEvidence,
    @JsonProperty("topic_brief") @JsonInclude(JsonInclude.Include.NON_NULL) TopicBrief topicBrief,
    @JsonProperty("next_steps") List<NextStep> nextSteps) {

  /** The schema version of this shape. */
  public static final String SCHEMA_VERSION = "research_pack.v1";

  /** {@link #mode()} of a pack without a topic brief. */
  public static final String MODE_EVIDENCE_ONLY = "evidence_only";

  /** {@link #mode()} of a pack with a topic brief. */
  public static final String MODE_TOPIC_BRIEF_AND_EVIDENCE = "topic_brief_and_evidence";

  /** Most rows in {@link #exactTagEvidence()}. */
  public static final int MAX_EXACT_TAG_EVIDENCE = 3;

  public ResearchPack {
    Objects.requireNonNull(queryPlan, "queryPlan");
    Objects.requireNonNull(coverage, "coverage");
    evidence = List.copyOf(evidence);
    exactTagEvidence = List.copyOf(exactTagEvidence);
    nextSteps = List.copyOf(nextSteps);
  }

  /**
   * Whether the pack holds any evidence row. A pack without evidence never gets a normal answer.
   */
  @JsonIgnore
  public boolean hasEvidence() {
    return !evidence.isEmpty();
  }

  /** The evidence row with exactly this key (evidence first, then exact-tag evidence), if any. */
  public Optional<EvidenceRow> find(String sourceKey) {
    return Stream.concat(evidence.stream(), exactTagEvidence.stream())
        .filter(r -> r.sourceKey().equals(sourceKey))
        .findFirst();
  }
}
