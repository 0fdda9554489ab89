package dev.brain.research.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.models.chat.FakeOllamaServer;
import dev.brain.models.chat.FakeOpenAiServer;
import dev.brain.models.chat.FakeResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/** Small tools and scripted wire responses for the agent tests. */
final class ScriptedTools {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String MODEL = "controller-test";

  private ScriptedTools() {}

  /** A search-like evidence tool: returns rows with these keys and texts, records its calls. */
  static final class Search implements AgentTool {
    final List<JsonNode> calls = new ArrayList<>();
    private final String name;
    private final String result;

    Search(String name, String result) {
      this.name = name;
      this.result = result;
    }

    static Search rows(String... keyAndText) {
      ObjectNode root = JSON.createObjectNode();
      var rows = root.putArray("results");
      for (int i = 0; i + 1 < keyAndText.length; i += 2) {
        rows.addObject().put("source_key", keyAndText[i]).put("excerpt", keyAndText[i + 1]);
      }
      return new Search("brain_search", root.toString());
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return "Searches the corpus.";
    }

    @Override
    public String parametersJsonSchema() {
      return "{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}}}";
    }

    @Override
    public boolean evidence() {
      return true;
    }

    @Override
    public String call(JsonNode arguments) {
      calls.add(arguments);
      return result;
    }
  }

  /** A tool that blocks until interrupted. */
  static class Slow implements AgentTool {
    final CountDownLatch interrupted = new CountDownLatch(1);

    @Override
    public String name() {
      return "slow";
    }

    @Override
    public String description() {
      return "Never finishes.";
    }

    @Override
    public String parametersJsonSchema() {
      return "{\"type\":\"object\"}";
    }

    @Override
    public String call(JsonNode arguments) throws InterruptedException {
      try {
        new CountDownLatch(1).await();
      } finally {
        interrupted.countDown();
      }
      return "{}";
    }
  }

  /** A tool that would write. */
  static final class Writer extends Slow {
    @Override
    public String name() {
      return "write_note";
    }

    @Override
    public boolean readOnly() {
      return false;
    }
  }

  /**
   * An OpenAI stream asking for one tool call, its arguments in two streamed fragments (the id and
   * name only in the first).
   */
  static FakeResponse openAiToolCall(String id, String name, String arguments) {
    int half = arguments.length() / 2;
    return FakeOpenAiServer.stream()
        .write(FakeOpenAiServer.event(FakeOpenAiServer.roleChunk(MODEL)))
        .write(
            FakeOpenAiServer.event(
                FakeOpenAiServer.toolCallChunk(MODEL, 0, id, name, arguments.substring(0, half))))
        .write(
            FakeOpenAiServer.event(
                FakeOpenAiServer.toolCallChunk(MODEL, 0, null, null, arguments.substring(half))))
        .write(FakeOpenAiServer.event(FakeOpenAiServer.finishChunk(MODEL, "tool_calls")))
        .write(FakeOpenAiServer.DONE_EVENT);
  }

  /** An OpenAI streamed text answer. */
  static FakeResponse openAiAnswer(String... tokens) {
    return FakeOpenAiServer.answer(MODEL, List.of(tokens), 100, 20);
  }

  /** An Ollama stream asking for one tool call (Ollama sends whole calls, arguments as object). */
  static FakeResponse ollamaToolCall(String name, String arguments) {
    return FakeOllamaServer.stream()
        .write(FakeOllamaServer.toolCallLine(MODEL, name, arguments))
        .write(FakeOllamaServer.doneLine(MODEL, 100, 10));
  }

  /** An Ollama streamed text answer. */
  static FakeResponse ollamaAnswer(String... tokens) {
    return FakeOllamaServer.answer(MODEL, List.of(tokens), 100, 20);
  }
}
