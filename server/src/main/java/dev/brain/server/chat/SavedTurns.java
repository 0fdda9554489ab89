package dev.brain.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The saved turns of a conversation read into the {@link ConversationExport} shape: the Chat's turn
 * JSON (camelCase from the browser, snake_case from a run) turned into a status, a shared answer
 * without its source list, citations, evidence keys and failed checks. Not yet redacted.
 */
final class SavedTurns {
  private SavedTurns() {}

  /** Chat turn statuses, by the name the export gives them. */
  private static final Map<String, String> STATUS =
      Map.ofEntries(
          Map.entry("ok", "answered"),
          Map.entry("partial", "partial"),
          Map.entry("no_evidence", "no_evidence"),
          Map.entry("evidence", "evidence_only"),
          Map.entry("failed", ConversationExport.REJECTED),
          Map.entry("verification_failed", ConversationExport.REJECTED),
          Map.entry("error", "error"),
          Map.entry("stopped", "stopped"),
          Map.entry("interrupted", "interrupted"),
          Map.entry("running", "unfinished"));

  /** Export statuses whose turn's answer is shared. */
  private static final Set<String> ANSWERED = Set.of("answered", "partial", "no_evidence");

  /** A conversation in its shared shape (not yet redacted). */
  static ConversationExport.Shared shared(Conversation conversation) {
    var turns = new ArrayList<ConversationExport.Turn>();
    int n = 0;
    for (ObjectNode turn : conversation.turns()) {
      turns.add(turn(++n, turn));
    }
    return new ConversationExport.Shared(
        ConversationExport.SCHEMA_VERSION,
        conversation.id(),
        conversation.title(),
        conversation.createdAt(),
        conversation.updatedAt(),
        turns);
  }

  private static ConversationExport.Turn turn(int number, ObjectNode t) {
    String status = status(t);
    boolean answered = ANSWERED.contains(status);
    boolean rejected = ConversationExport.REJECTED.equals(status);
    String answer = answered ? body(text(t, "answer")) : null;
    Map<String, String> titles = titles(t);
    var citations = new ArrayList<ConversationExport.Citation>();
    if (answered) {
      for (String key : strings(t.path("citations"), t.path("cited_keys"))) {
        citations.add(
            new ConversationExport.Citation(
                key, titles.get(key), ConversationExport.recordUrl(key)));
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
    return new ConversationExport.Turn(
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
   * is {@value ConversationExport#REJECTED} whatever else the turn says.
   */
  private static String status(ObjectNode t) {
    String raw = t.path("status").asText("");
    String stop = first(text(t, "stopReason"), text(t, "stop_reason"));
    if ("verification_failed".equals(answerStatus(t)) || "verification_failed".equals(stop)) {
      return ConversationExport.REJECTED;
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
}
