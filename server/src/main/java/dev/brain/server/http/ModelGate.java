package dev.brain.server.http;

import dev.brain.Brain;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import io.helidon.http.Status;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * The gate in front of the chat models the server answers with: resolves a request's {@code model}
 * against the configured default, refuses hosted servers without opt-in, and checks that the
 * model's server is reachable before a stream starts, so an unavailable model is a 503 and not a
 * broken stream. The models themselves are the {@link Brain}'s, opened once and closed with it.
 */
final class ModelGate {

  /** How long the reachability check may take. */
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

  private final Brain brain;
  private final String defaultSpec;
  private final ChatConfig config;

  /**
   * The model of one request.
   *
   * @param id {@code extractive}, or the chat model's id ({@code ollama/llama3.2})
   * @param model the chat model, or {@code null} for the built-in extractive synthesizer
   */
  record Resolved(String id, ChatModel model) {
    boolean extractive() {
      return model == null;
    }
  }

  ModelGate(Brain brain) {
    this.brain = brain;
    this.defaultSpec = brain.config().chat().model();
    this.config = brain.config().chat().chatConfig();
  }

  /** The configured default model id. */
  String defaultSpec() {
    return defaultSpec;
  }

  /**
   * The model a request asked for ({@code null} or blank: the configured default), checked to be
   * reachable.
   *
   * @throws ApiException 422 for an unknown provider; 503 {@code model_unavailable} with {@code
   *     answer_status: unavailable} when its server refuses, is hosted without opt-in, or cannot be
   *     reached
   */
  Resolved resolve(String requested) {
    String spec = requested == null || requested.isBlank() ? defaultSpec : requested.strip();
    if (ChatModels.isExtractive(spec)) {
      return new Resolved(ChatModels.EXTRACTIVE, null);
    }
    URI base = baseUrl(spec);
    if (ChatModels.isHosted(base) && !config.allowHosted()) {
      throw unavailable(
          spec
              + " points at "
              + base
              + ", a hosted server; brain never calls one unless BRAIN_ALLOW_HOSTED=true is set");
    }
    probe(spec, base);
    ChatModel model;
    try {
      model = brain.chatModel(spec);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidOption(e.getMessage(), "model");
    }
    return new Resolved(model.id(), model);
  }

  private URI baseUrl(String spec) {
    try {
      return ChatModels.baseUrl(spec, config);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidOption(
          "unknown model '" + spec + "'",
          "model",
          List.of("extractive", "ollama/<model>", "openai/<model>"));
    }
  }

  /**
   * A TCP connect to the model server: enough to tell a stopped or unreachable server from a
   * running one, without sending a request (a missing model is reported by the answer itself).
   */
  private static void probe(String spec, URI base) {
    int port = base.getPort() > 0 ? base.getPort() : "https".equals(base.getScheme()) ? 443 : 80;
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(base.getHost(), port), (int) PROBE_TIMEOUT.toMillis());
    } catch (IOException e) {
      throw unavailable(
          spec
              + " is unavailable: nothing answers at "
              + base
              + " ("
              + e.getMessage()
              + "); start the model server or choose another model");
    }
  }

  /** Whether {@code e} is this gate's refusal of a model that cannot be reached. */
  static boolean unavailable(ApiException e) {
    return UNAVAILABLE.equals(e.error().code());
  }

  private static final String UNAVAILABLE = "model_unavailable";

  static ApiException unavailable(String message) {
    return new ApiException(
        Status.SERVICE_UNAVAILABLE_503,
        new ApiError(UNAVAILABLE, message, "model", List.of(), "unavailable"),
        0);
  }
}
