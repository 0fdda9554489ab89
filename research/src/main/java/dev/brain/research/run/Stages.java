package dev.brain.research.run;

import static dev.brain.research.run.StageData.data;
import static dev.brain.research.run.StageData.merge;
import static dev.brain.research.run.StageData.ms;
import static dev.brain.research.run.StageData.seconds;

import dev.brain.research.run.ProgressEvent.Status;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stage bookkeeping of one run: steps, per-stage timings, progress events to the listener, and
 * the bounds checked at every stage boundary (step budget, deadline, cancellation, hard stage
 * budgets). A bound that is hit throws {@link RunStop}.
 */
final class Stages {
  private final RunBudgets budgets;
  private final RunListener listener;
  private final List<ProgressEvent> events = new ArrayList<>();
  private final Map<String, Long> timings = new LinkedHashMap<>();
  private RunClock clock;
  private int steps;
  private long stageStart;
  private RunStage current = RunStage.RUN;

  Stages(RunBudgets budgets, RunListener listener) {
    this.budgets = budgets;
    this.listener = listener;
  }

  /** Starts the clock of the run's deadline; events before this are stamped 0 ms. */
  void start(RunClock value) {
    clock = value;
  }

  RunClock clock() {
    return clock;
  }

  /** The stage running now (or the last one that ran). */
  RunStage current() {
    return current;
  }

  int steps() {
    return steps;
  }

  List<ProgressEvent> events() {
    return events;
  }

  Map<String, Long> timings() {
    return timings;
  }

  long elapsedMs() {
    return clock == null ? 0 : clock.elapsedMs();
  }

  /** Starts a stage: deadline and cancellation first, then the step budget. */
  void begin(RunStage stage, String message, Map<String, Object> data) {
    current = stage;
    checkStop(stage);
    if (steps >= budgets.maxSteps()) {
      throw new RunStop(
          StopReason.MAX_STEPS_REACHED,
          new RunFailure(
              stage,
              RunFailure.MAX_STEPS,
              "the step budget of "
                  + budgets.maxSteps()
                  + " was used up before "
                  + stage.wireName()));
    }
    steps++;
    stageStart = System.nanoTime();
    emit(stage, Status.STARTED, message, data);
  }

  /** Stops the run when the deadline passed or the caller cancelled it. */
  void checkStop(RunStage stage) {
    if (clock.expired()) {
      throw new RunStop(
          StopReason.TIMEOUT_EXCEEDED,
          new RunFailure(
              stage,
              RunFailure.DEADLINE_EXCEEDED,
              "the run's deadline of "
                  + seconds(budgets.deadline())
                  + " passed during "
                  + stage.wireName()));
    }
    if (interrupted()) {
      throw new RunStop(
          StopReason.CANCELLED,
          new RunFailure(
              stage, RunFailure.CANCELLED, "the run was cancelled during " + stage.wireName()));
    }
  }

  static boolean interrupted() {
    return Thread.currentThread().isInterrupted();
  }

  void end(RunStage stage, Status status, String message, Map<String, Object> data) {
    long took = stageTiming(stage);
    emit(stage, status, message, merge(data, data("duration_ms", took)));
  }

  /** Ends a stage whose budget is hard: an overrun stops the run. */
  void endHard(RunStage stage, String message, Map<String, Object> data) {
    long took = stageTiming(stage);
    Duration budget = budgets.budget(stage);
    if (budget != null && took > budget.toMillis()) {
      throw new RunStop(
          StopReason.TIMEOUT_EXCEEDED,
          new RunFailure(
              stage,
              RunFailure.STAGE_BUDGET_EXCEEDED,
              stage.wireName()
                  + " took "
                  + took
                  + " ms, over its budget of "
                  + budget.toMillis()
                  + " ms"));
    }
    emit(stage, Status.COMPLETED, message, merge(data, data("duration_ms", took)));
  }

  /** Adds the time since the stage began to its timing; returns it in milliseconds. */
  long stageTiming(RunStage stage) {
    long took = ms(stageStart);
    timings.merge(stage.wireName(), took, Long::sum);
    return took;
  }

  /** Records a timing measured outside {@link #begin} (the trace stage). */
  void timing(RunStage stage, long startNanos) {
    timings.put(stage.wireName(), ms(startNanos));
  }

  void emit(RunStage stage, Status status, String message, Map<String, Object> data) {
    var event =
        new ProgressEvent(
            events.size() + 1, stage, status, message, data, elapsedMs(), Instant.now().toString());
    events.add(event);
    try {
      listener.onProgress(event);
    } catch (RuntimeException e) {
      // A failing listener (a client gone away) never breaks the run.
    }
  }
}
