package dev.brain.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.json.Json;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/** JSON in and out of handlers: brain's mapper, bounded request bodies, typed parse errors. */
final class HttpJson {
  private HttpJson() {}

  /** Request and response mapper: brain's settings; unknown request fields are errors. */
  static final ObjectMapper MAPPER =
      Json.newMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** Sends {@code value} as JSON with {@code status}. */
  static void send(ServerResponse res, Status status, Object value) {
    byte[] body;
    try {
      body = MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON for " + value.getClass().getName(), e);
    }
    res.status(status);
    res.header(HeaderValues.CONTENT_TYPE_JSON);
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    if (HEAD_ONLY.get()) {
      res.send();
      return;
    }
    res.send(body);
  }

  /** Sends {@code value} as JSON with 200. */
  static void ok(ServerResponse res, Object value) {
    send(res, Status.OK_200, value);
  }

  /**
   * Reads the request body, at most {@code limit} bytes, as a {@code type}.
   *
   * @throws ApiException 413 if the body is larger than {@code limit}; else as {@link
   *     StrictJson#read}
   */
  static <T> T read(ServerRequest req, long limit, String endpoint, Class<T> type) {
    long declared = req.headers().contentLength().orElse(-1);
    if (declared > limit) {
      ReadDeadlines.body(
          () -> {
            discard(req);
            return null;
          });
      throw ApiException.tooLarge(limit, endpoint);
    }
    return StrictJson.read(ReadDeadlines.body(() -> readAtMost(req, limit, endpoint)), type);
  }

  private static byte[] readAtMost(ServerRequest req, long limit, String endpoint) {
    try (InputStream in = req.content().inputStream()) {
      byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
      if (body.length > limit) {
        in.transferTo(OutputStream.nullOutputStream());
        throw ApiException.tooLarge(limit, endpoint);
      }
      return body;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the request body", e);
    } catch (ApiException e) {
      throw e;
    } catch (RuntimeException e) {
      if (ErrorMapping.endedEarly(e)) {
        // A client that half-closed its side still reads the answer; one that left misses it.
        throw ApiException.badRequest(
            "bad_request",
            "the request body ended before the length it declared (Content-Length); send the"
                + " whole body",
            null);
      }
      if (ErrorMapping.clientWentAway(e)) {
        throw e;
      }
      // Helidon's decoder refusing the framing, e.g. a chunk size that is not hexadecimal.
      throw ApiException.badRequest(
          "bad_request",
          "the request body's framing is malformed (chunk sizes or Content-Length); send the JSON"
              + " with a valid Content-Length or chunked encoding",
          null);
    }
  }

  /** Set while a {@code HEAD} request is handled: {@link #send} then sends headers only. */
  static final ThreadLocal<Boolean> HEAD_ONLY = ThreadLocal.withInitial(() -> false);

  /** The handler answering {@code HEAD} like {@code get}, without the body. */
  static io.helidon.webserver.http.Handler head(io.helidon.webserver.http.Handler get) {
    return (req, res) -> {
      HEAD_ONLY.set(true);
      try {
        get.handle(req, res);
      } finally {
        HEAD_ONLY.remove();
      }
    };
  }

  /**
   * Reads and drops a refused body (the server's hard limit bounds it). A server that answers 413
   * and closes while the client is still uploading makes the client's TCP stack reset the
   * connection, and the client sees "connection reset" instead of the 413 that says why.
   */
  private static void discard(ServerRequest req) {
    try (InputStream in = req.content().inputStream()) {
      in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException | UncheckedIOException e) {
      // The client went away; the 413 is still the answer for whoever is left.
    }
  }
}
