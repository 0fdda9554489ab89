package dev.brain.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The searches a server makes of itself as soon as it listens, through its own API as a person's
 * would come: {@code POST /api/cli} with a {@code brain search} (the path {@code bin/brain} takes)
 * and {@code GET /api/search} (the web page's). The first search a person makes then finds the
 * index's files read, the HNSW graph loaded, the query embedder warm and both paths' code loaded,
 * instead of paying for them (a second or more on a small machine).
 */
final class WarmUp {
  private static final System.Logger LOG = System.getLogger(WarmUp.class.getName());

  /** Longest wait at close for the warm-up to end (it never holds a close longer). */
  static final Duration GRACE = Duration.ofSeconds(30);

  static final String QUERY = "warm up the index";

  private final Thread thread;
  private final CompletableFuture<Map<String, String>> lanes = new CompletableFuture<>();

  private WarmUp(URI base, String token) {
    this.thread = Thread.ofVirtual().name("brain-warm-up").start(() -> run(base, token));
  }

  /** Starts warming up the server at {@code base}, whose clients send {@code token}. */
  static WarmUp start(URI base, String token) {
    return new WarmUp(base, token);
  }

  private void run(URI base, String token) {
    try (var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
      // A server without the CLI's runner answers 422 here, which is fine: the search below warms
      // what the two paths share.
      client.send(
          HttpRequest.newBuilder(base.resolve("/api/cli"))
              .timeout(GRACE)
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString("{\"args\":[\"search\",\"" + QUERY + "\"]}"))
              .build(),
          HttpResponse.BodyHandlers.discarding());
      var search =
          client.send(
              HttpRequest.newBuilder(
                      base.resolve("/api/search?q=" + QUERY.replace(' ', '+') + "&limit=3"))
                  .timeout(GRACE)
                  .header("Authorization", "Bearer " + token) // needed when server.token is set
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());
      lanes.complete(search.statusCode() == 200 ? lanes(search.body()) : Map.of());
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, "the warm-up search failed; the first search will warm up", e);
      lanes.complete(Map.of());
    } catch (InterruptedException e) {
      lanes.complete(Map.of());
      Thread.currentThread().interrupt();
    }
  }

  /** Each lane's status in a search response, by lane name. */
  private static Map<String, String> lanes(byte[] body) throws IOException {
    var out = new LinkedHashMap<String, String>();
    for (JsonNode lane : HttpJson.MAPPER.readTree(body).path("lanes")) {
      out.put(lane.path("name").asText(), lane.path("status").asText());
    }
    return out;
  }

  /**
   * The statuses of the lanes the warm-up search ran, by name; empty when it has not ended within
   * {@code wait} or failed.
   */
  Optional<Map<String, String>> lanes(Duration wait) {
    try {
      Map<String, String> found = lanes.get(wait.toMillis(), TimeUnit.MILLISECONDS);
      return found.isEmpty() ? Optional.empty() : Optional.of(found);
    } catch (TimeoutException | ExecutionException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Waits (at most {@link #GRACE}) for the warm-up to end; false when it did not. */
  boolean await() {
    try {
      return thread.join(GRACE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
