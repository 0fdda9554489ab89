/**
 * Answers from a research pack ({@code research_synthesis.v1}) and their verification.
 *
 * <p>{@link dev.brain.research.synthesis.SynthesisInput} is the entry: it prepares the budgeted,
 * deterministic input ({@link dev.brain.research.synthesis.PreparedSynthesis}); {@link
 * dev.brain.research.synthesis.ExtractiveSynthesizer} (no model) or {@link
 * dev.brain.research.synthesis.ModelSynthesizer} (a chat model) writes the {@link
 * dev.brain.research.synthesis.SynthesisResult}; {@link dev.brain.research.synthesis.Verifier}
 * checks its citations against the pack before anything is shown ({@link
 * dev.brain.research.synthesis.ResearchResult} holds all three).
 */
package dev.brain.research.synthesis;
