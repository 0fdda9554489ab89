package dev.brain.research.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The worker tools: {@code summarize} ({@code {text, goal}} → {@code {summary, key_points[]}}) and
 * {@code extract} ({@code {text, schema}} → {@code {extracted}}), each one bounded call of a
 * cheaper worker model that must answer JSON. An answer that is not valid JSON, or does not match
 * the expected shape, is sent back to the worker once with the problem; a second miss fails the
 * call (reported to the controller).
 */
public final class WorkerTools {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SchemaRegistry SCHEMAS =
      SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
  private static final String SUMMARY_SCHEMA =
      """
      {"type": "object", "required": ["summary", "key_points"],
       "properties": {"summary": {"type": "string"},
                      "key_points": {"type": "array", "items": {"type": "string"}}}}""";

  /**
   * The worker's own limits, independent of the controller's.
   *
   * @param maxInputChars most characters of {@code text} sent to the worker (default 16,000; longer
   *     text is cut and the worker told so)
   * @param maxTokens most tokens the worker may generate per call (default 800)
   * @param timeout time per worker call, retry included (default 60 s)
   */
  public record Budgets(int maxInputChars, int maxTokens, Duration timeout) {
    public Budgets {
      if (maxInputChars < 100 || maxTokens < 0) {
        throw new IllegalArgumentException(
            "worker budgets need max_input_chars >= 100 and max_tokens >= 0");
      }
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("worker timeout must be positive, got " + timeout);
      }
    }

