package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import io.helidon.webserver.testing.junit5.SetUpServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The SSE machinery: heartbeats, terminal events, failures and client disconnects. */
@ServerTest
class EventStreamTest {
  private static final Duration HEARTBEAT = Duration.ofMillis(100);
  private static final RunLimiter LIMITER = new RunLimiter(1);
  private static final RunLimiter QUICK_LIMITER = new RunLimiter(1);
  private static volatile CountDownLatch slowStarted = new CountDownLatch(1);
  private static volatile CountDownLatch slowCancelled = new CountDownLatch(1);

  private final URI base;

  EventStreamTest(URI base) {
    this.base = base;
  }

  @SetUpServer
  static void server(WebServerConfig.Builder server) {
    server.directHandlers(ErrorMapping.directHandlers(4096));
  }

  @SetUpRoute
  static void routing(HttpRouting.Builder routing) {
    ErrorMapping.register(routing);
    routing
        .post("/ok", (req, res) -> stream(res, EventStreamTest::answers))
        .post("/quiet", (req, res) -> stream(res, EventStreamTest::quietThenDone))
        .post("/fails", (req, res) -> stream(res, EventStreamTest::failsMidStream))
        .post("/error-then-done", (req, res) -> stream(res, EventStreamTest::errorThenDone))
        .post("/no-terminal", (req, res) -> stream(res, e -> e.emit("start", Map.of())))
        .post(
            "/refused-early",
            (req, res) ->
                stream(
                    res,
                    e -> {
                      e.emit("start", Map.of());
                      throw ModelGate.unavailable("nothing answers at the model's address");
                    }))
        .post(
            "/refused-late",
            (req, res) ->
                EventStream.serve(
                    res,
                    HEARTBEAT,
                    e -> {
                      e.emit("start", Map.of());
                      e.commit();
                      throw ModelGate.unavailable("the model went away");
                    },
                    ResearchService::failure,
                    () -> {}))
        .post("/slow", (req, res) -> limited(res, LIMITER, EventStreamTest::slowModel))
        .post("/quick", (req, res) -> limited(res, QUICK_LIMITER, EventStreamTest::answers));
  }

  /** A stream holding a slot of {@code limiter}, as the research endpoints do. */
  private static void limited(ServerResponse res, RunLimiter limiter, EventStream.Work work) {
    try (var slot = limiter.acquire()) {
      EventStream.serve(res, HEARTBEAT, work, ResearchService::failure, slot::close);
    }
  }

  private static void stream(ServerResponse res, EventStream.Work work) {
    EventStream.serve(
        res,
        HEARTBEAT,
        work,
        t ->
            Map.of(
                "answer_status",
                "error",
                "code",
                "model_error",
                "message",
                String.valueOf(t.getMessage())),
        () -> {});
  }

  private static void answers(EventStream.Emitter e) {
    e.emit("start", Map.of("model", "scripted"));
    e.emit("answer", Map.of("text", "Backflush every 200 shots [src:ada2743d1b19]."));
    e.emit("citation", Map.of("source_key", "src:ada2743d1b19"));
    e.emit("done", Map.of("answer_status", "ok"));
  }

  private static void quietThenDone(EventStream.Emitter e) throws InterruptedException {
    e.emit("start", Map.of());
    Thread.sleep(HEARTBEAT.multipliedBy(4).toMillis());
    e.emit("done", Map.of("answer_status", "ok"));
  }

  private static void failsMidStream(EventStream.Emitter e) {
    e.emit("start", Map.of());
    throw new IllegalStateException("the model closed the connection");
  }

  private static void errorThenDone(EventStream.Emitter e) {
    e.emit("start", Map.of());
    e.emit("error", Map.of("answer_status", "error"));
    e.emit("done", Map.of("answer_status", "ok"));
  }

  private static void slowModel(EventStream.Emitter e) throws InterruptedException {
    e.emit("start", Map.of());
    slowStarted.countDown();
    try {
      Thread.sleep(60_000); // a model that takes a minute
      e.emit("done", Map.of());
    } catch (InterruptedException cancelled) {
      slowCancelled.countDown();
      throw cancelled;
    }
  }

  private Sse.Stream2 post(String path) {
    return Sse.read(Sse.post(base.resolve(path), "{}"));
  }

  @Test
  void successIsStartAnswerCitationDoneAsEventStream() {
    var stream = post("/ok");
    assertThat(stream.status()).isEqualTo(200);
    assertThat(stream.contentType()).startsWith("text/event-stream");
    assertThat(stream.namesWithoutHeartbeats())
        .containsExactly("start", "answer", "citation", "done");
    assertThat(stream.first("answer").data().path("text").asText()).contains("[src:ada2743d1b19]");
  }

