package dev.brain.server.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.server.http.CliRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code brain serve} running on the same data directory, found through its {@link
 * ServerAdvertisement}: {@code search}, {@code get}, {@code status} and {@code research} (when no
 * chat model takes part) are run by it instead of opening the index and the model in a new process,
 * which is what makes them fast. The one way in is {@code POST /api/cli}, the same that {@code
 * bin/brain} takes with curl: the server runs the same command and answers what it printed.
 *
 * <p>An advertisement is used only when its process is alive, its URL is on this machine and the
 * server there answers the health check with the advertised process id to the advertised token;
 * anything else (a killed server, a port taken over, a wrong token) is stale and ignored.
 */
final class RunningServer {
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(5);

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

    String header(String name) {
      String value = headers.get(name);
      if (value == null) {
        throw new IllegalStateException("the server's answer lacks its " + name + " header");
      }
      return value;
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
    return server.answersAsAdvertised() ? Optional.of(server) : Optional.empty();
  }

  private static boolean onThisMachine(String url) {
    try {
      String host = URI.create(url).getHost();
      return host != null
          && (host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]"));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private boolean answersAsAdvertised() {
    try {
      var res = send("GET", "api/health", null, HEALTH_TIMEOUT);
      return res.statusCode() == 200
          && MAPPER.readTree(res.body()).path("pid").asLong(-1) == ad.pid();
    } catch (IOException e) {
      return false; // refused, timed out, or not brain's JSON
    }
  }

  /** The base URL of the server. */
  String url() {
    return ad.url();
  }

  /**
   * Runs {@code args} in the server ({@code POST /api/cli}) and prints what the command printed
   * there, exactly: standard output to {@code out}, standard error to {@code err}. Empty when the
   * server does not run that command (help, another command, a chat model taking part), which the
   * caller then runs itself.
   *
   * @return the command's exit code
   * @throws IOException if the server stopped answering (the message says to pass {@code --local})
   */
  Optional<Integer> run(List<String> args, PrintWriter out, PrintWriter err) throws IOException {
    var body = MAPPER.createObjectNode();
    var array = body.putArray("args");
    args.forEach(array::add);
    var res = send("POST", "api/cli", MAPPER.writeValueAsString(body), REQUEST_TIMEOUT);
    if (res.statusCode() == 422) {
      return Optional.empty(); // not served: the client runs it
    }
    if (res.statusCode() != 200) {
      String message;
      try {
        message = MAPPER.readTree(res.body()).path("error").path("message").asText();
      } catch (IOException e) {
        message = "";
      }
      throw new IOException(
          "brain serve at "
              + ad.url()
              + " answered "
              + res.statusCode()
              + " "
              + message
              + "; run again with --local");
    }
    int stdout = Integer.parseInt(res.header(CliRunner.STDOUT_LENGTH));
    byte[] bytes = res.bytes();
    out.print(new String(bytes, 0, stdout, StandardCharsets.UTF_8));
    out.flush();
    err.print(new String(bytes, stdout, bytes.length - stdout, StandardCharsets.UTF_8));
    err.flush();
    return Optional.of(Integer.parseInt(res.header(CliRunner.EXIT_CODE)));
  }

  /**
   * One request. {@link HttpURLConnection} rather than {@code java.net.http.HttpClient}: the latter
   * sets up TLS (trust store, crypto providers) even for plain HTTP, which costs a short-lived CLI
   * process more than the whole search on the server.
   */
  private Response send(String method, String path, String jsonBody, Duration timeout)
      throws IOException {
    var connection =
        (HttpURLConnection)
            URI.create(ad.url()).resolve(path).toURL().openConnection(Proxy.NO_PROXY);
    try {
      connection.setConnectTimeout((int) CONNECT_TIMEOUT.toMillis());
      connection.setReadTimeout((int) timeout.toMillis());
      connection.setRequestMethod(method);
      connection.setRequestProperty("Authorization", "Bearer " + ad.token());
      connection.setRequestProperty("Accept", "application/json");
      if (jsonBody != null) {
        connection.setDoOutput(true);
        connection.setRequestProperty("Content-Type", "application/json");
        try (OutputStream out = connection.getOutputStream()) {
          out.write(jsonBody.getBytes(StandardCharsets.UTF_8));
        }
      }
      int status = connection.getResponseCode();
      InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
      byte[] bytes = in == null ? new byte[0] : in.readAllBytes();
      var headers = new java.util.HashMap<String, String>();
      for (String name : List.of(CliRunner.EXIT_CODE, CliRunner.STDOUT_LENGTH)) {
        String value = connection.getHeaderField(name);
        if (value != null) {
          headers.put(name, value);
        }
      }
      return new Response(status, headers, bytes);
    } catch (ConnectException | SocketTimeoutException e) {
      throw new IOException(
          "the server at " + ad.url() + " stopped answering; run again, or pass --local", e);
    } finally {
      connection.disconnect();
    }
  }
}
