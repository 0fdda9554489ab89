package dev.brain.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.brain.retrieval.InvalidSearchException;
import io.helidon.http.DirectHandler;
import io.helidon.http.DirectHandler.EventType;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpException;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.DirectHandlers;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;

/**
 * Maps every failure to a status and the {@link ApiError} envelope, once, at the surface: handler
 * exceptions through routing error handlers, transport-level failures (malformed requests, bodies
 * over the server's hard limit) through Helidon's direct handlers. Internal errors are logged with
 * their stack trace; the client gets a message without one.
 */
final class ErrorMapping {
  private static final System.Logger LOG = System.getLogger(ErrorMapping.class.getName());

  private ErrorMapping() {}

  /** Registers the error handlers of every API failure on {@code routing}. */
  static void register(HttpRouting.Builder routing) {
    routing
        .error(ApiException.class, (req, res, e) -> send(res, e))
        .error(InvalidSearchException.class, (req, res, e) -> send(res, invalidSearch(e)))
        .error(HttpException.class, ErrorMapping::helidon)
        .error(Exception.class, ErrorMapping::internal);
  }

  /**
   * Direct handlers answering transport-level failures with the envelope.
   *
   * @param maxPayloadBytes the server's hard body limit, named in its 413 message
   */
  static DirectHandlers directHandlers(long maxPayloadBytes) {
    DirectHandler handler =
        (request, eventType, status, headers, message) -> {
          String code = directCode(eventType, status);
          String text =
              code.equals("body_too_large")
                  ? "the request body is larger than "
                      + maxPayloadBytes
                      + " bytes, the most any endpoint accepts (server.max-pack-body-bytes)"
                  : message == null || message.isBlank() ? directMessage(request, status) : message;
          var error = new ApiError(code, text, null, null, null);
          byte[] body;
          try {
            body = HttpJson.MAPPER.writeValueAsBytes(error.envelope());
          } catch (JsonProcessingException e) {
            body = "{\"error\":{\"code\":\"internal\",\"message\":\"\",\"field\":null}}".getBytes();
          }
          headers.set(HeaderValues.CONTENT_TYPE_JSON);
          return DirectHandler.TransportResponse.builder()
              .status(status)
              .headers(headers)
              .entity(body)
              .build();
        };
    var builder = DirectHandlers.builder();
    for (EventType type : EventType.values()) {
      builder.addHandler(type, handler);
    }
    return builder.build();
  }

  /** A transport failure's message: what broke the wire rules if it was that, else the reason. */
  private static String directMessage(DirectHandler.TransportRequest request, Status status) {
    String framing =
        status.code() == Status.BAD_REQUEST_400.code() ? RequestFraming.problem(request) : null;
    return framing != null ? framing : status.reasonPhrase();
  }

  /** The API error for an invalid search: an empty query is a 400, anything else a 422. */
  static ApiException invalidSearch(InvalidSearchException e) {
    if (e.isEmptyInput()) {
      return ApiException.badRequest("empty_question", e.getMessage(), e.field());
    }
    return new ApiException(
        Status.UNPROCESSABLE_CONTENT_422,
        new ApiError("invalid_option", e.getMessage(), e.field(), e.allowedValues(), null),
        0);
  }

  /**
   * Sends {@code e} as the envelope. The connection is closed after it ({@code Connection: close})
   * when its request body could not be read to its end, so no rest of it is read as a request, and
   * after a 503, so a refused client does not hold a connection of a busy server.
   */
  static void send(ServerResponse res, ApiException e) {
    if (res.isSent()) {
      return; // a stream already started; its own error event said what happened
    }
    if (e.retryAfterSeconds() > 0) {
      res.header(HeaderNames.RETRY_AFTER, Long.toString(e.retryAfterSeconds()));
    }
    boolean close =
        e.status().code() == Status.SERVICE_UNAVAILABLE_503.code() || ReadDeadlines.bodyBroken();
    if (close) {
      res.header(HeaderNames.CONNECTION, "close");
    }
    HttpJson.send(res, e.status(), e.error().envelope());
    if (close) {
      throw new CloseConnectionException("answered " + e.status().code() + "; connection closed");
    }
  }

  /**
   * Helidon signals some non-errors as exceptions too: the static content handler answers a
   * conditional request with a 304, which must carry no body.
   */
  private static void helidon(ServerRequest req, ServerResponse res, HttpException e) {
    if (e.status().code() < 400) {
      e.headers().forEach(res::header);
      res.status(e.status());
      res.send();
      return;
    }
    send(res, fromHelidon(e));
  }

  private static ApiException fromHelidon(HttpException e) {
    Status status = e.status();
    String code =
        switch (status.code()) {
          case 400 -> "bad_request";
          case 404 -> "not_found";
          case 405 -> "method_not_allowed";
          case 413 -> "body_too_large";
          default -> status.code() >= 500 ? "internal" : "http_error";
        };
    return new ApiException(status, code, e.getMessage(), null);
  }

  private static void internal(ServerRequest req, ServerResponse res, Exception e) {
    if (clientWentAway(e)) {
      // Not a server fault: one line, no stack trace, and nobody left to answer.
      LOG.log(
          Level.INFO,
          "client went away during " + req.prologue().method().text() + " " + req.path().path());
      return;
    }
    LOG.log(Level.ERROR, "internal error on " + req.prologue().method() + " " + req.path(), e);
    send(
        res,
        new ApiException(
            Status.INTERNAL_SERVER_ERROR_500,
            "internal",
            "internal error; the server log has the details",
            null));
  }

  /** Whether a read of a request body met the end of the stream before the body's end. */
  static boolean endedEarly(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.io.EOFException
          || t.getClass().getSimpleName().equals("InsufficientDataAvailableException")) {
        return true;
      }
    }
    return false;
  }

  /** Whether a failure is the connection to the client breaking (a read or write failed). */
  static boolean clientWentAway(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.SocketException
          || t instanceof java.io.EOFException
          || t instanceof java.nio.channels.ClosedChannelException
          || t.getClass().getSimpleName().equals("InsufficientDataAvailableException")) {
        return true;
      }
      String m = t.getMessage() == null ? "" : t.getMessage();
      if (t instanceof java.io.IOException
          && (m.contains("Broken pipe") || m.contains("Connection reset"))) {
        return true;
      }
    }
    return false;
  }

  private static String directCode(EventType type, Status status) {
    if (status.code() == Status.REQUEST_ENTITY_TOO_LARGE_413.code()) {
      return "body_too_large"; // Helidon reports an oversized entity under BAD_REQUEST
    }
    return switch (type) {
      case BAD_REQUEST -> "bad_request";
      case PAYLOAD_TOO_LARGE -> "body_too_large";
      case FORBIDDEN -> "forbidden";
      case HTTP_VERSION_NOT_SUPPORTED -> "http_version_not_supported";
      case INTERNAL_ERROR -> "internal";
      case OTHER -> status.code() >= 500 ? "internal" : "http_error";
    };
  }
}
