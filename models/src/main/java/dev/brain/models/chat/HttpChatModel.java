package dev.brain.models.chat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The streaming exchange both providers share: hosted guard, one POST, status check, then the
 * body's lines fed to the provider's {@link StreamDecoder} on the calling thread.
 *
 * <p>No retries: the caller (the research runner) owns the time budget and decides whether a failed
 * synthesis is retried, reported, or replaced by the extractive answer.
 */
abstract class HttpChatModel implements ChatModel {
  private static final int MAX_LINE_BYTES = 8 << 20;
  private static final int MAX_ERROR_BODY_BYTES = 16 << 10;

  private final String id;
  private final String model;
  private final URI baseUrl;
  private final ChatConfig config;
  private final HttpClient client;
  private volatile boolean closed;

  HttpChatModel(String id, String model, URI baseUrl, ChatConfig config) {
    this.id = id;
    this.model = model;
    this.baseUrl = baseUrl;
    this.config = config;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(config.connectTimeout())
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /** The endpoint the request is posted to. */
  abstract URI endpoint(URI baseUrl);

  /** The JSON request body. */
  abstract byte[] requestBody(ChatRequest request);

  /** Provider headers (accept type, authorization). */
  abstract void addHeaders(HttpRequest.Builder builder);

  /** A fresh decoder for one answer. */
  abstract StreamDecoder newDecoder(ChatListener listener);

  /** The typed failure for a non-2xx status; {@code serverMessage} is already redacted. */
  abstract ChatException statusError(int status, String serverMessage);

  /** What to do when nothing listens at the base URL, e.g. how to start the server. */
  abstract String unreachableHint();

  /** The stream's end marker, for the message when a stream stops without it. */
  abstract String terminator();

  @Override
  public final String id() {
    return id;
  }

  /** The model name sent to the server (the spec without its provider prefix). */
  final String model() {
    return model;
  }

  /** The configuration this model was opened with. */
  final ChatConfig config() {
    return config;
  }

  @Override
  public final ChatResponse chat(ChatRequest request, ChatListener listener) throws ChatException {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(listener, "listener");
    if (closed) {
      throw new IllegalStateException(id + " is closed");
    }
    Endpoints.requireAllowed(id, baseUrl, config.allowHosted());
    Duration timeout = min(request.timeout(), config.requestTimeout());
    long deadline = System.nanoTime() + timeout.toNanos();
    if (Thread.currentThread().isInterrupted()) {
      throw fail(ChatException.Kind.CANCELLED, "cancelled before the request was sent", null);
    }
    HttpRequest.Builder http =
        HttpRequest.newBuilder(endpoint(baseUrl))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(requestBody(request)));
    addHeaders(http);
    StreamDecoder decoder = newDecoder(listener);
    exchange(http.build(), decoder, deadline, timeout);
    return decoder.response();
  }

  @Override
  public void close() {
    closed = true;
    client.shutdownNow();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + id + " at " + Endpoints.display(baseUrl) + "]";
  }

  /** Who is talking, for messages: {@code ollama/llama3.2 at http://127.0.0.1:11434}. */
  final String source() {
    return id + " at " + Endpoints.display(baseUrl);
  }

  /** A failure whose message starts with {@link #source()}. */
  final ChatException fail(ChatException.Kind kind, String what, Throwable cause) {
    return new ChatException(kind, redact(source() + ": " + what), cause);
  }

  private void exchange(HttpRequest request, StreamDecoder decoder, long deadline, Duration timeout)
      throws ChatException {
    HttpResponse<Flow.Publisher<List<ByteBuffer>>> response =
        awaitHeaders(client.sendAsync(request, BodyHandlers.ofPublisher()), deadline, timeout);
    BodyStream body = new BodyStream();
    response.body().subscribe(body);
    try {
      if (response.statusCode() / 100 != 2) {
        String message = WireJson.serverMessage(readErrorBody(body, deadline));
        throw statusError(response.statusCode(), redact(message));
      }
      readStream(body, decoder, deadline, timeout);
    } finally {
      body.cancel();
    }
  }

