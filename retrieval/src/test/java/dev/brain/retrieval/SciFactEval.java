package dev.brain.retrieval;

import java.nio.file.Path;
import java.util.List;

/** Placeholder; filled in once the index is built. */
final class SciFactEval {
  private SciFactEval() {}

  static void run(Path dataset, Path cache, List<String> args) {
    throw new UnsupportedOperationException("not yet");
  }
}
