package dev.brain.server.cli;

import dev.brain.research.run.ProgressEvent;
import dev.brain.research.run.RunListener;
import dev.brain.research.run.RunStage;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Prints a research run's progress events as a live timeline, one line per event:
 *
 * <pre>
 *   0.00s ▸ planning      Planning deterministically
 *   0.01s ✓ planning      Plan: fact_lookup; required grind, niche zero; 3 variants
 *   0.42s ✓ retrieval     Found 8 evidence rows; top: note:vault/coffee/Niche Zero.md
 * </pre>
 *
 * The run's own start and end lines are left out (the command prints the outcome itself).
 */
final class RunTimeline implements RunListener {

  private final PrintWriter err;

  RunTimeline(PrintWriter err) {
    this.err = err;
  }

  @Override
  public void onProgress(ProgressEvent e) {
    if (e.stage() == RunStage.RUN) {
      return;
    }
    err.printf(
        Locale.ROOT,
        "%6.2fs %s %-12s %s%n",
        e.elapsedMs() / 1000.0,
        mark(e.status()),
        e.stage().wireName(),
        TerminalText.line(e.message()));
    err.flush();
  }

  private static String mark(ProgressEvent.Status status) {
    return switch (status) {
      case STARTED -> "▸";
      case COMPLETED -> "✓";
      case SKIPPED -> "–";
      case FAILED -> "✗";
    };
  }
}
