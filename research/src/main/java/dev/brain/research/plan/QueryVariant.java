package dev.brain.research.plan;

/**
 * One search the pack builder ran for the question.
 *
 * @param query the text given to the retriever
 * @param reason why this variant exists ({@code "question without filler words"}, {@code "synonyms:
 *     podcast -> episode, transcript"}); says when a variant used only some lanes
 */
public record QueryVariant(String query, String reason) {}
