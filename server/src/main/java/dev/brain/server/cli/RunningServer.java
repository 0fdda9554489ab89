package dev.brain.server.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.server.http.CliProof;
import dev.brain.server.http.CliRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code brain serve} running on the same data directory, found through its {@link
 * ServerAdvertisement}: {@code search}, {@code get}, {@code status} and {@code research} (when no
 * chat model takes part) are run by it instead of opening the index and the model in a new process,
 * which is what makes them fast. The one way in is {@code POST /api/cli}, the same that {@code
 * bin/brain} takes with curl: the server runs the same command and answers what it printed.
 *
 * <p>An advertisement is used only when its process is alive, its URL is on this machine and the
 * server there proves, before it is sent the token or a command, that it holds the advertisement's
 * secret and serves this very data directory ({@link CliProof}: a random nonce to {@code POST
 * /api/cli/hello}, the HMAC back). Anything else (a killed server, a port taken over, a copied data
 * directory whose advertisement names the original's server, no answer within a few seconds) is
 * stale: the command runs in this process. What the server printed is shown through {@link
 * TerminalText}, never raw.
 */
final class RunningServer {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);

  /** The whole hello exchange, connection included. */
  private static final Duration HELLO_TIMEOUT = Duration.ofSeconds(3);

  /**
   * The whole command exchange: the server answers once the command is over (a research run without
   * a chat model is bounded by its own budgets well within this).
   */
  private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);

  /** The most of a hello answer read: a proof is 64 hex digits in a small JSON object. */
  private static final int MAX_HELLO_BYTES = 4096;

  private static final ObjectMapper MAPPER =
      dev.brain.research.json.Json.newMapper()
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final ServerAdvertisement ad;

  private RunningServer(ServerAdvertisement ad) {
    this.ad = ad;
  }

  /** A status, the headers brain's CLI endpoint sets, and the body. */
  private record Response(int statusCode, Map<String, String> headers, byte[] bytes) {
    String body() {
      return new String(bytes, StandardCharsets.UTF_8);
    }

    Optional<Integer> intHeader(String name) {
      String value = headers.get(name);
      if (value == null || !value.strip().matches("\\d{1,9}")) {
        return Optional.empty();
      }
      return Optional.of(Integer.parseInt(value.strip()));
    }
  }

  /** The live server advertised in {@code dataDir}; empty when none is, or it is stale. */
  static Optional<RunningServer> find(Path dataDir) {
    var ad = ServerAdvertisement.read(dataDir);
    if (ad.isEmpty()
        || !ProcessHandle.of(ad.get().pid()).map(ProcessHandle::isAlive).orElse(false)
        || !onThisMachine(ad.get().url())) {
      return Optional.empty();
    }
    var server = new RunningServer(ad.get());
    return server.provesItServes(dataDir) ? Optional.of(server) : Optional.empty();
  }

  private static boolean onThisMachine(String url) {
    try {
      var uri = URI.create(url);
      String host = uri.getHost();
      return "http".equals(uri.getScheme())
          && host != null
          // IP literals only: a name (localhost) may resolve to an address where another local
          // user listens and relays the proof, then gets the token on the next connection.
          && (host.equals("127.0.0.1") || host.equals("[::1]"));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Whether the server answers a fresh nonce with the proof of this advertisement's secret over
   * {@code dataDir}'s real path; nothing private is sent.
   */
  private boolean provesItServes(Path dataDir) {
    String nonce = CliProof.random();
    try {
      var res =
          send(
              "api/cli/hello",
              MAPPER.writeValueAsString(Map.of("nonce", nonce)),
              false,
              HELLO_TIMEOUT,
              MAX_HELLO_BYTES);
      if (res.statusCode() != 200) {
        return false;
      }
      String proof = MAPPER.readTree(res.body()).path("proof").asText("");
      String expected = CliProof.proof(ad.secret(), nonce, CliProof.realPath(dataDir));
      return MessageDigest.isEqual(
          proof.getBytes(StandardCharsets.US_ASCII), expected.getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      return false; // refused, timed out, too long, or not brain's JSON
    }
  }

  /** The base URL of the server. */
  String url() {
    return ad.url();
  }

  /**
   * Runs {@code args} in the server ({@code POST /api/cli}) and prints what the command printed
   * there, control characters escaped ({@link TerminalText#text}): standard output to {@code out},
   * standard error to {@code err}. Empty when the server does not run that command (help, another
   * command, a chat model taking part) or does not answer as brain does (an error, no answer in
   * time), which the caller then runs itself.
   *
   * @return the command's exit code
   */
  Optional<Integer> run(List<String> args, PrintWriter out, PrintWriter err) {
    Response res;
    try {
      var body = MAPPER.createObjectNode();
      var array = body.putArray("args");
      args.forEach(array::add);
      res =
          send(
              "api/cli",
              MAPPER.writeValueAsString(body),
              true,
              REQUEST_TIMEOUT,
              Integer.MAX_VALUE - 8);
    } catch (IOException e) {
      return Optional.empty(); // stopped answering: the command runs here
    }
    var stdout = res.intHeader(CliRunner.STDOUT_LENGTH);
    var code = res.intHeader(CliRunner.EXIT_CODE);
    byte[] bytes = res.bytes();
    if (res.statusCode() != 200
        || stdout.isEmpty()
        || code.isEmpty()
        || stdout.get() > bytes.length) {
      return Optional.empty(); // refused (422), an error, or not brain's answer
    }
    out.print(TerminalText.text(new String(bytes, 0, stdout.get(), StandardCharsets.UTF_8)));
    out.flush();
    err.print(
        TerminalText.text(
            new String(bytes, stdout.get(), bytes.length - stdout.get(), StandardCharsets.UTF_8)));
    err.flush();
    return code;
  }

  /**
   * One POST, over in {@code timeout} whatever the other end does: a watchdog disconnects a server
   * that accepts and then says nothing, or trickles. {@link HttpURLConnection} rather than {@code
   * java.net.http.HttpClient}: the latter sets up TLS (trust store, crypto providers) even for
   * plain HTTP, which costs a short-lived CLI process more than the whole search on the server.
   *
   * @param withToken whether to send the advertised token (only to a server that proved itself)
   * @param maxBytes the most of the body read; more is an error
   */
  private Response send(
      String path, String jsonBody, boolean withToken, Duration timeout, int maxBytes)
      throws IOException {
    var connection =
        (HttpURLConnection)
            URI.create(ad.url()).resolve(path).toURL().openConnection(Proxy.NO_PROXY);
    var exchange = new FutureTask<>(() -> exchange(connection, jsonBody, withToken, maxBytes));
    Thread.ofVirtual().name("brain-cli-request").start(exchange);
    try {
      return exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IOException("the server at " + ad.url() + " did not answer in " + timeout, e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the server", e);
    } finally {
      connection.disconnect(); // closes the socket, which ends a read still blocked in it
      exchange.cancel(true);
    }
  }

  private Response exchange(
      HttpURLConnection connection, String jsonBody, boolean withToken, int maxBytes)
      throws IOException {
    connection.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
    connection.setReadTimeout((int) REQUEST_TIMEOUT.toMillis());
    connection.setRequestMethod("POST");
    if (withToken) {
      // ServerAdvertisement.read let only a bearer token's characters through.
      connection.setRequestProperty("Authorization", "Bearer " + ad.token());
    }
    connection.setRequestProperty("Accept", "application/json");
    connection.setDoOutput(true);
    connection.setRequestProperty("Content-Type", "application/json");
    try (OutputStream out = connection.getOutputStream()) {
      out.write(jsonBody.getBytes(StandardCharsets.UTF_8));
    }
    int status = connection.getResponseCode();
    InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
    byte[] bytes = in == null ? new byte[0] : in.readNBytes(maxBytes);
    if (in != null && in.read() >= 0) {
      throw new IOException("the server's answer is longer than " + maxBytes + " bytes");
    }
    var headers = new java.util.HashMap<String, String>();
    for (String name : List.of(CliRunner.EXIT_CODE, CliRunner.STDOUT_LENGTH)) {
      String value = connection.getHeaderField(name);
      if (value != null) {
        headers.put(name, value);
      }
    }
    return new Response(status, headers, bytes);
  }
}
