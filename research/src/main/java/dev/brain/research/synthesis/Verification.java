package dev.brain.research.synthesis;

import java.util.List;

/**
 * The deterministic checks an answer must pass before it is shown: every cited key is a row of the
 * pack (exact match, prefix included), an evidence-backed answer cites at least one key, a pack
 * without evidence never yields a normal answer, and truncation is surfaced. An answer that fails
 * is shown as {@code verification_failed}, never as a normal answer.
 *
 * @param passed whether every hard gate passed
 * @param reasons what failed, one sentence each (empty when passed)
 */
public record Verification(boolean passed, List<String> reasons) {
  public Verification {
    reasons = List.copyOf(reasons);
  }
}
