package dev.brain.models.chat;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * Opens chat models by their configured spec: {@code ollama/<model>} (Ollama's native API) or
 * {@code openai/<model>} (any OpenAI-compatible server).
 *
 * <pre>{@code
 * ChatConfig config = ChatConfig.defaults();
 * if (!ChatModels.isExtractive(spec)) {
 *   try (ChatModel model = ChatModels.open(spec, config)) {
 *     ChatResponse answer = model.chat(request, System.out::print);
 *   }
 * }
 * }</pre>
 *
 * <p>{@value #EXTRACTIVE}, brain's default, is not a chat model: it is the research module's
 * built-in deterministic synthesizer, so {@link #open} refuses it.
 */
public final class ChatModels {

  /** The spec of the built-in extractive synthesizer (not opened here). */
  public static final String EXTRACTIVE = "extractive";

  private ChatModels() {}

  /** Whether {@code spec} names the built-in extractive synthesizer rather than a chat model. */
  public static boolean isExtractive(String spec) {
    return spec != null && spec.strip().equalsIgnoreCase(EXTRACTIVE);
  }

  /**
   * Whether a base URL is hosted, i.e. its host is not loopback ({@code localhost}, {@code
   * 127.0.0.0/8}, {@code ::1}); decided without DNS. Hosted URLs need {@link
   * ChatConfig#allowHosted()}.
   */
  public static boolean isHosted(URI baseUrl) {
    return !Endpoints.isLoopback(baseUrl);
  }

  /**
   * Opens the chat model named by {@code spec}. Nothing is contacted yet: an absent server or
   * model, and a hosted URL without opt-in, surface as a typed {@link ChatException} on the first
   * {@link ChatModel#chat} call.
   *
   * @param spec {@code ollama/<model>} or {@code openai/<model>}; the model part is passed to the
   *     server as is and may contain {@code /} and {@code :} ({@code ollama/qwen3:8b})
   * @throws IllegalArgumentException for {@value #EXTRACTIVE}, an unknown provider or no model
   */
  public static ChatModel open(String spec, ChatConfig config) {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(config, "config");
    if (isExtractive(spec)) {
      throw new IllegalArgumentException(
          "'extractive' is brain's built-in synthesizer, not a chat model: use the research"
              + " module's extractive synthesizer (check ChatModels.isExtractive(spec) first)");
    }
    String trimmed = spec.strip();
    int slash = trimmed.indexOf('/');
    String provider = provider(trimmed);
    String model = slash < 0 ? "" : trimmed.substring(slash + 1).strip();
    if (model.isEmpty()) {
      throw new IllegalArgumentException(unknown(spec));
    }
    String id = provider + "/" + model;
    return switch (provider) {
      case "ollama" -> new OllamaChatModel(id, model, config);
      case "openai" -> new OpenAiChatModel(id, model, config);
      default -> throw new IllegalArgumentException(unknown(spec));
    };
  }

  /**
   * The base URL of the server of {@code spec}'s provider in {@code config}: {@link
   * ChatConfig#ollamaUrl()} or {@link ChatConfig#openAiUrl()}. The model part is not checked.
   *
   * @throws IllegalArgumentException for {@value #EXTRACTIVE} or an unknown provider
   */
  public static URI baseUrl(String spec, ChatConfig config) {
    Objects.requireNonNull(spec, "spec");
    return switch (provider(spec.strip())) {
      case "ollama" -> config.ollamaUrl();
      case "openai" -> config.openAiUrl();
      default -> throw new IllegalArgumentException(unknown(spec));
    };
  }

  /** The provider part of a stripped spec, lower-cased: what comes before the first {@code /}. */
  private static String provider(String spec) {
    int slash = spec.indexOf('/');
    return (slash < 0 ? spec : spec.substring(0, slash)).toLowerCase(Locale.ROOT);
  }

  private static String unknown(String spec) {
    return "unknown chat model '"
        + spec
        + "': use ollama/<model> (e.g. ollama/llama3.2), openai/<model> (e.g."
        + " openai/gpt-4o-mini) or "
        + EXTRACTIVE;
  }
}
