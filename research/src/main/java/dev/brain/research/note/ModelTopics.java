package dev.brain.research.note;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.research.note.NoteResearchException.Reason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Topics of a note from a chat model: a JSON list {@code [{topic, context, type}]}, sanitized
 * (one-line labels, known types, no duplicates). A malformed answer is asked for once more; a
 * second one fails the run with a clear error.
 */
final class ModelTopics {
  private ModelTopics() {}

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> TYPES = Set.of("claim", "concept", "question");

  static final String SYSTEM =
      """
      You pick the topics of a personal note that are worth researching in the user's other notes \
      and sources. Answer with JSON only: a list of at most 10 objects \
      {"topic": "short label, a few words", "context": "what the note says about it, one sentence", \
      "type": "claim" | "concept" | "question"}. A claim is something the note asserts that could \
      be checked, a concept something it relies on, a question something it leaves open. \
      No prose, no code fences.""";

  /**
   * The topics the model names for {@code note}.
   *
   * @throws NoteResearchException of {@link Reason#MODEL_FAILED} when the model fails or answers
   *     malformed JSON twice
   */
  static List<Topic> ask(
      ChatModel model, String note, String focus, Duration timeout, int[] calls) {
    var messages = new ArrayList<ChatMessage>();
    messages.add(ChatMessage.system(SYSTEM));
    messages.add(ChatMessage.user(prompt(note, focus)));
    String problem = null;
    for (int attempt = 0; attempt < 2; attempt++) {
      String answer = call(model, messages, timeout);
      calls[0]++;
      try {
        return parse(answer);
      } catch (IllegalArgumentException e) {
        problem = e.getMessage();
        messages.add(ChatMessage.assistant(answer));
        messages.add(
            ChatMessage.user(
                "That was not a valid JSON list of topics ("
                    + problem
                    + "). Answer again with the JSON list only."));
      }
    }
    throw new NoteResearchException(
        Reason.MODEL_FAILED,
        "the model "
            + model.id()
            + " did not answer the topics as a JSON list twice ("
            + problem
            + "); nothing was written. Try again, or run without a model for deterministic topics");
  }

  static String prompt(String note, String focus) {
    String f = focus == null ? "" : "Focus: pick only topics about \"" + focus + "\".\n\n";
    return f + "The note:\n\n" + note;
  }

  private static String call(ChatModel model, List<ChatMessage> messages, Duration timeout) {
    try {
      return model
          .chat(new ChatRequest(messages, timeout, false, 0, 1200, List.of()), ChatListener.NONE)
          .content();
    } catch (ChatException e) {
      throw new NoteResearchException(
          "the model "
              + model.id()
              + " failed while naming topics: "
              + e.getMessage()
              + "; nothing was written",
          e);
    }
  }

  /**
   * The sanitized topics of a model answer: a JSON list, or an object holding one under {@code
   * topics}; code fences and text around the JSON are ignored.
   *
   * @throws IllegalArgumentException saying what is wrong with the answer
   */
  static List<Topic> parse(String answer) {
    String text = answer == null ? "" : answer.strip();
    int open = text.indexOf('[');
    int brace = text.indexOf('{');
    JsonNode node;
    try {
      if (open >= 0 && (brace < 0 || open < brace)) {
        node = JSON.readTree(text.substring(open, text.lastIndexOf(']') + 1));
      } else if (brace >= 0) {
        node = JSON.readTree(text.substring(brace, text.lastIndexOf('}') + 1)).path("topics");
      } else {
        throw new IllegalArgumentException("no JSON in the answer");
      }
    } catch (JsonProcessingException | StringIndexOutOfBoundsException e) {
      throw new IllegalArgumentException("malformed JSON");
    }
    if (!node.isArray()) {
      throw new IllegalArgumentException("not a list");
    }
    var topics = new LinkedHashMap<String, Topic>();
    for (JsonNode item : node) {
      String label = Sanitize.line(item.path("topic").asText(""), Sanitize.MAX_TOPIC_CHARS);
      if (label.length() < 2 || !label.matches(".*[\\p{L}\\p{N}].*")) {
        continue;
      }
      String type = item.path("type").asText("concept").strip().toLowerCase(Locale.ROOT);
      topics.putIfAbsent(
          label.toLowerCase(Locale.ROOT),
          new Topic(
              label,
              Sanitize.line(item.path("context").asText(""), Sanitize.MAX_CONTEXT_CHARS),
              TYPES.contains(type) ? type : "concept"));
    }
    if (topics.isEmpty() && !node.isEmpty()) {
      throw new IllegalArgumentException("no item has a topic");
    }
    return List.copyOf(topics.values());
  }
}
