package dev.brain.models.chat;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the chat-model providers live and how far brain may go to reach them.
 *
 * <p>Everything defaults to this machine: a base URL whose host is not loopback ({@code
 * 127.0.0.0/8}, {@code ::1}, {@code localhost}) is <em>hosted</em>, and a call to it fails with
 * {@link ChatException.Kind#REFUSED} unless {@code allowHosted} is set. There is no fallback from a
 * local server to a hosted one.
 *
 * <p>The API key is a secret: {@link #toString()} redacts it and no exception message contains it.
 *
 * @param ollamaUrl Ollama server root for {@code ollama/<model>}; default {@value
 *     #DEFAULT_OLLAMA_URL}
 * @param openAiUrl base URL of an OpenAI-compatible API for {@code openai/<model>}, including the
 *     version segment ({@code /chat/completions} is appended); default {@value
 *     #DEFAULT_OPENAI_URL}, where llama.cpp's {@code llama-server} listens (LM Studio uses port
 *     1234, vLLM 8000, Ollama's own compatible API {@code http://127.0.0.1:11434/v1})
 * @param apiKey bearer token for the OpenAI-compatible server, or null to send none
 * @param allowHosted whether a non-loopback base URL may be called; default false
 * @param connectTimeout limit for opening the TCP connection; default 5 s
 * @param requestTimeout ceiling for a whole exchange, stream included; a request's own {@link
 *     ChatRequest#timeout()} applies when it is shorter; default 5 min
 */
public record ChatConfig(
    URI ollamaUrl,
    URI openAiUrl,
    String apiKey,
    boolean allowHosted,
    Duration connectTimeout,
    Duration requestTimeout) {

  /** Ollama's default address. */
  public static final String DEFAULT_OLLAMA_URL = "http://127.0.0.1:11434";

  /** The default OpenAI-compatible base URL (llama.cpp's {@code llama-server}). */
  public static final String DEFAULT_OPENAI_URL = "http://127.0.0.1:8080/v1";

  /** Environment variable overriding {@link #ollamaUrl()}. */
  public static final String ENV_OLLAMA_URL = "BRAIN_OLLAMA_URL";

  /** Environment variable overriding {@link #openAiUrl()}. */
  public static final String ENV_OPENAI_URL = "BRAIN_OPENAI_URL";

  /** Environment variable holding the API key; wins over {@value #ENV_OPENAI_API_KEY_FALLBACK}. */
  public static final String ENV_OPENAI_API_KEY = "BRAIN_OPENAI_API_KEY";

  /** The conventional OpenAI variable, read when {@value #ENV_OPENAI_API_KEY} is unset. */
  public static final String ENV_OPENAI_API_KEY_FALLBACK = "OPENAI_API_KEY";

  /** Environment variable enabling hosted base URLs ({@code true}/{@code false}). */
  public static final String ENV_ALLOW_HOSTED = "BRAIN_ALLOW_HOSTED";

  public ChatConfig {
    ollamaUrl = checkUrl(ollamaUrl, "ollamaUrl");
    openAiUrl = checkUrl(openAiUrl, "openAiUrl");
    apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
    checkPositive(connectTimeout, "connectTimeout");
    checkPositive(requestTimeout, "requestTimeout");
  }

  /** Local defaults: both servers on loopback, no key, hosted use off, 5 s connect, 5 min total. */
  public static ChatConfig defaults() {
    return new ChatConfig(
        URI.create(DEFAULT_OLLAMA_URL),
        URI.create(DEFAULT_OPENAI_URL),
        null,
        false,
        Duration.ofSeconds(5),
        Duration.ofMinutes(5));
  }

  /** This config with another Ollama URL. */
  public ChatConfig withOllamaUrl(URI url) {
    return new ChatConfig(url, openAiUrl, apiKey, allowHosted, connectTimeout, requestTimeout);
  }

  /** This config with another OpenAI-compatible base URL. */
  public ChatConfig withOpenAiUrl(URI url) {
    return new ChatConfig(ollamaUrl, url, apiKey, allowHosted, connectTimeout, requestTimeout);
  }

  /** This config with another API key (null for none). */
  public ChatConfig withApiKey(String key) {
    return new ChatConfig(ollamaUrl, openAiUrl, key, allowHosted, connectTimeout, requestTimeout);
  }

  /** This config with hosted base URLs allowed or not. */
  public ChatConfig withAllowHosted(boolean allow) {
    return new ChatConfig(ollamaUrl, openAiUrl, apiKey, allow, connectTimeout, requestTimeout);
  }

  /** This config with other connect and whole-exchange timeouts. */
  public ChatConfig withTimeouts(Duration connect, Duration request) {
    return new ChatConfig(ollamaUrl, openAiUrl, apiKey, allowHosted, connect, request);
  }

  /** Whether an API key is configured (the key itself is never shown). */
  public boolean hasApiKey() {
    return apiKey != null;
  }

  /** The fields, with the API key redacted. */
  @Override
  public String toString() {
    return "ChatConfig[ollamaUrl="
        + Endpoints.display(ollamaUrl)
        + ", openAiUrl="
        + Endpoints.display(openAiUrl)
        + ", apiKey="
        + (apiKey == null ? "none" : "(redacted)")
        + ", allowHosted="
        + allowHosted
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + "]";
  }

  private static URI checkUrl(URI url, String field) {
    Objects.requireNonNull(url, field);
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
      throw new IllegalArgumentException(
          field + " must be an http(s) URL with a host, like http://127.0.0.1:11434, got " + url);
    }
    String text = url.toString();
    return text.endsWith("/") ? URI.create(text.substring(0, text.length() - 1)) : url;
  }

  private static void checkPositive(Duration duration, String field) {
    if (duration == null || duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(field + " must be positive, got " + duration);
    }
  }
}
