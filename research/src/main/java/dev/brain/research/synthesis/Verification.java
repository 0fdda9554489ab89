package dev.brain.research.synthesis;

import java.util.List;

/**
 * The deterministic checks an answer must pass before it is shown: every cited key is a row of the
 * pack (exact match, prefix included), an evidence-backed answer cites at least one key, a pack
 * without evidence never yields a normal answer, and truncation is surfaced. An answer that fails
 * is shown as {@code verification_failed}, never as a normal answer. The soft gates' findings
 * ({@code warnings}) are advisory: recorded and shown, never a failure.
 *
 * @param passed whether every hard gate passed
 * @param reasons what failed, one sentence each (empty when passed)
 * @param warnings what the soft gates found (empty for none), e.g. a paragraph that states a fact
 *     without a citation
 */
public record Verification(boolean passed, List<String> reasons, List<SoftWarning> warnings) {
  public Verification {
    reasons = List.copyOf(reasons);
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }

  /** A verification without soft warnings. */
  public Verification(boolean passed, List<String> reasons) {
    this(passed, reasons, List.of());
  }
}
