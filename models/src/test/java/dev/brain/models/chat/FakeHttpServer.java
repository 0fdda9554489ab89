package dev.brain.models.chat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP/1.1 server on {@code 127.0.0.1} (port 0) that answers each request with the next
 * {@link FakeResponse} of its script, records what it received, and notices when a client hangs up
 * mid-body. The base of {@link FakeOllamaServer} and {@link FakeOpenAiServer}; usable by any
 * module's tests through the {@code brain-models} test-jar.
 *
 * <p>Responses are chunked, every scripted write is flushed on its own and the socket has no Nagle
 * delay, so the client really receives the body in the scripted pieces.
 */
public class FakeHttpServer implements AutoCloseable {
  static {
    // Read once when the JDK server's config loads: small writes leave as separate segments.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final Queue<FakeResponse> script = new ConcurrentLinkedQueue<>();
  private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch disconnected = new CountDownLatch(1);
  private final CountDownLatch closing = new CountDownLatch(1);

  /** Starts a server on a free loopback port. */
  protected FakeHttpServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a fake HTTP server on loopback", e);
    }
    executor =
        Executors.newCachedThreadPool(
            task -> {
              Thread thread = new Thread(task, "fake-http-" + server.getAddress().getPort());
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts a plain scripted server. */
  public static FakeHttpServer start() {
    return new FakeHttpServer();
  }

  /**
   * A loopback URL where nothing listens (a port bound and closed again), for connection-refused
   * tests.
   */
  public static URI refusingUrl() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:<port>}, the server root. */
  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Appends responses to the script; requests take them in order. */
  public void enqueue(FakeResponse... responses) {
    script.addAll(List.of(responses));
  }

  /** Every request received so far, in order. */
  public List<RecordedRequest> requests() {
    return List.copyOf(requests);
  }

  /** The last request received; fails if there was none. */
  public RecordedRequest lastRequest() {
    if (requests.isEmpty()) {
      throw new AssertionError("the fake server received no request");
    }
    return requests.get(requests.size() - 1);
  }

  /** Waits until a write failed because the client closed the connection mid-body. */
  public boolean awaitClientDisconnect(Duration timeout) throws InterruptedException {
    return disconnected.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops the server and releases hanging responses. */
  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readAllBytes();
      requests.add(recorded(exchange, body));
      FakeResponse response = script.poll();
      if (response == null) {
        response = FakeResponse.json(500, "{\"error\":\"fake server: no scripted response left\"}");
      }
      respond(exchange, response);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void respond(HttpExchange exchange, FakeResponse response) throws InterruptedException {
    try {
      sleep(response.headerDelay());
      exchange.getResponseHeaders().set("Content-Type", response.contentType());
      exchange.sendResponseHeaders(response.status(), 0);
      OutputStream out = exchange.getResponseBody();
      for (FakeResponse.Step step : response.steps()) {
        switch (step) {
          case FakeResponse.Write write -> {
            out.write(write.bytes());
            out.flush();
          }
          case FakeResponse.Pause pause -> sleep(pause.duration());
        }
      }
      if (response.hang()) {
        closing.await();
      }
      out.close();
    } catch (IOException e) {
      disconnected.countDown();
    }
  }

  private static RecordedRequest recorded(HttpExchange exchange, byte[] body) {
    Map<String, List<String>> headers = new TreeMap<>();
    exchange
        .getRequestHeaders()
        .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), List.copyOf(values)));
    return new RecordedRequest(
        exchange.getRequestMethod(),
        exchange.getRequestURI().getPath(),
        headers,
        new String(body, StandardCharsets.UTF_8));
  }

  private static void sleep(Duration duration) throws InterruptedException {
    if (!duration.isZero()) {
      Thread.sleep(duration.toMillis());
    }
  }
}
