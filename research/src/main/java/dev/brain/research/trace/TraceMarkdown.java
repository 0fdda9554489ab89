package dev.brain.research.trace;

import dev.brain.research.pack.MergeReport;
import dev.brain.research.pack.RowInspection;
import dev.brain.research.run.JudgeVerdict;
import dev.brain.research.run.JudgeVerdict.WeakRow;
import dev.brain.research.run.ProgressEvent;
import dev.brain.research.run.RunMetrics;
import dev.brain.research.run.RunTraces;
import dev.brain.research.run.StopReason;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Truncation;
import dev.brain.research.synthesis.Verification;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders {@code run.md}: a trace read as a document. The answer and the stop reason come first,
 * then the timeline of events, the judge's reasoning, the evidence with why each row is there, the
 * synthesis input's budget, verification, metrics and the files beside it.
 */
final class TraceMarkdown {
  private TraceMarkdown() {}

  static String render(ResearchTrace t) {
    var md = new StringBuilder();
    md.append("# Research run ").append(t.run().runId()).append("\n\n");
    md.append("> ").append(oneLine(t.run().question())).append("\n\n");
    line(md, "Stop reason", "`" + wire(t.run().stopReason()) + "`");
    line(md, "Status", "`" + (t.run().status() == null ? "-" : t.run().status().wireName()) + "`");
    line(md, "Started", t.startedAt() + " · " + seconds(t.metrics().durationMs()) + " s");
    line(md, "Surface", t.surface());
    line(
        md,
        "Planner",
        t.settings().plannerModel() == null ? "deterministic" : t.settings().plannerModel());
    line(md, "Synthesis", t.settings().synthesisModel());
    if (!t.run().retrievalQuestion().equals(t.run().question())) {
      line(md, "Retrieval question", oneLine(t.run().retrievalQuestion()));
    }
    if (t.run().failure() != null) {
      line(
          md,
          "Failure",
          t.run().failure().stage().wireName()
              + " · `"
              + t.run().failure().code()
              + "` · "
              + t.run().failure().message());
    }
    md.append('\n');
    answer(md, t);
    timeline(md, t.run().events());
    judge(md, "Judge", t.run().judge());
    if (t.run().finalJudge() != null && t.run().finalJudge() != t.run().judge()) {
      judge(md, "Judge after the extra pass", t.run().finalJudge());
    }
    merge(md, t.run().merge());
    merge(md, t.run().pinned());
    inspections(md, t.run().inspections());
    EvidenceMarkdown.evidence(md, t.run().pack());
    EvidenceMarkdown.ranking(md, t.run().events());
    preparation(md, t.run().preparedSynthesis());
    verification(md, t.run().verification());
    continuity(md, t.continuity());
    metrics(md, t);
    files(md, t.artifacts());
    return md.toString();
  }

  private static void answer(StringBuilder md, ResearchTrace t) {
    md.append("## Answer\n\n");
    SynthesisResult s = t.run().synthesis();
    if (s == null && "note".equals(t.surface())) {
      md.append(
          "_A note's research: no single answer; the section it wrote is in"
              + " `research-section.md` (see Files)._\n\n");
      return;
    }
    if (s == null) {
      md.append("_No answer: the run stopped before synthesis._\n\n");
      return;
    }
    if (t.run().verification() != null && !t.run().verification().passed()) {
      md.append("_Rejected by verification; not a normal answer._\n\n");
    }
    if (s.answer() == null) {
      md.append("_No answer (")
          .append(s.answerStatus().wireName())
          .append(s.error() == null ? "" : ": " + s.error())
          .append(")._\n\n");
    } else {
      md.append(s.answer().strip()).append("\n\n");
    }
    if (!s.answerWarnings().isEmpty()) {
      md.append("Warnings: ")
          .append(String.join(", ", s.answerWarnings().stream().map(w -> w.wireName()).toList()))
          .append("\n\n");
    }
    if (!s.citations().isEmpty()) {
      md.append("Citations:\n\n");
      for (Citation c : s.citations()) {
        md.append("- `")
            .append(c.sourceKey())
            .append('`')
            .append(c.title() == null ? "" : " " + c.title())
            .append(
                c.notePath() != null
                    ? " — " + c.notePath()
                    : c.url() != null ? " — " + c.url() : "")
            .append(c.inPack() ? "" : " **(not in the pack)**")
            .append('\n');
      }
      md.append('\n');
    }
    md.append("Model `")
        .append(s.model())
        .append("`, prompt `")
        .append(s.promptVersion())
        .append("`.\n\n");
  }

