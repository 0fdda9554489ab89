package dev.brain.models.chat;

import static dev.brain.models.chat.ChatTesting.SHORT_TIMEOUT;
import static dev.brain.models.chat.ChatTesting.TOKENS;
import static dev.brain.models.chat.ChatTesting.millisSince;
import static dev.brain.models.chat.ChatTesting.request;
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

class OllamaChatModelTest {
  private static final String MODEL = "llama3.2";

  private FakeOllamaServer ollama;
  private ChatModel model;

  @BeforeEach
  void start() {
    ollama = FakeOllamaServer.start();
    model = ChatModels.open("ollama/" + MODEL, ollama.config());
  }

  @AfterEach
  void stop() {
    model.close();
    ollama.close();
  }

  @Test
  void streamsTokensInOrderWhateverBytesTheStreamIsSplitAt() throws ChatException {
    List<FakeResponse> scripts = new ArrayList<>();
    for (int size : new int[] {1, 2, 3, 5, 7, 4096}) {
      scripts.add(FakeOllamaServer.answer(MODEL, TOKENS, 31, 7).splitEvery(size));
    }
    for (long seed = 1; seed <= 4; seed++) {
      scripts.add(FakeOllamaServer.answer(MODEL, TOKENS, 31, 7).splitRandomly(seed, 11));
    }
    scripts.forEach(ollama::enqueue);

    for (FakeResponse script : scripts) {
      List<String> received = new ArrayList<>();
      ChatResponse response = model.chat(request(), received::add);

      assertThat(received).as("split %s", script.steps().size()).isEqualTo(TOKENS);
      assertThat(response.content()).isEqualTo(String.join("", TOKENS));
      assertThat(response.promptTokens()).isEqualTo(31);
      assertThat(response.completionTokens()).isEqualTo(7);
      assertThat(response.model()).isEqualTo(MODEL);
      assertThat(response.toolCalls()).isEmpty();
    }
  }

  @Test
  void postsANativeStreamingChatRequest() throws ChatException {
    ollama.enqueue(FakeOllamaServer.answer(MODEL, List.of("ok"), 3, 1));

    model.chat(request(), ChatListener.NONE);

    RecordedRequest sent = ollama.lastRequest();
    assertThat(sent.method()).isEqualTo("POST");
    assertThat(sent.path()).isEqualTo("/api/chat");
    assertThat(sent.header("Content-Type")).isEqualTo("application/json");
    JsonNode body = sent.json();
    assertThat(body.path("model").asText()).isEqualTo(MODEL);
    assertThat(body.path("stream").asBoolean()).isTrue();
    assertThat(body.path("messages").get(0).path("role").asText()).isEqualTo("system");
    assertThat(body.path("messages").get(1).path("content").asText()).isEqualTo("Why?");
    assertThat(body.path("options").path("temperature").asDouble()).isEqualTo(0.2);
    assertThat(body.has("format")).isFalse();
    assertThat(body.path("options").has("num_predict")).isFalse();
    assertThat(body.has("tools")).isFalse();
  }

  @Test
  void asksForJsonFormatAndATokenLimitWhenRequested() throws ChatException {
    ollama.enqueue(FakeOllamaServer.answer(MODEL, List.of("{\"concepts\":[]}"), 3, 4));
    ChatRequest plan =
        new ChatRequest(
            List.of(ChatMessage.user("plan")), Duration.ofSeconds(5), true, 0, 200, List.of());

    ChatResponse response = model.chat(plan, ChatListener.NONE);

    JsonNode body = ollama.lastRequest().json();
    assertThat(body.path("format").asText()).isEqualTo("json");
    assertThat(body.path("options").path("num_predict").asInt()).isEqualTo(200);
    assertThat(body.path("options").path("temperature").asDouble()).isZero();
    assertThat(response.content()).isEqualTo("{\"concepts\":[]}");
  }

