package dev.brain.research.synthesis;

import dev.brain.retrieval.EvidenceRow;
import java.util.ArrayList;

/**
 * One evidence row as the synthesis input shows it to a model: its key and title, a line saying
 * what kind of evidence it is (the user's own note or a third-party source; raw text, summary,
 * transcript or OCR; path or URL, tags, date), then its text.
 */
final class RowBlock {
  private RowBlock() {}

  /** The text of one evidence row in the synthesis input, showing {@code text} of it. */
  static String of(EvidenceRow row, String text) {
    var b = new StringBuilder();
    b.append("## [").append(row.sourceKey()).append("]");
    if (row.title() != null && !row.title().isBlank()) {
      b.append(' ').append(row.title().strip());
    }
    b.append('\n').append(describe(row)).append('\n');
    if (text != null && !text.isBlank()) {
      b.append(text.strip()).append('\n');
    }
    if (row.summary() != null && !row.summary().isBlank()) {
      b.append("Summary (derived, not raw evidence): ").append(row.summary().strip()).append('\n');
    }
    return b.append('\n').toString();
  }

  /** One line saying what kind of evidence a row is. */
  static String describe(EvidenceRow row) {
    var parts = new ArrayList<String>();
    parts.add("note".equals(row.sourceType()) ? "the user's own note" : thirdParty(row));
    parts.add(roleText(row.evidenceRole()));
    if (row.notePath() != null) {
      parts.add("path: " + row.notePath());
    } else if (row.url() != null) {
      parts.add("url: " + row.url());
    }
    if (!row.userTags().isEmpty()) {
      parts.add("tags: #" + String.join(" #", row.userTags()));
    }
    String date = row.publishedAt() != null ? row.publishedAt() : row.createdAt();
    if (date != null) {
      parts.add("date: " + date.substring(0, Math.min(10, date.length())));
    }
    if (row.relatedTo() != null) {
      parts.add(row.relationship() + " [" + row.relatedTo() + "]");
    }
    return "(" + String.join("; ", parts) + ")";
  }

  private static String thirdParty(EvidenceRow row) {
    return switch (String.valueOf(row.sourceType())) {
      case "bookmark" -> "a bookmark the user saved";
      case "feed_entry" -> "a feed entry (third-party)";
      case "pdf" -> "a PDF (third-party source)";
      case "web" -> "a saved web page (third-party source)";
      case "transcript" -> "a transcript (third-party source)";
      default -> row.sourceType() + " (" + row.kind() + ")";
    };
  }

  private static String roleText(String role) {
    return switch (String.valueOf(role)) {
      case "raw" -> "raw text excerpt";
      case "summary" -> "derived summary, not raw text";
      case "brain_written" ->
          "written by brain (its research section in the note), not the user's text";
      case "transcript" -> "transcript excerpt";
      case "ocr" -> "OCR text, may contain recognition errors";
      case "exact_tag" -> "found by its user tag";
      case "related" -> "linked to a top row, not found by the search";
      default -> role;
    };
  }
}