  private static void timeline(StringBuilder md, List<ProgressEvent> events) {
    md.append("## Timeline\n\n");
    md.append("| # | +ms | stage | status | message |\n|---:|---:|---|---|---|\n");
    for (ProgressEvent e : events) {
      md.append("| ")
          .append(e.seq())
          .append(" | ")
          .append(e.elapsedMs())
          .append(" | ")
          .append(e.stage().wireName())
          .append(" | ")
          .append(e.status().wireName())
          .append(" | ")
          .append(cell(e.message()))
          .append(" |\n");
    }
    md.append('\n');
  }

  private static void judge(StringBuilder md, String title, JudgeVerdict v) {
    if (v == null) {
      return;
    }
    md.append("## ").append(title).append("\n\n");
    md.append("**")
        .append(v.verdict().wireName())
        .append("** — ")
        .append(v.reason())
        .append("\n\n");
    if (!v.missingConcepts().isEmpty()) {
      md.append("- Missing concepts: ").append(String.join(", ", v.missingConcepts())).append('\n');
    }
    md.append("- Retry action: `").append(v.retryAction().wireName()).append('`');
    if (v.retryQuery() != null) {
      md.append(" — query \"").append(v.retryQuery()).append('"');
    }
    if (v.expansionLookup() != null) {
      md.append(" — from `").append(v.expansionLookup()).append('`');
    }
    md.append('\n');
    for (WeakRow w : v.weakRows()) {
      md.append("- Weak row `").append(w.sourceKey()).append("`: ").append(w.reason()).append('\n');
    }
    md.append('\n');
  }

  private static void merge(StringBuilder md, MergeReport m) {
    if (m == null) {
      return;
    }
    md.append("## Merge: ").append(m.action().replace('_', ' ')).append("\n\n");
    if (m.query() != null) {
      md.append("- Query: \"").append(m.query()).append("\"\n");
    }
    if (m.lookup() != null) {
      md.append("- From: `").append(m.lookup()).append("`\n");
    }
    md.append("- Preserved: ").append(m.preserved().size()).append(" rows\n");
    md.append("- Accepted: ").append(keys(m.accepted())).append('\n');
    for (MergeReport.Rejected r : m.rejected()) {
      md.append("- Rejected `").append(r.sourceKey()).append("`: ").append(r.reason()).append('\n');
    }
    md.append('\n');
  }

  private static void inspections(StringBuilder md, List<RowInspection> inspections) {
    if (inspections.isEmpty()) {
      return;
    }
    md.append("## Inspection\n\n");
    for (RowInspection i : inspections) {
      md.append("- `")
          .append(i.sourceKey())
          .append("` ")
          .append(i.textSource())
          .append(" text, window ")
          .append(i.windowStart())
          .append('–')
          .append(i.windowEnd())
          .append(" of ")
          .append(i.textChars())
          .append(i.used() ? " (used)" : " (kept the excerpt)");
      if (!i.newlyMatched().isEmpty()) {
        md.append("; found ").append(String.join(", ", i.newlyMatched()));
      }
      if (!i.missingConcepts().isEmpty()) {
        md.append("; still missing ").append(String.join(", ", i.missingConcepts()));
      }
      md.append('\n');
    }
    md.append('\n');
  }