    /** The defaults. */
    public static Budgets defaults() {
      return new Budgets(16_000, 800, Duration.ofSeconds(60));
    }
  }

  private WorkerTools() {}

  /** Both worker tools over {@code model}. */
  public static List<AgentTool> over(ChatModel model, Budgets budgets) {
    return List.of(summarize(model, budgets), extract(model, budgets));
  }

  /** {@code summarize}: a summary and key points of a text, for a goal. */
  public static AgentTool summarize(ChatModel model, Budgets budgets) {
    return new Worker(
        model,
        budgets,
        "summarize",
        "Worker: summarizes a text for a goal with a cheaper model. Returns JSON {summary,"
            + " key_points[]}. Pass the text you already have (e.g. record content).",
        """
        {"type": "object", "required": ["text"],
         "properties": {"text": {"type": "string", "description": "the text to summarize"},
                        "goal": {"type": "string", "description": "what the summary is for"}}}""") {
      @Override
      String prompt(JsonNode arguments, String text) {
        String goal = arguments.path("goal").asText("a faithful short summary");
        return "Summarize the text below for this goal: "
            + goal
            + "\nAnswer with one JSON object only: {\"summary\": string, \"key_points\":"
            + " [string, ...]}. Keep any bracketed record keys such as [note:...] that support a"
            + " point. Use only the text.\n\nTEXT:\n"
            + text;
      }

      @Override
      Schema outputSchema(JsonNode arguments) {
        return SCHEMAS.getSchema(SUMMARY_SCHEMA);
      }

      @Override
      JsonNode wrap(JsonNode answer) {
        return answer;
      }
    };
  }

  /** {@code extract}: fields out of a text, matching the caller's JSON schema. */
  public static AgentTool extract(ChatModel model, Budgets budgets) {
    return new Worker(
        model,
        budgets,
        "extract",
        "Worker: extracts structured data from a text with a cheaper model, validated against"
            + " the JSON schema you give. Returns JSON {extracted}.",
        """
        {"type": "object", "required": ["text", "schema"],
         "properties": {"text": {"type": "string", "description": "the text to read"},
                        "schema": {"type": "object",
                                   "description": "JSON schema the extracted object must match"}}}\
        """) {
      @Override
      String prompt(JsonNode arguments, String text) {
        return "Extract from the text below one JSON object matching this JSON schema:\n"
            + arguments.path("schema")
            + "\nAnswer with that JSON object only. Use only the text.\n\nTEXT:\n"
            + text;
      }

      @Override
      Schema outputSchema(JsonNode arguments) throws AgentTool.ToolFailure {
        JsonNode schema = arguments.path("schema");
        if (!schema.isObject()) {
          throw new AgentTool.ToolFailure("'schema' must be a JSON schema object");
        }
        try {
          return SCHEMAS.getSchema(schema);
        } catch (RuntimeException e) {
          throw new AgentTool.ToolFailure(
              "'schema' is not a usable JSON schema: " + e.getMessage());
        }
      }

      @Override
      JsonNode wrap(JsonNode answer) {
        ObjectNode out = JSON.createObjectNode();
        out.set("extracted", answer);
        return out;
      }
    };
  }

  /** One worker: prompt, JSON answer, validation, one corrective retry. */
  private abstract static class Worker implements AgentTool {
    private final ChatModel model;
    private final Budgets budgets;
    private final String name;
    private final String description;
    private final String schema;

    Worker(ChatModel model, Budgets budgets, String name, String description, String schema) {
      this.model = Objects.requireNonNull(model, "model");
      this.budgets = Objects.requireNonNull(budgets, "budgets");
      this.name = name;
      this.description = description;
      this.schema = schema;
    }

    abstract String prompt(JsonNode arguments, String text);

    abstract Schema outputSchema(JsonNode arguments) throws AgentTool.ToolFailure;

    abstract JsonNode wrap(JsonNode answer);

    @Override
    public String name() {
      return name;
    }

    @Override
    public String description() {
      return description;
    }

    @Override
    public String parametersJsonSchema() {
      return schema;
    }

    @Override
    public String call(JsonNode arguments) throws AgentTool.ToolFailure, InterruptedException {
      JsonNode textNode = arguments.path("text");
      if (!textNode.isTextual() || textNode.asText().isBlank()) {
        throw new AgentTool.ToolFailure("'text' is required and must be a non-empty string");
      }
      Schema output = outputSchema(arguments);
      String text = textNode.asText();
      if (text.length() > budgets.maxInputChars()) {
        text =
            text.substring(0, budgets.maxInputChars())
                + "\n[text cut to "
                + budgets.maxInputChars()
                + " characters]";
      }
      long deadline = System.nanoTime() + budgets.timeout().toNanos();
      var messages = new ArrayList<ChatMessage>();
      messages.add(ChatMessage.system("You are a careful worker. Answer with JSON only."));
      messages.add(ChatMessage.user(prompt(arguments, text)));
      String problem = null;
      for (int attempt = 1; attempt <= 2; attempt++) {
        String answer = ask(messages, deadline);
        problem = problem(answer, output);
        if (problem == null) {
          return wrap(parse(answer)).toString();
        }
        messages.add(ChatMessage.assistant(answer));
        messages.add(
            ChatMessage.user(
                "That answer is not valid: " + problem + ". Answer again with the JSON only."));
      }
      throw new AgentTool.ToolFailure(
          "the worker model's answer was not valid JSON of the expected shape twice: " + problem);
    }

    private String ask(List<ChatMessage> messages, long deadline)
        throws AgentTool.ToolFailure, InterruptedException {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AgentTool.ToolFailure("the worker's time budget is spent");
      }
      try {
        return model
            .chat(
                new ChatRequest(
                    messages, Duration.ofNanos(left), true, 0.0, budgets.maxTokens(), List.of()),
                ChatListener.NONE)
            .content();
      } catch (ChatException e) {
        if (e.kind() == ChatException.Kind.CANCELLED) {
          throw new InterruptedException("worker call cancelled");
        }
        throw new AgentTool.ToolFailure("the worker model failed: " + e.getMessage(), e);
      }
    }

    private static String problem(String answer, Schema output) {
      JsonNode node = parse(answer);
      if (node == null) {
        return "it is not a JSON object";
      }
      List<Error> errors = output.validate(node);
      if (errors.isEmpty()) {
        return null;
      }
      return "it does not match the schema ("
          + String.join("; ", errors.stream().limit(5).map(Error::getMessage).toList())
          + ")";
    }

    private static JsonNode parse(String answer) {
      try {
        JsonNode node = JSON.readTree(answer == null ? "" : answer.strip());
        return node != null && node.isObject() ? node : null;
      } catch (JsonProcessingException e) {
        return null;
      }
    }
  }
}