  @Test
  void sendsToolsAndReturnsTheToolCallsOllamaStreams() throws ChatException {
    ollama.enqueue(
        FakeOllamaServer.stream()
            .write(FakeOllamaServer.toolCallLine(MODEL, "brain_search", "{\"query\":\"hnsw\"}"))
            .write(FakeOllamaServer.doneLine(MODEL, 40, 9))
            .splitEvery(6));
    ChatRequest.ToolSpec search =
        new ChatRequest.ToolSpec(
            "brain_search",
            "Search the corpus",
            "{\"type\":\"object\",\"properties\":{\"query\":{\"type\":\"string\"}}}");
    ChatRequest withTools =
        new ChatRequest(
            List.of(ChatMessage.user("find hnsw notes")),
            Duration.ofSeconds(5),
            false,
            0,
            0,
            List.of(search));

    ChatResponse response = model.chat(withTools, ChatListener.NONE);

    assertThat(response.toolCalls())
        .containsExactly(
            new ChatResponse.ToolCall("call_0", "brain_search", "{\"query\":\"hnsw\"}"));
    JsonNode tool = ollama.lastRequest().json().path("tools").get(0);
    assertThat(tool.path("type").asText()).isEqualTo("function");
    assertThat(tool.path("function").path("name").asText()).isEqualTo("brain_search");
    assertThat(tool.path("function").path("parameters").path("type").asText()).isEqualTo("object");
  }

  @Test
  void sendsEarlierToolCallsBackWithArgumentsAsObjects() throws ChatException {
    ollama.enqueue(FakeOllamaServer.answer(MODEL, List.of("done"), 3, 1));
    ChatResponse.ToolCall call =
        new ChatResponse.ToolCall("call_0", "brain_search", "{\"query\":\"hnsw\"}");
    ChatRequest followUp =
        new ChatRequest(
            List.of(
                ChatMessage.user("find hnsw notes"),
                ChatMessage.assistant("", List.of(call)),
                ChatMessage.tool("call_0", "{\"hits\":[]}")),
            Duration.ofSeconds(5),
            false,
            0,
            0,
            List.of());

    model.chat(followUp, ChatListener.NONE);

    JsonNode messages = ollama.lastRequest().json().path("messages");
    JsonNode sentCall = messages.get(1).path("tool_calls").get(0).path("function");
    assertThat(sentCall.path("name").asText()).isEqualTo("brain_search");
    assertThat(sentCall.path("arguments").path("query").asText()).isEqualTo("hnsw");
    assertThat(messages.get(2).path("role").asText()).isEqualTo("tool");
  }

