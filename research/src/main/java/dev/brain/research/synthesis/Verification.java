package dev.brain.research.synthesis;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The deterministic checks an answer must pass before it is shown: every cited key is a row of the
 * pack (exact match, prefix included), an evidence-backed answer cites at least one key, a pack
 * without evidence never yields a normal answer, and truncation is surfaced. An answer that fails
 * is shown as {@code verification_failed}, never as a normal answer. Soft gates only warn: a
 * paragraph that states something without citing a record is named in {@code warnings}, and the
 * answer passes or fails as it would without it.
 *
 * @param passed whether every hard gate passed
 * @param reasons what failed, one sentence each (empty when passed)
 * @param warnings what the soft gates found, one sentence each (omitted from JSON when empty)
 */
public record Verification(
    boolean passed,
    List<String> reasons,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {
  public Verification {
    reasons = List.copyOf(reasons);
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }

  /** A verification without warnings. */
  public Verification(boolean passed, List<String> reasons) {
    this(passed, reasons, List.of());
  }
}
