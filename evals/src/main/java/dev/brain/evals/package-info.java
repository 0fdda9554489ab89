/**
 * Quality measurements run by the {@code brain eval} commands: retrieval on BEIR-layout datasets,
 * answers on question sets and on folders of documents, and research eval cases.
 *
 * <p>Each evaluation is a class with its JSON report record: {@link dev.brain.evals.BeirEvaluation}
 * ({@link dev.brain.evals.BeirReport}), {@link dev.brain.evals.AnswerEvaluation} ({@link
 * dev.brain.evals.AnswerReport}), {@link dev.brain.evals.DocumentAnswerEvaluation} ({@link
 * dev.brain.evals.DocumentAnswerReport}) and {@link dev.brain.evals.ResearchEvaluation} over {@link
 * dev.brain.evals.ResearchEvalCase}s ({@link dev.brain.evals.ResearchEvalReport}); {@link
 * dev.brain.evals.CaseProposal} drafts a case from a saved trace, {@link dev.brain.evals.TraceDiff}
 * compares a saved run with a new one, and {@link dev.brain.evals.EvalException} says why an
 * evaluation could not run. They are public for the server module's CLI and HTTP surfaces; the case
 * assertions, dataset readers and metrics are package-private.
 */
package dev.brain.evals;
