package dev.brain.models.chat;

import static dev.brain.models.chat.ChatTesting.SHORT_TIMEOUT;
import static dev.brain.models.chat.ChatTesting.TOKENS;
import static dev.brain.models.chat.ChatTesting.millisSince;
import static dev.brain.models.chat.ChatTesting.request;
import static dev.brain.models.chat.FakeOpenAiServer.DONE_EVENT;
import static dev.brain.models.chat.FakeOpenAiServer.contentChunk;
import static dev.brain.models.chat.FakeOpenAiServer.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OpenAiChatModelTest {
  private static final String MODEL = "qwen3-8b";
  private static final String KEY = "sk-test-0123456789abcdef";

  private FakeOpenAiServer server;
  private ChatModel model;

  @BeforeEach
  void start() {
    server = FakeOpenAiServer.start();
    model = open(server.config().withApiKey(KEY));
  }

  @AfterEach
  void stop() {
    model.close();
    server.close();
  }

  private static ChatModel open(ChatConfig config) {
    return ChatModels.open("openai/" + MODEL, config);
  }

  @Test
  void streamsTokensInOrderWhateverBytesTheStreamIsSplitAt() throws ChatException {
    List<FakeResponse> scripts = new ArrayList<>();
    for (int size : new int[] {1, 2, 3, 5, 7, 4096}) {
      scripts.add(FakeOpenAiServer.answer(MODEL, TOKENS, 52, 7).splitEvery(size));
    }
    for (long seed = 1; seed <= 4; seed++) {
      scripts.add(FakeOpenAiServer.answer(MODEL, TOKENS, 52, 7).splitRandomly(seed, 13));
    }
    scripts.forEach(server::enqueue);

    for (FakeResponse script : scripts) {
      List<String> received = new ArrayList<>();
      ChatResponse response = model.chat(request(), received::add);

      assertThat(received).as("split %s", script.steps().size()).isEqualTo(TOKENS);
      assertThat(response.content()).isEqualTo(String.join("", TOKENS));
      assertThat(response.promptTokens()).isEqualTo(52);
      assertThat(response.completionTokens()).isEqualTo(7);
      assertThat(response.model()).isEqualTo(MODEL);
    }
  }

  @Test
  void readsEventsWithCrLfCommentsEventNamesAndMultiLineData() throws ChatException {
    String pretty =
        "{\n  \"model\": \"" + MODEL + "\",\n  \"choices\": [{\"delta\": {\"content\": \"b\"}}]\n}";
    String multiLineData = "data: " + pretty.replace("\n", "\r\ndata: ") + "\r\n\r\n";
    server.enqueue(
        FakeOpenAiServer.stream()
            .write(": keep-alive\r\n\r\n")
            .write(
                "event: message\r\nid: 1\r\n"
                    + event(contentChunk(MODEL, "a")).replace("\n", "\r\n"))
            .write(multiLineData)
            .write("retry: 1000\r\n\r\n")
            .write("data:" + contentChunk(MODEL, "c") + "\r\n\r\n")
            .write("data: [DONE]\r\n\r\n")
            .splitEvery(4));
    List<String> received = new ArrayList<>();

    ChatResponse response = model.chat(request(), received::add);

    assertThat(received).containsExactly("a", "b", "c");
    assertThat(response.promptTokens()).as("no usage chunk").isEqualTo(-1);
  }

  @Test
  void postsAStreamingChatCompletionWithTheBearerKey() throws ChatException {
    server.enqueue(FakeOpenAiServer.answer(MODEL, List.of("ok"), 3, 1));

    model.chat(request(), ChatListener.NONE);

    RecordedRequest sent = server.lastRequest();
    assertThat(sent.method()).isEqualTo("POST");
    assertThat(sent.path()).isEqualTo("/v1/chat/completions");
    assertThat(sent.header("Authorization")).isEqualTo("Bearer " + KEY);
    assertThat(sent.header("Accept")).isEqualTo("text/event-stream");
    JsonNode body = sent.json();
    assertThat(body.path("model").asText()).isEqualTo(MODEL);
    assertThat(body.path("stream").asBoolean()).isTrue();
    assertThat(body.path("stream_options").path("include_usage").asBoolean()).isTrue();
    assertThat(body.path("temperature").asDouble()).isEqualTo(0.2);
    assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("system");
    assertThat(body.has("max_tokens")).isFalse();
    assertThat(body.has("response_format")).isFalse();
    assertThat(body.has("tools")).isFalse();
  }

  @Test
  void sendsNoAuthorizationHeaderWithoutAKey() throws ChatException {
    server.enqueue(FakeOpenAiServer.answer(MODEL, List.of("ok"), 3, 1));

    try (ChatModel keyless = open(server.config())) {
      keyless.chat(request(), ChatListener.NONE);
    }

    assertThat(server.lastRequest().header("Authorization")).isNull();
  }

  @Test
  void asksForAJsonObjectAndATokenLimitWhenRequested() throws ChatException {
    server.enqueue(FakeOpenAiServer.answer(MODEL, List.of("{\"variants\":", "[]}"), 3, 2));
    ChatRequest plan =
        new ChatRequest(
            List.of(ChatMessage.user("plan")), Duration.ofSeconds(5), true, 0, 256, List.of());

    ChatResponse response = model.chat(plan, ChatListener.NONE);

    JsonNode body = server.lastRequest().json();
    assertThat(body.path("response_format").path("type").asText()).isEqualTo("json_object");
    assertThat(body.path("max_tokens").asInt()).isEqualTo(256);
    assertThat(response.content()).isEqualTo("{\"variants\":[]}");
  }

  @Test
  void accumulatesToolCallFragmentsByIndex() throws ChatException {
    server.enqueue(
        FakeOpenAiServer.stream()
            .write(event(FakeOpenAiServer.roleChunk(MODEL)))
            .write(event(toolChunk(0, "call_a", "brain_search", "")))
            .write(event(toolChunk(0, null, null, "{\"que")))
            .write(event(toolChunk(1, "call_b", "brain_get", "{\"key\":")))
            .write(event(toolChunk(0, null, null, "ry\":\"hnsw ")))
            .write(event(toolChunk(1, null, null, "\"note:a.md\"}")))
            .write(event(toolChunk(0, null, null, "recall\"}")))
            .write(event(FakeOpenAiServer.finishChunk(MODEL, "tool_calls")))
            .write(DONE_EVENT)
            .splitRandomly(7, 9));
    ChatRequest.ToolSpec search =
        new ChatRequest.ToolSpec(
            "brain_search",
            "Search the corpus",
            "{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}}}");
    ChatRequest withTools =
        new ChatRequest(
            List.of(ChatMessage.user("find notes")),
            Duration.ofSeconds(5),
            false,
            0,
            0,
            List.of(search));

    ChatResponse response = model.chat(withTools, ChatListener.NONE);

    assertThat(response.content()).isEmpty();
    assertThat(response.toolCalls())
        .containsExactly(
            new ChatResponse.ToolCall("call_a", "brain_search", "{\"query\":\"hnsw recall\"}"),
            new ChatResponse.ToolCall("call_b", "brain_get", "{\"key\":\"note:a.md\"}"));
    JsonNode tool = server.lastRequest().json().path("tools").get(0);
    assertThat(tool.path("type").asText()).isEqualTo("function");
    assertThat(tool.path("function").path("name").asText()).isEqualTo("brain_search");
    assertThat(tool.path("function").path("description").asText()).isEqualTo("Search the corpus");
    assertThat(tool.path("function").path("parameters").path("properties").has("query")).isTrue();
  }

  @Test
  void sendsToolResultsBackInOpenAiShape() throws ChatException {
    server.enqueue(FakeOpenAiServer.answer(MODEL, List.of("done"), 3, 1));
    ChatResponse.ToolCall call =
        new ChatResponse.ToolCall("call_a", "brain_search", "{\"query\":\"hnsw\"}");
    ChatRequest followUp =
        new ChatRequest(
            List.of(
                ChatMessage.user("find notes"),
                ChatMessage.assistant("", List.of(call)),
                ChatMessage.tool("call_a", "{\"hits\":[]}")),
            Duration.ofSeconds(5),
            false,
            0,
            0,
            List.of());

    model.chat(followUp, ChatListener.NONE);

    JsonNode messages = server.lastRequest().json().path("messages");
    JsonNode sentCall = messages.get(1).path("tool_calls").get(0);
    assertThat(sentCall.path("id").asText()).isEqualTo("call_a");
    assertThat(sentCall.path("type").asText()).isEqualTo("function");
    assertThat(sentCall.path("function").path("arguments").asText())
        .isEqualTo("{\"query\":\"hnsw\"}");
    assertThat(messages.get(2).path("role").asText()).isEqualTo("tool");
    assertThat(messages.get(2).path("tool_call_id").asText()).isEqualTo("call_a");
  }

  @Test
  void theApiKeyNeverAppearsInToStringsOrErrors() {
    server.enqueue(FakeOpenAiServer.unauthorized(KEY));

    assertThat(server.config().withApiKey(KEY).toString()).doesNotContain(KEY).contains("redacted");
    assertThat(model.toString()).doesNotContain(KEY);
    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .satisfies(e -> assertThat(e.toString()).doesNotContain(KEY))
        .withMessageContaining("HTTP 401")
        .withMessageContaining("Incorrect API key provided")
        .withMessageContaining("BRAIN_OPENAI_API_KEY");
  }

  @Test
  void anUnknownModelIsUnavailable() {
    server.enqueue(FakeOpenAiServer.modelNotFound(MODEL));

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.UNAVAILABLE))
        .withMessageContaining("'" + MODEL + "'")
        .withMessageContaining("does not exist");
  }

  @Test
  void aRefusedConnectionIsUnavailableAndNamesTheUrl() {
    URI nothingListens = URI.create(FakeHttpServer.refusingUrl() + "/v1");

    try (ChatModel absent = open(ChatConfig.defaults().withOpenAiUrl(nothingListens))) {
      assertThatExceptionOfType(ChatException.class)
          .isThrownBy(() -> absent.chat(request(), ChatListener.NONE))
          .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.UNAVAILABLE))
          .withMessageContaining(nothingListens.toString())
          .withMessageContaining("connection refused");
    }
  }

  @Test
  void aStalledStreamTimesOutWithinTheRequestTimeout() {
    server.enqueue(
        FakeOpenAiServer.stream().write(event(FakeOpenAiServer.roleChunk(MODEL))).thenHang());
    long start = System.nanoTime();

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(SHORT_TIMEOUT), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.TIMEOUT));
    assertThat(millisSince(start)).isBetween(250L, 2_000L);
  }

  @Test
  void keepAliveCommentsDoNotExtendTheTimeout() {
    FakeResponse keepAlive = FakeOpenAiServer.stream();
    for (int i = 0; i < 100; i++) {
      keepAlive = keepAlive.write(": ping\n\n").pause(Duration.ofMillis(20));
    }
    server.enqueue(keepAlive);
    long start = System.nanoTime();

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(SHORT_TIMEOUT), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.TIMEOUT));
    assertThat(millisSince(start)).isBetween(250L, 2_000L);
  }

  @Test
  void garbageInsteadOfEventsIsAProtocolError() {
    server.enqueue(FakeResponse.of(200, "text/html").write("<html>upstream error</html>\n"));

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageContaining("server-sent events")
        .withMessageContaining("<html>upstream error</html>");
  }

  @Test
  void anEventThatIsNotJsonIsAProtocolError() {
    server.enqueue(FakeOpenAiServer.stream().write("data: {\"choices\": [\n\n"));

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageContaining("not JSON");
  }

  @Test
  void aStreamThatEndsWithoutDoneIsAProtocolError() {
    String full = FakeOpenAiServer.answer(MODEL, TOKENS, 5, 7).bodyText();
    String cut = full.substring(0, full.indexOf(DONE_EVENT));
    server.enqueue(FakeOpenAiServer.stream().write(cut).splitEvery(3));
    List<String> received = new ArrayList<>();

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), received::add))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageContaining("data: [DONE]");
    assertThat(received).isEqualTo(TOKENS);
  }

  @Test
  void anErrorEventMidStreamIsAProtocolErrorWithTheServersMessage() {
    server.enqueue(
        FakeOpenAiServer.stream()
            .write(event(contentChunk(MODEL, "Hel")))
            .write(event("{\"error\":{\"message\":\"context length exceeded\"}}")));

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageContaining("context length exceeded");
  }

  @Test
  void interruptingTheCallerCancelsTheExchangeAndClosesTheConnection() throws Exception {
    FakeResponse endless = FakeOpenAiServer.stream();
    for (int i = 0; i < 200; i++) {
      endless = endless.write(event(contentChunk(MODEL, "t" + i))).pause(Duration.ofMillis(20));
    }
    server.enqueue(endless);

    ChatTesting.Interruption outcome = ChatTesting.interruptAfterFirstToken(model, request());

    assertThat(outcome.callerAlive()).isFalse();
    assertThat(outcome.failure())
        .isInstanceOfSatisfying(
            ChatException.class, e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.CANCELLED));
    assertThat(outcome.sinceInterrupt()).isLessThan(Duration.ofSeconds(1));
    assertThat(outcome.flagKept()).as("interrupt status kept").isTrue();
    assertThat(server.awaitClientDisconnect(Duration.ofSeconds(3))).isTrue();
  }

  @Test
  void aHostedUrlIsRefusedBeforeAnyConnection() {
    // TEST-NET-3: never routed; the refusal must come before any connection attempt.
    ChatConfig hosted =
        ChatConfig.defaults().withOpenAiUrl(URI.create("https://203.0.113.1/v1")).withApiKey(KEY);
    long start = System.nanoTime();

    try (ChatModel remote = open(hosted)) {
      assertThatExceptionOfType(ChatException.class)
          .isThrownBy(() -> remote.chat(request(), ChatListener.NONE))
          .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.REFUSED))
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(KEY))
          .withMessageContaining("https://203.0.113.1/v1")
          .withMessageContaining("BRAIN_ALLOW_HOSTED=true");
    }
    assertThat(millisSince(start)).isLessThan(1_000L);
  }

  private static String toolChunk(int index, String id, String name, String arguments) {
    return FakeOpenAiServer.toolCallChunk(MODEL, index, id, name, arguments);
  }
}