  @Test
  void quietStagesAreFilledWithHeartbeats() {
    var stream = post("/quiet");
    assertThat(stream.names()).startsWith("start").endsWith("done");
    assertThat(stream.names().stream().filter("heartbeat"::equals).count())
        .isGreaterThanOrEqualTo(2);
    assertThat(stream.first("heartbeat").data().path("elapsed_ms").asLong()).isPositive();
  }

  @Test
  void aFailureAfterTheStreamStartedIsATerminalErrorEvent() {
    var stream = post("/fails");
    assertThat(stream.status()).isEqualTo(200);
    assertThat(stream.namesWithoutHeartbeats()).containsExactly("start", "error");
    assertThat(stream.first("error").data().path("answer_status").asText()).isEqualTo("error");
    assertThat(stream.first("error").data().path("message").asText()).contains("closed");
  }

  @Test
  void errorIsNeverFollowedByDone() {
    assertThat(post("/error-then-done").namesWithoutHeartbeats()).containsExactly("start", "error");
  }

  @Test
  void aRunEndingWithoutAResultGetsAnError() {
    var stream = post("/no-terminal");
    assertThat(stream.namesWithoutHeartbeats()).containsExactly("start", "error");
    assertThat(stream.first("error").data().path("code").asText()).isEqualTo("internal");
  }

  @Test
  void aRefusalBeforeTheCommitIsAPlainHttpError() {
    var reply = Http.send(Sse.post(base.resolve("/refused-early"), "{}"));
    assertThat(reply.status()).isEqualTo(503);
    assertThat(reply.contentType()).startsWith("application/json");
    assertThat(reply.error().path("answer_status").asText()).isEqualTo("unavailable");
  }

  @Test
  void aRefusalAfterTheCommitIsAnErrorEventKeepingItsStatus() {
    var stream = post("/refused-late");
    assertThat(stream.status()).isEqualTo(200);
    assertThat(stream.namesWithoutHeartbeats()).containsExactly("start", "error");
    var error = stream.first("error").data();
    assertThat(error.path("answer_status").asText()).isEqualTo("unavailable");
    assertThat(error.path("code").asText()).isEqualTo("model_unavailable");
  }

  @Test
  void theSlotIsFreeByTheTimeTheClientSeesTheStreamEnd() {
    for (int i = 0; i < 5; i++) {
      var stream = post("/quick");
      assertThat(stream.namesWithoutHeartbeats()).endsWith("done");
      // No wait: a chat sending its next question right after `done` must not be told "busy".
      assertThat(QUICK_LIMITER.active()).as("slot after run %d", i).isZero();
    }
  }

  @Test
  void aBusyRefusalClosesItsConnection() throws Exception {
    slowStarted = new CountDownLatch(1);
    slowCancelled = new CountDownLatch(1);
    var reader = Sse.open(Sse.post(base.resolve("/slow"), "{}"));
    assertThat(Sse.next(reader).name()).isEqualTo("start");
    assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();
    String refused =
        "POST /slow HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + "Content-Length: 2\r\n\r\n{}";
    var c = RawHttp.converse(base.getPort(), refused.getBytes(StandardCharsets.ISO_8859_1), 10_000);
    assertThat(c.statuses()).as(c.text()).containsExactly(503);
    assertThat(c.text()).containsIgnoringCase("connection: close").contains("Retry-After");
    assertThat(c.closed()).as("the server closed the refused connection").isTrue();
    reader.close();
    assertThat(slowCancelled.await(10, TimeUnit.SECONDS)).isTrue();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (LIMITER.active() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  @Test
  void aClientDisconnectCancelsTheSlowModelAndFreesTheSlotWhileABusyServerSays503()
      throws Exception {
    slowStarted = new CountDownLatch(1);
    slowCancelled = new CountDownLatch(1);
    var reader = Sse.open(Sse.post(base.resolve("/slow"), "{}"));
    assertThat(Sse.next(reader).name()).isEqualTo("start");
    assertThat(slowStarted.await(5, TimeUnit.SECONDS)).isTrue();

    var refused = Http.send(Sse.post(base.resolve("/slow"), "{}"));
    assertThat(refused.status()).isEqualTo(503);
    assertThat(refused.error().path("code").asText()).isEqualTo("busy");
    assertThat(refused.headers().firstValue("retry-after")).contains("5");

    reader.close(); // the user closed the tab
    assertThat(slowCancelled.await(10, TimeUnit.SECONDS))
        .as("the model call saw the cancellation")
        .isTrue();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (LIMITER.active() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(LIMITER.active()).as("the run's slot was released").isZero();
  }
}
