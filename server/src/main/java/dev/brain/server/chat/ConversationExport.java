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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  /** Chat turn statuses, by the name the export gives them. */
  private static final Map<String, String> STATUS =
      Map.ofEntries(
          Map.entry("ok", "answered"),
          Map.entry("partial", "partial"),
          Map.entry("no_evidence", "no_evidence"),
          Map.entry("evidence", "evidence_only"),
          Map.entry("failed", REJECTED),
          Map.entry("verification_failed", REJECTED),
          Map.entry("error", "error"),
          Map.entry("stopped", "stopped"),
          Map.entry("interrupted", "interrupted"),
          Map.entry("running", "unfinished"));

  /** Export statuses whose turn's answer is shared. */
  private static final Set<String> ANSWERED = Set.of("answered", "partial", "no_evidence");

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
    ObjectNode tree = JSON.valueToTree(shared(conversation));
    redactor.redactTree(tree);
    relativize(tree);
    return tree;
  }

  /** The conversation as a Markdown document, redacted. */
  public String markdown(Conversation conversation) {
    Shared shared = shared(conversation);
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

  /** A conversation in its shared shape (not yet redacted). */
  static Shared shared(Conversation conversation) {
    var turns = new ArrayList<Turn>();
    int n = 0;
    for (ObjectNode turn : conversation.turns()) {
      turns.add(turn(++n, turn));
    }
    return new Shared(
        SCHEMA_VERSION,
        conversation.id(),
        conversation.title(),
        conversation.createdAt(),
        conversation.updatedAt(),
        turns);
  }

  private static Turn turn(int number, ObjectNode t) {
    String status = status(t);
    boolean answered = ANSWERED.contains(status);
    boolean rejected = REJECTED.equals(status);
    String answer = answered ? body(text(t, "answer")) : null;
    Map<String, String> titles = titles(t);
    var citations = new ArrayList<Citation>();
    if (answered) {
      for (String key : strings(t.path("citations"), t.path("cited_keys"))) {
        citations.add(new Citation(key, titles.get(key), recordUrl(key)));
      }
    }
    var evidence = new ArrayList<String>();
    if (t.has("evidenceKeys") || t.has("evidence_keys")) {
      evidence.addAll(strings(t.path("evidenceKeys"), t.path("evidence_keys")));
    } else {
      t.path("pack").path("evidence").forEach(r -> add(evidence, r.path("source_key")));
    }
    var failures = new ArrayList<String>();
    if (rejected) {
      t.path("failures")
          .forEach(
              f ->
                  failures.add(
                      f.isTextual()
                          ? f.asText()
                          : f.hasNonNull("message")
                              ? f.get("message").asText()
                              : f.path("reason").asText(f.toString())));
      String message = text(t, "message");
      if (failures.isEmpty() && message != null) {
        failures.add(message);
      }
    }
    String error = answered || rejected ? null : text(t.path("error"), "message");
    return new Turn(
        number,
        t.hasNonNull("mode") ? text(t, "mode") : "research",
        text(t, "question"),
        status,
        answer,
        answerStatus(t),
        citations,
        evidence,
        failures,
        error,
        strings(t.path("warnings"), t.path("answer_warnings")),
        text(t, "model"),
        first(text(t, "stopReason"), text(t, "stop_reason")),
        first(text(t, "trace"), text(t, "trace_id")));
  }

  /**
   * The export status: the Chat's turn status by its export name; a draft rejected by verification
   * is {@value #REJECTED} whatever else the turn says.
   */
  private static String status(ObjectNode t) {
    String raw = t.path("status").asText("");
    String stop = first(text(t, "stopReason"), text(t, "stop_reason"));
    if ("verification_failed".equals(answerStatus(t)) || "verification_failed".equals(stop)) {
      return REJECTED;
    }
    String status = STATUS.get(raw);
    return status != null ? status : raw.isEmpty() ? "unfinished" : "unknown";
  }

  private static String answerStatus(ObjectNode t) {
    return first(text(t, "answerStatus"), text(t, "answer_status"));
  }

  /** The titles of the turn's evidence rows, by key. */
  private static Map<String, String> titles(ObjectNode t) {
    var titles = new LinkedHashMap<String, String>();
    for (String lane : List.of("evidence", "exact_tag_evidence")) {
      for (JsonNode row : t.path("pack").path(lane)) {
        String title = row.path("title").asText("").strip();
        if (!title.isEmpty()) {
          titles.putIfAbsent(row.path("source_key").asText(), title);
        }
      }
    }
    return titles;
  }

  /**
   * An answer without its trailing numbered source list ({@code Sources:} then {@code [1] [key]
   * label} lines): the export lists the sources itself, as links.
   */
  static String body(String answer) {
    if (answer == null) {
      return null;
    }
    int at = answer.lastIndexOf("\nSources:\n");
    if (at < 0) {
      return answer;
    }
    for (String line : answer.substring(at + 10).split("\n")) {
      if (!line.isBlank() && !line.strip().matches("\\[\\d+] \\[[^\\]]+].*")) {
        return answer;
      }
    }
    return answer.substring(0, at);
  }

  private static String text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() || !v.isValueNode() ? null : v.asText();
  }

  private static String first(String a, String b) {
    return a != null ? a : b;
  }

  private static List<String> strings(JsonNode a, JsonNode b) {
    var out = new ArrayList<String>();
    (a.isArray() ? a : b).forEach(n -> add(out, n.isTextual() ? n : n.path("source_key")));
    return out;
  }

  private static void add(List<String> out, JsonNode value) {
    String s = value.asText("").strip();
    if (!s.isEmpty() && !out.contains(s)) {
      out.add(s);
    }
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
