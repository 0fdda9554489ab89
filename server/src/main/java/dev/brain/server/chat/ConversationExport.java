package dev.brain.server.chat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.brain.research.json.Json;
import dev.brain.research.trace.Redactor;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A saved conversation to share, as Markdown or as JSON ({@value #SCHEMA_VERSION}): each turn's
 * question, status, answer and citations (links to the records' pages, {@code /record/<key>}). Only
 * a finished answer is shared: a turn whose draft failed verification is exported as {@code
 * rejected} with the failed checks and without its draft or citations; an error, a stop or an
 * interrupted run carries no answer either. Every text passes the trace {@link Redactor} (secrets,
 * credentials, paths outside the data root), and paths inside the data root become {@code
 * <data>/...}: a shared file names no place on the user's machine.
 */
public final class ConversationExport {
  /** The schema of the JSON export. */
  public static final String SCHEMA_VERSION = "brain_conversation_export.v1";

  /** The export status of a turn whose draft failed verification. */
  public static final String REJECTED = "rejected";

  /** What a reader sees beside each status in Markdown. */
  private static final Map<String, String> LABEL =
      Map.of(
          "answered",
          "answered",
          "partial",
          "partial answer (the notes cover part of the question)",
          "no_evidence",
          "no evidence in the notes",
          "evidence_only",
          "evidence only (no answer was asked for)",
          REJECTED,
          "rejected: verification failed, so its draft is not an answer and is not included",
          "error",
          "error",
          "stopped",
          "stopped",
          "interrupted",
          "interrupted",
          "unfinished",
          "unfinished");

  private static final ObjectMapper JSON = Json.newMapper();
  private static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

  private final Redactor redactor;

  /** Exports redacted by {@code redactor} (the trace store's, with the configured API key). */
  public ConversationExport(Redactor redactor) {
    this.redactor = redactor;
  }

  /**
   * The shareable form of a conversation.
   *
   * @param schemaVersion {@value #SCHEMA_VERSION}
   * @param id the conversation id
   * @param title its title
   * @param createdAt when it was first saved
   * @param updatedAt when it was last saved
   * @param turns its turns, oldest first
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Shared(
      String schemaVersion,
      String id,
      String title,
      Instant createdAt,
      Instant updatedAt,
      List<Turn> turns) {}

  /**
   * One turn as shared.
   *
   * @param number its place, from 1
   * @param mode {@code research} or {@code agent}
   * @param question the question
   * @param status {@code answered}, {@code partial}, {@code no_evidence}, {@code evidence_only},
   *     {@value #REJECTED}, {@code error}, {@code stopped}, {@code interrupted} or {@code
   *     unfinished}
   * @param answer the answer; {@code null} unless the status is answered, partial or no_evidence
   * @param answerStatus the synthesis's answer status
   * @param citations the cited records (none for a rejected turn)
   * @param evidenceKeys the keys of the evidence the turn was answered from
   * @param failures the verification checks a rejected draft failed
   * @param error what went wrong, for an error
   * @param warnings the answer's warnings
   * @param model the model that answered
   * @param stopReason why the run stopped
   * @param traceId the saved run's id, when it was saved
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  public record Turn(
      int number,
      String mode,
      String question,
      String status,
      String answer,
      String answerStatus,
      List<Citation> citations,
      List<String> evidenceKeys,
      List<String> failures,
      String error,
      List<String> warnings,
      String model,
      String stopReason,
      String traceId) {}

  /**
   * A cited record.
   *
   * @param sourceKey its key
   * @param title its title, when the turn's evidence named it
   * @param url its record page, {@code /record/<url-encoded key>}
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Citation(String sourceKey, String title, String url) {}

  /** The conversation as JSON, redacted. */
  public JsonNode json(Conversation conversation) {
    ObjectNode tree = JSON.valueToTree(SavedTurns.shared(conversation));
    redactor.redactTree(tree);
    relativize(tree);
    return tree;
  }

  /** The conversation as a Markdown document, redacted. */
  public String markdown(Conversation conversation) {
    Shared shared = SavedTurns.shared(conversation);
    var md = new StringBuilder();
    md.append("# ").append(oneLine(shared.title())).append("\n\n");
    md.append(shared.turns().size())
        .append(shared.turns().size() == 1 ? " turn" : " turns")
        .append(" · saved ")
        .append(WHEN.format(shared.updatedAt()))
        .append(" · conversation `")
        .append(shared.id())
        .append("` · exported from brain; answers come only from the notes they cite.\n");
    for (Turn turn : shared.turns()) {
      md.append("\n## ").append(turn.number()).append(". ").append(heading(turn.question()));
      md.append("\n\n");
      if (!oneLine(turn.question()).equals(turn.question().strip())
          || turn.question().length() > HEADING_CHARS) {
        md.append(quote(turn.question())).append("\n\n");
      }
      md.append("**Status:** ").append(LABEL.getOrDefault(turn.status(), turn.status()));
      if ("agent".equals(turn.mode())) {
        md.append(" · agent");
      }
      if (turn.model() != null) {
        md.append(" · model ").append(turn.model());
      }
      if (turn.stopReason() != null) {
        md.append(" · stop ").append(turn.stopReason());
      }
      md.append("\n");
      if (!turn.failures().isEmpty()) {
        md.append("\nFailed checks:\n\n");
        turn.failures().forEach(f -> md.append("- ").append(oneLine(f)).append("\n"));
      }
      if (turn.error() != null) {
        md.append("\n").append(quote(turn.error())).append("\n");
      }
      if (turn.answer() != null && !turn.answer().isBlank()) {
        md.append("\n").append(turn.answer().strip()).append("\n");
      }
      if (!turn.warnings().isEmpty()) {
        md.append("\nWarnings: ").append(String.join(", ", turn.warnings())).append("\n");
      }
      if (!turn.citations().isEmpty()) {
        md.append("\n**Sources**\n\n");
        int n = 1;
        for (Citation c : turn.citations()) {
          md.append(n++).append(". [");
          md.append(linkText(c.title() == null ? c.sourceKey() : c.title()));
          md.append("](").append(c.url()).append(") `").append(c.sourceKey()).append("`\n");
        }
      }
    }
    return relative(redactor.redact(md.toString()));
  }

  private static final int HEADING_CHARS = 120;

  private static String heading(String question) {
    String line = oneLine(question);
    return line.length() <= HEADING_CHARS ? line : line.substring(0, HEADING_CHARS - 1) + "…";
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s+", " ");
  }

  private static String quote(String text) {
    return "> " + text.strip().replace("\n", "\n> ");
  }

  private static String linkText(String text) {
    return oneLine(text).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]");
  }

  /** The record page of a key, as the web UI links it. */
  static String recordUrl(String key) {
    return "/record/" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** A path inside the data root as {@code <data>/...}. */
  private String relative(String text) {
    String root = redactor.dataRoot();
    return text == null ? null : text.replace(root + "/", "<data>/").replace(root, "<data>");
  }

  private void relativize(JsonNode node) {
    if (node instanceof ObjectNode object) {
      var names = new ArrayList<String>();
      object.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        JsonNode v = object.get(name);
        if (v.isTextual()) {
          object.put(name, relative(v.asText()));
        } else {
          relativize(v);
        }
      }
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        if (array.get(i).isTextual()) {
          array.set(i, TextNode.valueOf(relative(array.get(i).asText())));
        } else {
          relativize(array.get(i));
        }
      }
    }
  }
}