  private <T> HttpResponse<T> awaitHeaders(
      CompletableFuture<HttpResponse<T>> future, long deadline, Duration timeout)
      throws ChatException {
    try {
      return future.get(remaining(deadline), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw fail(ChatException.Kind.CANCELLED, "cancelled while waiting for the server", e);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw timedOut(timeout, "no response", e);
    } catch (ExecutionException e) {
      throw sendFailure(e.getCause() == null ? e : e.getCause(), timeout);
    }
  }

  private void readStream(BodyStream body, StreamDecoder decoder, long deadline, Duration timeout)
      throws ChatException {
    LineSplitter lines = new LineSplitter(MAX_LINE_BYTES, source());
    while (true) {
      switch (next(body, deadline, timeout)) {
        case BodyStream.Bytes bytes -> {
          for (ByteBuffer buffer : bytes.buffers()) {
            if (lines.feed(buffer, decoder)) {
              return;
            }
          }
        }
        case BodyStream.End end -> {
          if (lines.finish(decoder) || decoder.onEnd()) {
            return;
          }
          throw fail(
              ChatException.Kind.PROTOCOL,
              "the stream ended before its end marker ("
                  + terminator()
                  + "); the answer is partial",
              null);
        }
        case BodyStream.Failure failure ->
            throw fail(
                ChatException.Kind.PROTOCOL,
                "the stream broke off: " + describe(failure.error()),
                failure.error());
      }
    }
  }

  private BodyStream.Signal next(BodyStream body, long deadline, Duration timeout)
      throws ChatException {
    long remaining = remaining(deadline);
    try {
      BodyStream.Signal signal = remaining > 0 ? body.next(remaining) : null;
      if (signal == null) {
        throw timedOut(timeout, "the answer did not finish", null);
      }
      return signal;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw fail(ChatException.Kind.CANCELLED, "cancelled while the answer was streaming", e);
    }
  }

  /** Up to {@link #MAX_ERROR_BODY_BYTES} of an error body; what arrived by the deadline. */
  private String readErrorBody(BodyStream body, long deadline) throws ChatException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try {
      while (bytes.size() < MAX_ERROR_BODY_BYTES) {
        long remaining = remaining(deadline);
        BodyStream.Signal signal = remaining > 0 ? body.next(remaining) : null;
        if (!(signal instanceof BodyStream.Bytes chunk)) {
          break;
        }
        for (ByteBuffer buffer : chunk.buffers()) {
          byte[] copy = new byte[buffer.remaining()];
          buffer.get(copy);
          bytes.write(copy, 0, copy.length);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw fail(ChatException.Kind.CANCELLED, "cancelled while reading an error response", e);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private ChatException sendFailure(Throwable error, Duration timeout) {
    if (find(error, HttpConnectTimeoutException.class) != null) {
      return fail(
          ChatException.Kind.UNAVAILABLE,
          "could not connect within " + millis(config.connectTimeout()) + "; " + unreachableHint(),
          error);
    }
    if (find(error, HttpTimeoutException.class) != null) {
      return timedOut(timeout, "no response", error);
    }
    if (find(error, ConnectException.class) != null) {
      return fail(
          ChatException.Kind.UNAVAILABLE,
          "cannot connect (connection refused); " + unreachableHint(),
          error);
    }
    if (find(error, UnknownHostException.class) != null
        || find(error, UnresolvedAddressException.class) != null) {
      return fail(ChatException.Kind.UNAVAILABLE, "unknown host; check the base URL", error);
    }
    return fail(
        ChatException.Kind.PROTOCOL,
        "the exchange failed before an answer: " + describe(error),
        error);
  }

  private ChatException timedOut(Duration timeout, String what, Throwable cause) {
    return fail(
        ChatException.Kind.TIMEOUT,
        what
            + " within "
            + millis(timeout)
            + " (the request timeout); the model may still be loading or be too slow for this"
            + " prompt: raise the timeout or use a smaller model",
        cause);
  }

  private String redact(String text) {
    String key = config.apiKey();
    return key == null ? text : text.replace(key, "(redacted)");
  }

  private static <T extends Throwable> T find(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  private static String describe(Throwable error) {
    Throwable root = error instanceof UncheckedIOException u ? u.getCause() : error;
    String message = root.getMessage();
    String type = root instanceof IOException ? "I/O error" : root.getClass().getSimpleName();
    return message == null ? type : type + ": " + message;
  }

  private static long remaining(long deadline) {
    return deadline - System.nanoTime();
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String millis(Duration duration) {
    long ms = duration.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }
}
