package dev.brain.server.cli;

import dev.brain.research.pack.NextStep;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.Concept;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.StopReason;
import dev.brain.research.synthesis.AnswerWarning;
import dev.brain.research.synthesis.Citation;
import dev.brain.research.synthesis.ResearchResult;
import dev.brain.research.synthesis.ResearchResult.Outcome;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Truncation;
import dev.brain.retrieval.EvidenceRow;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code brain research} prints for a person: a run's answer with its sources, warnings and
 * stop reason, or a research pack's plan, coverage and evidence. {@code --json} prints the records
 * themselves instead.
 */
final class ResearchOutput {
  private ResearchOutput() {}

  /** A run's outcome: the answer (or why there is none), its sources, and the trace path. */
  static void printRun(RunResult run, PrintWriter out) {
    if (run.synthesis() == null) {
      out.println(
          "No answer: the run stopped ("
              + run.stopReason().wireName()
              + (run.failure() == null ? "" : ": " + run.failure().message())
              + ").");
      if (run.pack() != null) {
        out.println("The evidence found is below.");
        out.println();
        printEvidence(run.pack(), out, 5);
      }
    } else {
      printResult(
          new ResearchResult(
              RunResult.SCHEMA_VERSION,
              run.status(),
              run.pack(),
              run.preparedSynthesis(),
              run.synthesis(),
              run.verification()),
          out);
    }
    out.println("stop: " + run.stopReason().wireName() + stopDetail(run));
    out.println(
        run.tracePath() != null
            ? "trace: " + run.tracePath()
            : run.traceError() != null ? "trace not saved: " + run.traceError() : "trace: off");
  }

  static String stopDetail(RunResult run) {
    if (run.failure() != null
        && (run.stopReason() == StopReason.TIMEOUT_EXCEEDED
            || run.stopReason() == StopReason.CANCELLED
            || run.stopReason() == StopReason.MAX_STEPS_REACHED)) {
      return " (" + run.failure().message() + ")";
    }
    return run.finalJudge() == null ? "" : " (" + run.finalJudge().reason() + ")";
  }

  static int exitCode(Outcome status) {
    return switch (status) {
      case OK, OK_TRUNCATED, PARTIAL, NO_EVIDENCE -> 0;
      case UNAVAILABLE, ERROR, VERIFICATION_FAILED -> BrainCommand.EXIT_ERROR;
    };
  }

  static void printResult(ResearchResult result, PrintWriter out) {
    SynthesisResult s = result.synthesis();
    switch (result.status()) {
      case VERIFICATION_FAILED -> {
        out.println("Verification failed: the answer was rejected and is not shown.");
        result.verification().reasons().forEach(r -> out.println("  - " + r));
        out.println("(The rejected answer is kept in --json output for debugging.)");
        out.println();
        printEvidence(result.pack(), out, 5);
      }
      case UNAVAILABLE, ERROR -> {
        out.println(
            "No answer: the model "
                + s.model()
                + (result.status() == Outcome.UNAVAILABLE ? " is unavailable" : " failed")
                + (s.error() == null ? "." : " (" + s.error() + ")."));
        out.println("The evidence found is below.");
        out.println();
        printEvidence(result.pack(), out, 5);
      }
      case NO_EVIDENCE -> {
        out.println(s.answer());
        out.println();
        out.println(result.pack().coverage().recallNote());
        printNearest(result.pack(), out);
      }
      case OK, OK_TRUNCATED -> {
        out.println(s.answer());
        printSources(s.citations(), out);
      }
      case PARTIAL -> {
        out.println("Partial answer: your notes cover only part of this question.");
        out.println();
        out.println(s.answer());
        printSources(s.citations(), out);
      }
    }
    printWarnings(s, out);
    out.printf(
        Locale.ROOT,
        "%nstatus: %s · answer by %s · %d evidence rows · planner: %s%s%n",
        result.status().wireName(),
        s.model(),
        result.pack().evidence().size(),
        result.pack().queryPlan().planner(),
        result.pack().queryPlan().plannerError() == null
            ? ""
            : " (" + result.pack().queryPlan().plannerError() + ")");
  }

  static void printSources(List<Citation> citations, PrintWriter out) {
    if (citations.isEmpty()) {
      return;
    }
    out.println();
    out.println("Sources:");
    int n = 0;
    for (Citation c : citations) {
      out.printf(
          Locale.ROOT,
          "  [%d] %s%s%n",
          ++n,
          line(c.sourceKey()),
          c.title() == null || c.title().isBlank() ? "" : "  " + line(c.title()));
      var where = new ArrayList<String>();
      if (c.sourceType() != null) {
        where.add(c.kind() + "/" + c.sourceType());
      }
      if (c.notePath() != null) {
        where.add(c.notePath());
      } else if (c.url() != null) {
        where.add(c.url());
      }
      if (c.evidenceRole() != null) {
        where.add(role(c.evidenceRole()));
      }
      if (!where.isEmpty()) {
        out.println("      " + line(String.join(" · ", where)));
      }
    }
  }

  static void printWarnings(SynthesisResult s, PrintWriter out) {
    if (s.answerWarnings().isEmpty()) {
      return;
    }
    out.println();
    for (AnswerWarning w : s.answerWarnings()) {
      out.println("warning: " + warningText(w, s.truncation()));
    }
  }

