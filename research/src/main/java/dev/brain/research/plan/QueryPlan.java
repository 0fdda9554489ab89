package dev.brain.research.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * How a question was searched: the {@code query_plan} of a {@link
 * dev.brain.research.pack.ResearchPack}.
 *
 * @param textQuery the question without filler and stop words: the main search text
 * @param queryFamily the shape of the question
 * @param queryTerms every concept word, lower-case, in question order
 * @param tagQueries user-tag forms searched by the exact-tag lane ({@code search-engine}); explicit
 *     {@code #tags} first
 * @param queryVariants the searches that were run (at most {@value #MAX_VARIANTS}), main search
 *     first
 * @param concepts the question's ideas with their synonym families and roles
 * @param planner {@value #DETERMINISTIC} or {@value #MODEL_ASSISTED}
 * @param plannerModel the chat model asked for a plan, or {@code null} when none was asked
 * @param plannerError why the model plan was not used (the deterministic plan was), or {@code null}
 * @param sourceTypes the source types evidence was restricted to (empty: all)
 * @param retrievalLanes the retrieval lanes used ({@code bm25}, {@code vector}, {@code exact_tag},
 *     {@code related})
 * @param limit most evidence rows (related rows come on top)
 * @param maxCharsPerDoc longest excerpt of one evidence row
 * @param includeRelated whether link neighbours of the top rows were added
 * @param relatedLimit most related rows
 * @param topic the inferred or requested topic of a broad question, or {@code null}
 * @param includeTopicBrief whether a topic brief was built
 * @param followUp how a short chat follow-up was read (the earlier question it continues and the
 *     question it was planned as); omitted for a question of its own
 */
public record QueryPlan(
    @JsonProperty("text_query") String textQuery,
    @JsonProperty("query_family") QueryFamily queryFamily,
    @JsonProperty("query_terms") List<String> queryTerms,
    @JsonProperty("tag_queries") List<String> tagQueries,
    @JsonProperty("query_variants") List<QueryVariant> queryVariants,
    List<Concept> concepts,
    String planner,
    @JsonProperty("planner_model") String plannerModel,
    @JsonProperty("planner_error") String plannerError,
    @JsonProperty("source_types") List<String> sourceTypes,
    @JsonProperty("retrieval_lanes") List<String> retrievalLanes,
    int limit,
    @JsonProperty("max_chars_per_doc") int maxCharsPerDoc,
    @JsonProperty("include_related") boolean includeRelated,
    @JsonProperty("related_limit") int relatedLimit,
    String topic,
    @JsonProperty("include_topic_brief") boolean includeTopicBrief,
    @JsonProperty("follow_up") @JsonInclude(JsonInclude.Include.NON_NULL) FollowUp followUp) {

  /** Most query variants in a plan. */
  public static final int MAX_VARIANTS = 8;

  /** {@link #planner()} of a plan built without a model. */
  public static final String DETERMINISTIC = "deterministic";

  /** {@link #planner()} of a plan a chat model contributed to. */
  public static final String MODEL_ASSISTED = "model_assisted";

  public QueryPlan {
    queryTerms = List.copyOf(queryTerms);
    tagQueries = List.copyOf(tagQueries);
    queryVariants = List.copyOf(queryVariants);
    concepts = List.copyOf(concepts);
    sourceTypes = List.copyOf(sourceTypes);
    retrievalLanes = List.copyOf(retrievalLanes);
  }

  /** The concepts evidence must match. */
  @JsonIgnore
  public List<Concept> requiredConcepts() {
    return concepts.stream().filter(Concept::required).toList();
  }
}
