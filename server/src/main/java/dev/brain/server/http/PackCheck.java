package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.ResearchRequest;
import dev.brain.index.CorpusRecord;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.QueryAnalyzer;
import dev.brain.retrieval.EvidenceRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a research pack a client posted to {@code /api/research/synthesize}. The pack is client
 * input: its rows are checked before a stream opens (400 {@code invalid_pack}), and what a model
 * could be fooled by — keys the index does not hold, a {@code [key]} written inside an excerpt — is
 * listed so the answer ends {@code verification_failed}, never {@code done}.
 */
final class PackCheck {
  /**
   * A {@code [type:rest]} citation-shaped run of text, as the citation parser reads it; a path such
   * as Rust's {@code #[tauri::command]} (two colons) is code, not a key.
   */
  private static final Pattern CITATION =
      Pattern.compile("\\[\\s*([a-z][a-z0-9_-]{0,20}:(?!:)[^\\[\\]\\n]{1,400})]");

  private static final Pattern URL_SCHEME =
      Pattern.compile("(?:https?|ftp|mailto|file|data|javascript):", Pattern.CASE_INSENSITIVE);

  private static final Pattern CONTROL = Pattern.compile("[\\p{Cntrl}\\[\\]]");

  private PackCheck() {}

  /**
   * Throws when a row lacks what synthesis reads: a key, its source type, kind and evidence role.
   *
   * @throws ApiException 400 {@code invalid_pack} naming the row and field
   */
  static void requireWellFormed(ResearchPack pack) {
    if (pack.question() != null && pack.question().length() > ResearchRequest.MAX_QUESTION_CHARS) {
      throw invalid(
          "the pack's question is longer than "
              + ResearchRequest.MAX_QUESTION_CHARS
              + " characters",
          "research_pack.question");
    }
    checkRows(pack.evidence(), "research_pack.evidence");
    checkRows(pack.exactTagEvidence(), "research_pack.exact_tag_evidence");
  }

  private static void checkRows(List<EvidenceRow> rows, String field) {
    for (int i = 0; i < rows.size(); i++) {
      EvidenceRow row = rows.get(i);
      String at = field + "[" + i + "]";
      String key = row.sourceKey();
      if (key == null || key.isBlank()) {
        throw invalid("evidence row " + i + " has no source_key", at + ".source_key");
      }
      if (key.length() > ResearchRequest.MAX_KEY_CHARS || CONTROL.matcher(key).find()) {
        throw invalid(
            "evidence row " + i + " has a source_key with brackets or control characters",
            at + ".source_key");
      }
      for (var required :
          List.of(
              new String[] {"source_type", row.sourceType()},
              new String[] {"kind", row.kind()},
              new String[] {"evidence_role", row.evidenceRole()})) {
        if (required[1] == null || required[1].isBlank()) {
          throw invalid(
              "evidence row "
                  + i
                  + " has no "
                  + required[0]
                  + "; send rows as research returned them",
              at + "." + required[0]);
        }
      }
    }
  }

  /**
   * Why an answer from {@code pack} cannot pass verification whatever it says: evidence keys the
   * index does not hold and citation-shaped text inside excerpts, titles or summaries.
   */
  static List<String> problems(ResearchPack pack, Brain brain) throws IOException {
    List<String> out = new ArrayList<>();
    String unsearched = unsearchedWords(pack);
    if (unsearched != null) {
      out.add(
          "the pack's question does not match its query plan: "
              + unsearched
              + " was never searched for; build the pack of this question with POST"
              + " /api/research");
    }
    Set<String> checked = new LinkedHashSet<>();
    for (var rows : List.of(pack.evidence(), pack.exactTagEvidence())) {
      for (EvidenceRow row : rows) {
        if (checked.add(row.sourceKey())) {
          var record = brain.get(row.sourceKey());
          if (record.isEmpty()) {
            out.add("evidence key [" + row.sourceKey() + "] is not in the index");
          } else {
            String mismatch = mismatch(row, record.get().record());
            if (mismatch != null) {
              out.add("evidence row [" + row.sourceKey() + "] " + mismatch);
            }
          }
        }
        for (String text : new String[] {row.excerpt(), row.title(), row.summary()}) {
          String smuggled = citationIn(text);
          if (smuggled != null) {
            out.add(
                "the evidence of ["
                    + row.sourceKey()
                    + "] contains citation-like text ["
                    + smuggled
                    + "]; citations come only from evidence rows");
            break;
          }
        }
      }
    }
    return out;
  }

  /**
   * The question's words that its pack's plan never searched for (quoted, comma-separated), or
   * null: a plan holds every concept word of the question it was made for, so a pack whose question
   * was swapped after planning has words no query looked for.
   */
  static String unsearchedWords(ResearchPack pack) {
    if (pack.question() == null || pack.queryPlan() == null) {
      return null;
    }
    Set<String> searched = new LinkedHashSet<>(pack.queryPlan().queryTerms());
    List<String> missing =
        QueryAnalyzer.analyze(pack.question(), true).queryTerms().stream()
            .filter(term -> !searched.contains(term))
            .map(term -> "'" + term + "'")
            .toList();
    return missing.isEmpty() ? null : String.join(", ", missing);
  }

  /** How a row's source type or kind differs from the indexed record's, or null. */
  private static String mismatch(EvidenceRow row, CorpusRecord record) {
    if (!row.sourceType().equals(record.sourceType())) {
      return "says source_type "
          + row.sourceType()
          + "; the index holds "
          + record.sourceType()
          + " (rows are sent as research returned them)";
    }
    if (!row.kind().equals(record.kind())) {
      return "says kind " + row.kind() + "; the index holds " + record.kind();
    }
    return null;
  }

  /** The first {@code [type:rest]} in {@code text} that is not a bracketed URL, or null. */
  static String citationIn(String text) {
    if (text == null) {
      return null;
    }
    var m = CITATION.matcher(text);
    while (m.find()) {
      String inner = m.group(1).strip();
      if (!URL_SCHEME.matcher(inner).lookingAt()) {
        return inner;
      }
    }
    return null;
  }

  private static ApiException invalid(String message, String field) {
    return ApiException.badRequest("invalid_pack", message, field);
  }
}
