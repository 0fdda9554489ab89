package dev.brain.research.plan;

import dev.brain.retrieval.Lane;
import java.util.List;
import java.util.Set;

/**
 * The deterministic understanding of a question, before retrieval: what {@link QueryAnalyzer}
 * produces and a model planner may extend.
 *
 * @param question the input as given
 * @param currentQuestion the question being answered (the current one of a chat-shaped prompt)
 * @param textQuery the main search text
 * @param family the question's shape
 * @param queryTerms concept words in question order
 * @param tagQueries tag forms to look for, explicit {@code #tags} first
 * @param concepts the question's ideas
 * @param variants the searches to run, main first
 * @param topic the topic of a broad question, or {@code null}
 * @param sourceHints source types (or evidence roles such as {@code ocr}) the question names
 * @param lookupKeys record keys written in the question
 * @param followUp how a short chat follow-up was read, or {@code null} for a question of its own
 *     <p>Research-internal: public only for the other research packages; not API.
 */
public record Strategy(
    String question,
    String currentQuestion,
    String textQuery,
    QueryFamily family,
    List<String> queryTerms,
    List<String> tagQueries,
    List<Concept> concepts,
    List<Variant> variants,
    String topic,
    Set<String> sourceHints,
    List<String> lookupKeys,
    FollowUp followUp) {

  public Strategy {
    queryTerms = List.copyOf(queryTerms);
    tagQueries = List.copyOf(tagQueries);
    concepts = List.copyOf(concepts);
    variants = List.copyOf(variants);
    sourceHints = Set.copyOf(sourceHints);
    lookupKeys = List.copyOf(lookupKeys);
  }

  /**
   * One search of the plan.
   *
   * @param query text for the retriever
   * @param reason why it exists (shown in the plan)
   * @param lanes the lanes it may use, or {@code null} for the request's lanes
   * @param weight its weight when rankings of the variants are combined (main search 1.0)
   * @param origin {@code deterministic} or {@code model}
   */
  public record Variant(
      String query, String reason, Set<Lane> lanes, double weight, String origin) {
    public Variant {
      lanes = lanes == null ? null : Set.copyOf(lanes);
    }

    static Variant of(String query, String reason, double weight) {
      return new Variant(query, reason, null, weight, "deterministic");
    }

    public QueryVariant wire() {
      return new QueryVariant(query, reason);
    }
  }

  /** This strategy with other concepts and variants (after merging a model plan). */
  Strategy with(List<Concept> newConcepts, List<Variant> newVariants) {
    return new Strategy(
        question,
        currentQuestion,
        textQuery,
        family,
        queryTerms,
        tagQueries,
        newConcepts,
        newVariants,
        topic,
        sourceHints,
        lookupKeys,
        followUp);
  }

  /**
   * This strategy (of a follow-up's resolved question) as the plan of the chat input {@code
   * question}, whose current question is {@code current}.
   */
  Strategy asFollowUp(String question, String current, FollowUp how) {
    return new Strategy(
        question,
        current,
        textQuery,
        family,
        queryTerms,
        tagQueries,
        concepts,
        variants,
        topic,
        sourceHints,
        lookupKeys,
        how);
  }

  /** The concepts evidence must match. */
  public List<Concept> required() {
    return concepts.stream().filter(Concept::required).toList();
  }
}
