package dev.brain.research.pack;

import dev.brain.chunking.BrainWritten;
import dev.brain.chunking.MarkdownText;
import dev.brain.index.RecordDetail;
import dev.brain.research.plan.Concept;
import dev.brain.research.plan.QueryPlan;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Inspects the top rows of a pack: reads each stored record and cuts a deeper window of its raw
 * text (a transcript's or OCR text is the record's raw text; a summary row uses the summary),
 * centred on the question's concepts. The window replaces the row's excerpt when it matches at
 * least as many required concepts as the excerpt did, so inspection never makes a row worse.
 *
 * <p>Research-internal: public only for the other research packages; not API.
 */
public final class Inspector {
  private Inspector() {}

  /**
   * The outcome.
   *
   * @param pack the pack with inspected rows rewritten
   * @param inspections one per inspected row, in rank order
   * @param outOfBudget whether rows were left uninspected because the budget ran out
   */
  public record Outcome(ResearchPack pack, List<RowInspection> inspections, boolean outOfBudget) {}

  public static Outcome inspect(
      Retriever retriever, ResearchPack pack, int rows, int maxChars, BooleanSupplier outOfTime)
      throws IOException {
    QueryPlan plan = pack.queryPlan();
    List<Concept> required = plan.requiredConcepts();
    var evidence = new ArrayList<>(pack.evidence());
    var inspections = new ArrayList<RowInspection>();
    boolean outOfBudget = false;
    int done = 0;
    for (int i = 0; i < evidence.size() && done < rows; i++) {
      EvidenceRow row = evidence.get(i);
      if (row.isRelated()) {
        continue;
      }
      if (outOfTime.getAsBoolean()) {
        outOfBudget = true;
        break;
      }
      done++;
      Inspected seen = inspectRow(row, retriever.get(row.sourceKey()), plan, required, maxChars);
      if (seen.row() != null) {
        evidence.set(i, seen.row());
      }
      inspections.add(seen.inspection());
    }
    ResearchPack out =
        new ResearchPack(
            pack.schemaVersion(),
            pack.question(),
            pack.mode(),
            plan,
            pack.coverage(),
            evidence,
            pack.exactTagEvidence(),
            pack.topicBrief(),
            pack.nextSteps());
    return new Outcome(out, inspections, outOfBudget);
  }

  /**
   * One row inspected: the row with its inspected window when that window is kept ({@code null}
   * when the excerpt stays), and what the inspection saw.
   */
  private record Inspected(EvidenceRow row, RowInspection inspection) {}

  /**
   * Reads the window of a row's record (its summary for a summary row) around the plan's concepts
   * and keeps it when it matches at least as many required concepts as the excerpt.
   */
  private static Inspected inspectRow(
      EvidenceRow row,
      Optional<RecordDetail> detail,
      QueryPlan plan,
      List<Concept> required,
      int maxChars) {
    List<Concept> before = ConceptMatch.matched(row, plan.concepts());
    if (detail.isEmpty()) {
      return new Inspected(
          null,
          new RowInspection(
              row.sourceKey(),
              "excerpt",
              0,
              0,
              0,
              false,
              keys(before),
              missing(required, before),
              List.of()));
    }
    boolean summary =
        "summary".equals(row.evidenceRole()) && detail.get().record().summary() != null;
    String text = summary ? detail.get().record().summary() : detail.get().record().text();
    if (!summary && !"brain_written".equals(row.evidenceRole())) {
      text = withoutBrainWritten(text, row.sourceType());
    }
    int hintStart = row.chunk() == null || summary ? -1 : row.chunk().startChar();
    int hintEnd = row.chunk() == null || summary ? -1 : row.chunk().endChar();
    Windows.Window window =
        Windows.around(
            text,
            plan.concepts(),
            maxChars,
            hintStart,
            hintEnd,
            !summary && MarkdownText.isMarkdown(row.sourceType()));
    EvidenceRow inspected = RunRows.withExcerpt(row, window.text(), plan, RunRows.INSPECTED);
    List<Concept> after = ConceptMatch.matched(inspected, plan.concepts());
    boolean used = count(after, required) >= count(before, required);
    List<Concept> now = used ? after : before;
    Set<String> had = new HashSet<>(keys(before));
    return new Inspected(
        used ? inspected : null,
        new RowInspection(
            row.sourceKey(),
            summary ? "summary" : "raw",
            text.length(),
            window.start(),
            window.end(),
            used,
            keys(now),
            missing(required, now),
            used
                ? keys(now).stream()
                    .filter(k -> !had.contains(k) && isRequired(required, k))
                    .toList()
                : List.of()));
  }

  private static long count(List<Concept> matched, List<Concept> required) {
    return matched.stream().filter(required::contains).count();
  }

  private static boolean isRequired(List<Concept> required, String key) {
    return required.stream().anyMatch(c -> c.key().equals(key));
  }

  private static List<String> keys(List<Concept> concepts) {
    return concepts.stream().map(Concept::key).toList();
  }

  private static List<String> missing(List<Concept> required, List<Concept> matched) {
    return required.stream().filter(c -> !matched.contains(c)).map(Concept::key).toList();
  }

  /**
   * {@code text} with the research section brain wrote into it blanked (spaces, line breaks kept,
   * so offsets stay): the window of a row is the user's text, never brain's derived section.
   */
  static String withoutBrainWritten(String text, String sourceType) {
    int[] span = "note".equals(sourceType) ? BrainWritten.span(text) : null; // as the index
    if (span == null) {
      return text;
    }
    var out = new StringBuilder(text);
    for (int i = span[0]; i < span[1]; i++) {
      if (out.charAt(i) != '\n' && out.charAt(i) != '\r') {
        out.setCharAt(i, ' ');
      }
    }
    return out.toString();
  }
}
