package dev.brain.research.run;

import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.Objects;

/**
 * Runs bounded, traced research: the research module's runner ({@code research_run.v1}). One runner
 * per index and data directory is enough; it is thread-safe and any number of runs may go at once,
 * each on its caller's thread.
 *
 * <pre>{@code
 * var runner = new ResearchRunner(retriever, new TraceStore(dataDir));
 * RunResult run = runner.run(RunRequest.of("what grind size for the Niche Zero?"), event ->
 *     System.err.println(event.stage().wireName() + " " + event.status().wireName()
 *         + " " + event.message()));
 * if (run.normalAnswer()) System.out.println(run.synthesis().answer());
 * System.out.println("trace: " + run.tracePath());
 * }</pre>
 *
 * <p>A run: plan (deterministic, or with a model planner) → retrieve (no related rows) → inspect
 * the top rows → judge → at most one focused retry or one related expansion → prepare the synthesis
 * input → synthesize (always attempted in a normal run) → verify → write the trace. It ends with
 * one of the {@link StopReason}s. Progress events reach the listener as each stage starts and ends;
 * a chat model's answer tokens reach {@link RunListener#onToken}.
 *
 * <p>Cancel a run by interrupting the thread that runs it (the web server does so when the client
 * goes away): a chat-model call in flight is aborted, the run stops with {@code timeout_exceeded}
 * and failure code {@code cancelled}, its partial trace is still written, and the thread's
 * interrupt status is set again when {@link #run} returns.
 */
public final class ResearchRunner {

  private final Retriever retriever;
  private final RunTraces traces;

  /**
   * A runner over {@code retriever}'s index, writing traces to {@code traces} ({@code null}: never
   * write traces, whatever the request says).
   */
  public ResearchRunner(Retriever retriever, RunTraces traces) {
    this.retriever = Objects.requireNonNull(retriever, "retriever");
    this.traces = traces;
  }

  /**
   * Runs one research and returns its result; never throws for model failures, timeouts or weak
   * evidence (the stop reason says what happened).
   *
   * @param listener receives progress events and answer tokens (may be {@code null})
   * @throws InvalidSearchException if the question has no searchable word or an option is invalid
   *     (an unknown source type); no trace is written
   * @throws IOException if the index cannot be read (the partial trace is written first)
   */
  public RunResult run(RunRequest request, RunListener listener) throws IOException {
    Objects.requireNonNull(request, "request");
    return new ResearchRun(retriever, traces, request, listener).execute();
  }
}