  static String warningText(AnswerWarning warning, Truncation t) {
    return switch (warning) {
      case EVIDENCE_TRUNCATED ->
          "evidence_truncated: the answer saw "
              + t.evidenceCharsUsed()
              + " of its "
              + t.evidenceBudgetChars()
              + "-character budget; left out: "
              + (t.droppedSourceKeys().isEmpty()
                  ? "nothing"
                  : String.join(", ", t.droppedSourceKeys()))
              + (t.partiallyTrimmedSourceKey() == null
                  ? ""
                  : "; trimmed: " + t.partiallyTrimmedSourceKey());
      case MODEL_UNAVAILABLE -> "model_unavailable: the chat model could not be reached";
      case MODEL_ERROR -> "model_error: the chat model failed";
      case NO_EVIDENCE -> "no_evidence: nothing in the corpus matched the question";
    };
  }

  static void printPack(ResearchPack pack, PrintWriter out) {
    var plan = pack.queryPlan();
    var required = new ArrayList<String>();
    var optional = new ArrayList<String>();
    for (Concept c : plan.concepts()) {
      (c.required() ? required : optional).add(c.preferred());
    }
    out.printf(
        Locale.ROOT,
        "%s · search \"%s\" · planner %s%s%n",
        plan.queryFamily().wireName(),
        line(plan.textQuery()),
        plan.planner(),
        plan.plannerError() == null ? "" : " (" + plan.plannerError() + ")");
    out.println(
        "concepts: "
            + String.join(", ", required)
            + (optional.isEmpty() ? "" : " · optional: " + String.join(", ", optional)));
    plan.queryVariants()
        .forEach(v -> out.println("  variant \"" + line(v.query()) + "\" — " + line(v.reason())));
    out.println();
    printEvidence(pack, out, pack.evidence().size());
    if (!pack.exactTagEvidence().isEmpty()) {
      out.println("exact-tag evidence:");
      for (EvidenceRow r : pack.exactTagEvidence()) {
        out.println("  " + line(r.sourceKey()) + "  #" + line(String.join(" #", r.userTags())));
      }
      out.println();
    }
    if (pack.topicBrief() != null) {
      out.println("topic brief: " + pack.topicBrief().summary());
      out.println();
    }
    out.println(pack.coverage().recallNote());
    for (NextStep step : pack.nextSteps()) {
      out.println("next: " + line(step.label() + " " + params(step.params())));
    }
  }

  /** The records nearest in meaning of a pack without evidence: where to look next. */
  static void printNearest(ResearchPack pack, PrintWriter out) {
    for (NextStep step : pack.nextSteps()) {
      if (NextStep.NEAREST_BY_MEANING.equals(step.action())
          && step.params().get("lookups") instanceof List<?> keys
          && step.params().get("titles") instanceof List<?> titles
          && step.params().get("cosines") instanceof List<?> cosines) {
        out.println();
        out.println("Nearest in meaning (not evidence: too few of the key words):");
        for (int i = 0; i < keys.size(); i++) {
          out.printf(
              Locale.ROOT,
              "  %s  %s  (cosine %s)%n",
              line(String.valueOf(keys.get(i))),
              line(String.valueOf(titles.get(i))),
              cosines.get(i));
        }
      }
    }
  }

  static String params(Map<String, Object> params) {
    var parts = new ArrayList<String>();
    params.forEach((k, v) -> parts.add(k + "=" + v));
    return "(" + String.join(", ", parts) + ")";
  }

  static void printEvidence(ResearchPack pack, PrintWriter out, int max) {
    if (pack.evidence().isEmpty()) {
      out.println("no evidence for \"" + line(pack.queryPlan().textQuery()) + "\"");
      out.println();
      return;
    }
    for (EvidenceRow row : pack.evidence().subList(0, Math.min(max, pack.evidence().size()))) {
      out.printf(
          Locale.ROOT,
          "%2d. %s%s%n",
          row.rank(),
          line(row.sourceKey()),
          row.title() == null || row.title().isBlank() ? "" : "  " + line(row.title()));
      var where = new ArrayList<String>();
      where.add(row.kind() + "/" + row.sourceType());
      if (row.notePath() != null) {
        where.add(row.notePath());
      } else if (row.url() != null) {
        where.add(row.url());
      }
      where.add(role(row.evidenceRole()));
      if (row.relatedTo() != null) {
        where.add(row.relationship() + " " + row.relatedTo());
      }
      out.println("    " + line(String.join(" · ", where)));
      out.println("    why: " + line(String.join(" · ", row.signals())));
      if (row.excerpt() != null && !row.excerpt().isBlank()) {
        out.println("    " + line(row.excerpt().replaceAll("\\s+", " ")));
      }
      out.println();
    }
  }

  private static String line(String s) {
    return TerminalText.line(s);
  }

  /**
   * How a row's evidence role is shown: {@code role raw}; the research section brain wrote into a
   * note is named as brain's, never mistaken for the user's text.
   */
  static String role(String evidenceRole) {
    return "brain_written".equals(evidenceRole)
        ? "role brain_written (written by brain, not your notes)"
        : "role " + evidenceRole;
  }
}
