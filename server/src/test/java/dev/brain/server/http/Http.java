package dev.brain.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small real HTTP client for the handler tests. */
final class Http {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Http() {}

  /** A response with its body parsed as JSON (missing node when the body is not JSON). */
  record Reply(int status, String body, java.net.http.HttpHeaders headers) {
    JsonNode json() {
      try {
        return HttpJson.MAPPER.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + body, e);
      }
    }

    /** The {@code error} object of an error envelope. */
    JsonNode error() {
      return json().path("error");
    }

    String contentType() {
      return headers.firstValue("content-type").orElse("");
    }
  }

  static Reply get(URI base, String pathAndQuery) {
    return send(HttpRequest.newBuilder(base.resolve(pathAndQuery)).GET());
  }

  static Reply post(URI base, String path, String json) {
    return send(
        HttpRequest.newBuilder(base.resolve(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  /** A JSON POST carrying {@code token} as its bearer token, as a request that writes needs. */
  static Reply post(URI base, String path, String json, String token) {
    return send(
        HttpRequest.newBuilder(base.resolve(path))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  static Reply send(HttpRequest.Builder request) {
    try {
      var res =
          CLIENT.send(
              request.timeout(Duration.ofSeconds(60)).build(),
              HttpResponse.BodyHandlers.ofString());
      return new Reply(res.statusCode(), res.body(), res.headers());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Opens {@code server}'s login link as a browser would and answers the session cookie it sets, as
   * a {@code Cookie} header value ({@code name=value}).
   */
  static String signIn(BrainServer server) {
    var reply = send(HttpRequest.newBuilder(server.loginUrl()).GET());
    if (reply.status() != 303) {
      throw new IllegalStateException("the login link answered " + reply.status());
    }
    String setCookie = reply.headers().firstValue("set-cookie").orElseThrow();
    return setCookie.substring(0, setCookie.indexOf(';'));
  }

  static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
