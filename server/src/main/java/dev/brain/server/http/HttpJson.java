package dev.brain.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.brain.Json;
import dev.brain.retrieval.InvalidSearchException;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

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
    res.send(body);
  }

  /** Sends {@code value} as JSON with 200. */
  static void ok(ServerResponse res, Object value) {
    send(res, Status.OK_200, value);
  }

  /**
   * Reads the request body, at most {@code limit} bytes, as a {@code type}.
   *
   * @throws ApiException 413 if the body is larger than {@code limit}; 400 if it is empty or not
   *     JSON; 422 if a field is unknown or has a value of the wrong type or range
   */
  static <T> T read(ServerRequest req, long limit, String endpoint, Class<T> type) {
    long declared = req.headers().contentLength().orElse(-1);
    if (declared > limit) {
      discard(req);
      throw ApiException.tooLarge(limit, endpoint);
    }
    byte[] body = readAtMost(req, limit, endpoint);
    if (new String(body, StandardCharsets.UTF_8).isBlank()) {
      throw ApiException.badRequest(
          "bad_json", "the request body is empty; send a JSON object", null);
    }
    try {
      return MAPPER.readValue(body, type);
    } catch (IOException e) {
      throw parseError(e);
    }
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
    }
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

  /** The API error for a body Jackson could not turn into the request type. */
  static ApiException parseError(IOException e) {
    if (e instanceof ValueInstantiationException vie && vie.getCause() != null) {
      if (vie.getCause() instanceof InvalidSearchException ise) {
        return ErrorMapping.invalidSearch(ise);
      }
      if (vie.getCause() instanceof ApiException api) {
        return api;
      }
      if (vie.getCause() instanceof IllegalArgumentException iae) {
        return ApiException.invalidOption(iae.getMessage(), path(vie));
      }
    }
    if (e instanceof UnrecognizedPropertyException upe) {
      List<String> known = new ArrayList<>();
      if (upe.getKnownPropertyIds() != null) {
        upe.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
      }
      known.sort(null);
      String field = path(upe);
      return new ApiException(
          Status.UNPROCESSABLE_CONTENT_422,
          new ApiError("invalid_option", "unknown field '" + field + "'", field, known, null),
          0);
    }
    if (e instanceof MismatchedInputException mie && !mie.getPath().isEmpty()) {
      String field = path(mie);
      return ApiException.invalidOption(
          "field '" + field + "' has a value of the wrong type: " + firstLine(mie), field);
    }
    if (e instanceof JsonProcessingException jpe) {
      var where = jpe.getLocation();
      String at =
          where == null ? "" : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
      return ApiException.badRequest(
          "bad_json", "the request body is not valid JSON" + at + ": " + firstLine(jpe), null);
    }
    return ApiException.badRequest("bad_json", "cannot read the request body: " + e, null);
  }

  private static String path(JsonMappingException e) {
    return e.getPath().stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining("."))
        .replace(".[", "[");
  }

  private static String firstLine(JsonProcessingException e) {
    String m = e.getOriginalMessage();
    if (m == null) {
      return e.getClass().getSimpleName();
    }
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
