package dev.brain.research.run;

import dev.brain.models.chat.ChatModel;
import dev.brain.research.pack.MergeReport;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.PlannerPrompt;
import dev.brain.research.plan.Strategy;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.retrieval.EvidenceRow;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the stages of a run say: event messages and data, sidecar texts, small formatting. */
final class StageData {
  private StageData() {}

  static String planSummary(Strategy s) {
    var required = s.required().stream().map(Concept::preferred).toList();
    return "Plan: "
        + s.family().wireName()
        + "; required "
        + String.join(", ", required)
        + "; "
        + s.variants().size()
        + " variants";
  }

  static Map<String, Object> planData(Strategy s) {
    return data(
        "family",
        s.family().wireName(),
        "text_query",
        s.textQuery(),
        "required",
        s.required().stream().map(Concept::key).toList(),
        "optional",
        s.concepts().stream().filter(c -> !c.required()).map(Concept::key).toList(),
        "variants",
        s.variants().stream().map(Strategy.Variant::query).toList());
  }

  static Map<String, Object> verdictData(JudgeVerdict v) {
    return data(
        "verdict",
        v.verdict().wireName(),
        "missing_concepts",
        v.missingConcepts(),
        "weak_rows",
        v.weakRows().stream().map(JudgeVerdict.WeakRow::sourceKey).toList(),
        "retry_action",
        v.retryAction().wireName(),
        "retry_query",
        v.retryQuery(),
        "expansion_lookup",
        v.expansionLookup());
  }

  static Map<String, Object> mergeData(MergeReport m) {
    return data(
        "preserved",
        m.preserved().size(),
        "accepted",
        m.accepted(),
        "rejected",
        m.rejected().stream().map(MergeReport.Rejected::sourceKey).toList());
  }

  static String plannerInput(String input) {
    return "# Planner input\n\nPrompt version: "
        + PlannerPrompt.VERSION
        + "\n\n## System\n\n"
        + PlannerPrompt.SYSTEM.strip()
        + "\n\n## User\n\n"
        + input.strip()
        + "\n";
  }

  static String synthesisInput(PreparedSynthesis p) {
    return "# Synthesis input\n\nPrompt version: "
        + p.promptVersion()
        + "\n\n## System\n\n"
        + p.systemPrompt().strip()
        + "\n\n## Input\n\n"
        + p.input().strip()
        + "\n";
  }

  static String modelId(ChatModel model) {
    return model == null ? null : model.id();
  }

  static List<String> keys(List<EvidenceRow> rows) {
    return rows.stream().map(EvidenceRow::sourceKey).toList();
  }

  static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  static long ms(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  static String seconds(Duration d) {
    return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
  }

  static String oneLine(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }

  /** An ordered map of alternating keys and values; {@code null} values are left out. */
  static Map<String, Object> data(Object... pairs) {
    var out = new LinkedHashMap<String, Object>();
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      if (pairs[i + 1] != null) {
        out.put((String) pairs[i], pairs[i + 1]);
      }
    }
    return out;
  }

  static Map<String, Object> merge(Map<String, Object> a, Map<String, Object> b) {
    var out = new LinkedHashMap<>(a);
    out.putAll(b);
    return out;
  }

  /** The id of the model that writes the answer ({@code extractive} without one). */
  static String synthesisModelId(RunRequest request) {
    return request.model() == null ? SynthesisResult.EXTRACTIVE : request.model().id();
  }
}