  @Test
  void aMissingModelIsUnavailableAndSaysHowToPullIt() {
    ollama.enqueue(FakeOllamaServer.modelNotFound(MODEL));

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.UNAVAILABLE))
        .withMessageContaining("'llama3.2'")
        .withMessageContaining("not found")
        .withMessageContaining("ollama pull llama3.2");
  }

  @Test
  void aRefusedConnectionIsUnavailableAndNamesTheUrl() {
    URI nothingListens = FakeHttpServer.refusingUrl();

    try (ChatModel absent =
        ChatModels.open("ollama/" + MODEL, ChatConfig.defaults().withOllamaUrl(nothingListens))) {
      assertThatExceptionOfType(ChatException.class)
          .isThrownBy(() -> absent.chat(request(), ChatListener.NONE))
          .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.UNAVAILABLE))
          .withMessageContaining(nothingListens.toString())
          .withMessageContaining("connection refused")
          .withMessageContaining("ollama serve");
    }
  }

  @Test
  void aServerThatNeverAnswersTimesOutWithinTheRequestTimeout() {
    ollama.enqueue(FakeOllamaServer.stream().delayHeaders(Duration.ofSeconds(10)));
    long start = System.nanoTime();

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(SHORT_TIMEOUT), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.TIMEOUT))
        .withMessageContaining("300 ms");
    assertThat(millisSince(start)).isBetween(250L, 2_000L);
  }

  @Test
  void theTimeoutBoundsTheWholeStreamNotJustTheHeaders() {
    FakeResponse trickle = FakeOllamaServer.stream();
    for (int i = 0; i < 50; i++) {
      trickle =
          trickle.write(FakeOllamaServer.tokenLine(MODEL, "t" + i)).pause(Duration.ofMillis(50));
    }
    ollama.enqueue(trickle.write(FakeOllamaServer.doneLine(MODEL, 1, 50)));
    List<String> received = new ArrayList<>();
    long start = System.nanoTime();

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(SHORT_TIMEOUT), received::add))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.TIMEOUT));
    assertThat(millisSince(start)).isBetween(250L, 2_000L);
    assertThat(received).isNotEmpty().hasSizeLessThan(50);
  }

  @Test
  void garbageInsteadOfNdjsonIsAProtocolError() {
    ollama.enqueue(
        FakeResponse.of(200, "text/html").write("<html><body>502 Bad Gateway</body></html>\n"));

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageContaining("not JSON")
        .withMessageContaining("502 Bad Gateway");
  }

  @Test
  void aStreamThatEndsWithoutDoneIsAProtocolError() {
    FakeResponse cut = FakeOllamaServer.stream();
    for (String token : TOKENS) {
      cut = cut.write(FakeOllamaServer.tokenLine(MODEL, token));
    }
    ollama.enqueue(cut.splitEvery(5));
    List<String> received = new ArrayList<>();

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), received::add))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageContaining("\"done\": true");
    assertThat(received).isEqualTo(TOKENS);
  }

  @Test
  void anErrorLineMidStreamIsAProtocolErrorWithTheServersMessage() {
    ollama.enqueue(
        FakeOllamaServer.stream()
            .write(FakeOllamaServer.tokenLine(MODEL, "Hel"))
            .write("{\"error\":\"llama runner process has terminated\"}\n"));

    assertThatExceptionOfType(ChatException.class)
        .isThrownBy(() -> model.chat(request(), ChatListener.NONE))
        .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.PROTOCOL))
        .withMessageContaining("llama runner process has terminated");
  }

  @Test
  void interruptingTheCallerCancelsTheExchangeAndClosesTheConnection() throws Exception {
    FakeResponse endless = FakeOllamaServer.stream();
    for (int i = 0; i < 200; i++) {
      endless =
          endless.write(FakeOllamaServer.tokenLine(MODEL, "t" + i)).pause(Duration.ofMillis(20));
    }
    ollama.enqueue(endless);

    ChatTesting.Interruption outcome = ChatTesting.interruptAfterFirstToken(model, request());

    assertThat(outcome.callerAlive()).isFalse();
    assertThat(outcome.failure())
        .isInstanceOfSatisfying(
            ChatException.class, e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.CANCELLED));
    assertThat(outcome.sinceInterrupt()).isLessThan(Duration.ofSeconds(1));
    assertThat(outcome.flagKept()).as("interrupt status kept").isTrue();
    assertThat(ollama.awaitClientDisconnect(Duration.ofSeconds(3))).isTrue();
  }

  @Test
  void aHostedUrlIsRefusedBeforeAnyConnectionUnlessHostedUseIsOn() {
    // TEST-NET-3: never routed; the refusal must come before any connection attempt.
    ChatConfig hosted = ChatConfig.defaults().withOllamaUrl(URI.create("http://203.0.113.1:11434"));
    long start = System.nanoTime();

    try (ChatModel remote = ChatModels.open("ollama/" + MODEL, hosted)) {
      assertThatExceptionOfType(ChatException.class)
          .isThrownBy(() -> remote.chat(request(), ChatListener.NONE))
          .satisfies(e -> assertThat(e.kind()).isEqualTo(ChatException.Kind.REFUSED))
          .withMessageContaining("203.0.113.1")
          .withMessageContaining("BRAIN_ALLOW_HOSTED=true");
    }
    assertThat(millisSince(start)).isLessThan(1_000L);
  }
}
