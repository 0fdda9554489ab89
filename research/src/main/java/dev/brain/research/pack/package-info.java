/**
 * Research packs ({@code research_pack.v1}): evidence gathered from several retrievals of one
 * strategy, ranked by concept coverage, with coverage counts, exact-tag examples, a topic brief and
 * next steps.
 *
 * <p>{@link dev.brain.research.pack.PackBuilder} is the entry: one {@code Retriever} search per
 * variant, {@code EvidenceRanking}, {@code CoverageBuilder}, {@code TopicBriefBuilder}; the result
 * is a {@link dev.brain.research.pack.ResearchPack}. {@link dev.brain.research.pack.EvidenceMerge}
 * merges a focused retry, a related expansion or pinned records into a pack; {@link
 * dev.brain.research.pack.Inspector} reads wider windows of the top rows; {@link
 * dev.brain.research.pack.ConceptMatch} is the one test of which concepts a row covers.
 */
package dev.brain.research.pack;
