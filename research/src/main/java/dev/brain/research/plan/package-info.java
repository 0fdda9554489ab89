/**
 * Query understanding: what a question asks and how to search for it, with no model at all.
 *
 * <p>{@link dev.brain.research.plan.QueryAnalyzer} is the entry: it turns a question ({@link
 * dev.brain.research.plan.QuestionText} strips chat framing) into a {@link
 * dev.brain.research.plan.Strategy} (family, concepts, variants) using the {@code Vocabulary} word
 * lists and synonyms, {@code FamilyRules} and {@code VariantBuilder}. {@link
 * dev.brain.research.plan.ModelPlanner} optionally merges a chat model's JSON plan into it. The
 * wire shape of a plan is {@link dev.brain.research.plan.QueryPlan}; {@link
 * dev.brain.research.plan.Words} is the tokenizer and stemmer the other research packages share.
 */
package dev.brain.research.plan;