  private static void preparation(StringBuilder md, PreparedSynthesis p) {
    if (p == null) {
      return;
    }
    Truncation t = p.truncation();
    md.append("## Synthesis input\n\n");
    md.append("- ")
        .append(p.citableSources().size())
        .append(" rows, ")
        .append(t.evidenceCharsUsed())
        .append(" of ")
        .append(t.evidenceBudgetChars())
        .append(" evidence characters\n");
    if (!t.droppedSourceKeys().isEmpty()) {
      md.append("- Dropped: ").append(keys(t.droppedSourceKeys())).append('\n');
    }
    if (t.partiallyTrimmedSourceKey() != null) {
      md.append("- Trimmed: `").append(t.partiallyTrimmedSourceKey()).append("`\n");
    }
    md.append("- Full text: `").append(RunTraces.SYNTHESIS_INPUT).append("`\n\n");
  }

  private static void verification(StringBuilder md, Verification v) {
    if (v == null) {
      return;
    }
    md.append("## Verification\n\n");
    md.append(v.passed() ? "Passed every hard gate.\n" : "**Failed:**\n");
    for (String reason : v.reasons()) {
      md.append("- ").append(reason).append('\n');
    }
    if (!v.warnings().isEmpty()) {
      md.append("\nSoft gates (advisory; the answer stands):\n");
      for (var w : v.warnings()) {
        md.append("- ").append(w.message()).append(": ").append(oneLine(w.excerpt())).append('\n');
      }
    }
    md.append('\n');
  }

  private static void continuity(StringBuilder md, ResearchTrace.Continuity c) {
    if (c == null) {
      return;
    }
    md.append("## Chat continuity\n\n");
    md.append("- Prior questions: ").append(c.priorQuestions().size()).append('\n');
    for (String q : c.priorQuestions()) {
      md.append("  - ").append(oneLine(q)).append('\n');
    }
    md.append("- Pinned evidence: ").append(keys(c.pinnedEvidenceKeys())).append('\n');
    md.append("- Prior evidence (candidates of a follow-up only, else recorded): ")
        .append(keys(c.priorEvidenceKeys()))
        .append("\n\n");
  }

  private static void metrics(StringBuilder md, ResearchTrace t) {
    RunMetrics m = t.metrics();
    md.append("## Metrics\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "- %d steps · %d variants · %d candidates before dedupe, %d after · %d evidence rows"
                + " · %d inspected%n",
            m.steps(),
            m.variantCount(),
            m.candidatesBeforeDedupe(),
            m.candidatesAfterDedupe(),
            m.evidenceRows(),
            m.inspectedRows()));
    md.append(
        String.format(
            Locale.ROOT,
            "- %d model calls · %d chars to the planner · %d chars to the synthesis model · %d"
                + " chars of synthesis input · %d tokens streamed%n",
            m.modelCalls(),
            m.plannerChars(),
            m.synthesisChars(),
            m.synthesisInputChars(),
            m.tokensStreamed()));
    md.append("- Stage timings (ms): ");
    md.append(
        String.join(
            ", ",
            t.run().timings().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue())
                .toList()));
    md.append("\n\n");
  }

  private static void files(StringBuilder md, Map<String, String> artifacts) {
    md.append("## Files\n\n- `").append(TraceStore.RUN_JSON).append("` — the structured trace\n");
    artifacts.forEach(
        (what, name) ->
            md.append("- `")
                .append(name)
                .append("` — ")
                .append(what.replace('_', ' '))
                .append('\n'));
  }

  private static void line(StringBuilder md, String label, String value) {
    md.append("- **").append(label).append(":** ").append(value).append('\n');
  }

  private static String keys(List<String> keys) {
    return keys.isEmpty() ? "none" : "`" + String.join("`, `", keys) + "`";
  }

  private static String wire(StopReason reason) {
    return reason == null ? "-" : reason.wireName();
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.1f", ms / 1000.0);
  }

  static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("\\s+", " ").strip();
  }

  private static String cell(String s) {
    return oneLine(s).replace("|", "\\|");
  }
}
