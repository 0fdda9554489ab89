package dev.brain.server.http;

import static dev.brain.server.http.Http.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import io.helidon.webserver.testing.junit5.SetUpServer;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every failure becomes a status and the structured envelope, never a stack trace. */
@ServerTest
class ErrorMappingTest {
  private final URI base;

  record Question(String question, int limit, List<String> sourceTypes) {}

  ErrorMappingTest(URI base) {
    this.base = base;
  }

  @SetUpServer
  static void server(WebServerConfig.Builder server) {
    server.directHandlers(ErrorMapping.directHandlers(4096)).maxPayloadSize(4096);
  }

  @SetUpRoute
  static void routing(HttpRouting.Builder routing) {
    ErrorMapping.register(routing);
    routing
        .post(
            "/echo",
            (req, res) -> HttpJson.ok(res, HttpJson.read(req, 100, "POST /echo", Question.class)))
        .get(
            "/boom",
            (req, res) -> {
              throw new IllegalStateException("secret detail /home/someone/.brain");
            });
  }

  @Test
  void validBodyIsParsedWithSnakeCaseNames() {
    var reply = post(base, "/echo", "{\"question\":\"q\",\"limit\":2,\"source_types\":[\"pdf\"]}");
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().path("source_types").get(0).asText()).isEqualTo("pdf");
  }

  @Test
  void malformedJsonIsA400WithWhereItBroke() {
    var reply = post(base, "/echo", "{\"question\": ");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.error().path("code").asText()).isEqualTo("bad_json");
    assertThat(reply.error().path("message").asText()).contains("line 1");
  }

  @Test
  void emptyBodyIsA400() {
    var reply = post(base, "/echo", "");
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.error().path("code").asText()).isEqualTo("bad_json");
  }

  @Test
  void unknownFieldIsA422ListingTheKnownOnes() {
    var reply = post(base, "/echo", "{\"questoin\":\"q\"}");
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("field").asText()).isEqualTo("questoin");
    assertThat(reply.error().path("allowed_values").toString()).contains("question");
  }

  @Test
  void wrongValueTypeIsA422NamingTheField() {
    var reply = post(base, "/echo", "{\"question\":\"q\",\"limit\":\"many\"}");
    assertThat(reply.status()).isEqualTo(422);
    assertThat(reply.error().path("field").asText()).isEqualTo("limit");
  }

  @Test
  void bodyOverTheEndpointLimitIsA413() {
    var reply = post(base, "/echo", "{\"question\":\"" + "x".repeat(200) + "\"}");
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.error().path("code").asText()).isEqualTo("body_too_large");
    assertThat(reply.error().path("message").asText()).contains("100 bytes");
  }

  @Test
  void bodyOverTheServerLimitIsA413EnvelopeToo() {
    var reply = post(base, "/echo", "{\"question\":\"" + "x".repeat(10_000) + "\"}");
    assertThat(reply.status()).isEqualTo(413);
    assertThat(reply.error().path("code").asText()).isEqualTo("body_too_large");
  }

  @Test
  void internalErrorIsA500WithoutDetailsOrStackTrace() {
    var reply = Http.get(base, "/boom");
    assertThat(reply.status()).isEqualTo(500);
    assertThat(reply.error().path("code").asText()).isEqualTo("internal");
    assertThat(reply.body()).doesNotContain("secret", "/home", "\tat ", "Exception:");
  }
}
