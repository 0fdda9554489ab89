package dev.brain.server.http;

import io.helidon.http.DirectHandler.EventType;
import io.helidon.http.DirectHandler.TransportRequest;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.Method;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.http.WritableHeaders;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http.DirectTransportRequest;
import io.helidon.webserver.http1.Http1ConnectionListener;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a request must look like on the wire before it is routed, checked as its line and headers
 * arrive. A request that breaks a rule is answered 400 with {@code Connection: close} and the
 * connection is closed, so nothing after it on the connection is read as another request:
 *
 * <ul>
 *   <li>the target is in origin form ({@code /path?query}): this server is no proxy, and an
 *       absolute target ({@code http://other.host/...}) would name a host the guard never saw;
 *   <li>the path is already normalized: no {@code .} or {@code ..} segment (also percent-encoded),
 *       no empty segment ({@code //}) and no path parameters ({@code ;x}, which Helidon drops for
 *       routing but keeps in the raw path; brain uses none), so no handler ever sees a raw path
 *       that differs from the one it serves;
 *   <li>the body's length is stated once: at most one {@code Content-Length}, a plain number;
 *       {@code Transfer-Encoding}, if present, the one coding {@code chunked} (any case, RFC 9112
 *       section 7: coding names are case-insensitive) and never beside {@code Content-Length} (RFC
 *       9112 section 6.3: either would let a proxy and this server split the bytes into different
 *       requests).
 * </ul>
 */
final class RequestFraming implements Http1ConnectionListener {
  /** The one coding read: {@code chunked} in any case, with optional whitespace (SP, HTAB). */
  private static final Pattern CHUNKED =
      Pattern.compile("[ \\t]*chunked[ \\t]*", Pattern.CASE_INSENSITIVE);

  @Override
  public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
    String path = prologue.uriPath().rawPath();
    if (targetProblem(path) != null) {
      throw refusal(DirectTransportRequest.create("HTTP/1.1", prologue.method().text(), path));
    }
  }

  @Override
  public void headers(ConnectionContext ctx, Headers headers) {
    if (headersProblem(headers) != null) {
      // The refusal carries the headers (its path is a placeholder): the 400 names the problem.
      var placeholder = HttpPrologue.create("HTTP/1.1", "HTTP", "1.1", Method.GET, "/", false);
      throw refusal(DirectTransportRequest.create(placeholder, headers));
    }
    // Helidon reads a body as chunked only when the header is exactly "chunked" (it compares
    // case-sensitively), and would read the chunks of "Chunked" as the next request: the accepted
    // spelling is put in the form it reads. These are the headers it then routes by.
    if (headers.contains(HeaderNames.TRANSFER_ENCODING)
        && !headers.contains(HeaderValues.TRANSFER_ENCODING_CHUNKED)) {
      if (!(headers instanceof WritableHeaders<?> writable)) {
        throw new IllegalStateException("Helidon passed read-only request headers");
      }
      writable.set(HeaderValues.TRANSFER_ENCODING_CHUNKED);
    }
  }

  /**
   * What is wrong with a refused request, for the 400's message: its target or its framing headers;
   * {@code null} when neither breaks a rule.
   */
  static String problem(TransportRequest request) {
    String target = request.path().isEmpty() ? null : targetProblem(request.path());
    return target != null ? target : headersProblem(request.headers());
  }

  private static RequestException refusal(TransportRequest request) {
    return RequestException.builder()
        .type(EventType.BAD_REQUEST)
        .status(Status.BAD_REQUEST_400)
        .request(request)
        .setKeepAlive(false)
        .build();
  }

  /** What is wrong with a request target (its path, without the query), or {@code null}. */
  static String targetProblem(String rawPath) {
    if (!rawPath.startsWith("/")) {
      return "the request target must be a path starting with '/' (origin form); this server is"
          + " not a proxy and takes no absolute URL or authority as a target";
    }
    if (rawPath.indexOf(';') >= 0) {
      return "the request path must be normalized: no path parameters (';'), brain's paths have"
          + " none; percent-encode a ';' that is part of a name as %3B";
    }
    if (rawPath.length() == 1) {
      return null;
    }
    String[] segments = rawPath.substring(1).split("/", -1);
    for (int i = 0; i < segments.length; i++) {
      String segment = segments[i].replace("%2e", ".").replace("%2E", ".");
      boolean last = i == segments.length - 1;
      if (segment.equals(".") || segment.equals("..") || (segment.isEmpty() && !last)) {
        return "the request path must be normalized: no '.', '..' or empty segments; send the"
            + " path as a browser would resolve it";
      }
    }
    return null;
  }

  /** What is wrong with a request's framing headers, or {@code null}. */
  static String headersProblem(Headers headers) {
    List<String> lengths = headers.all(HeaderNames.CONTENT_LENGTH, List::of);
    List<String> encodings = headers.all(HeaderNames.TRANSFER_ENCODING, List::of);
    if (lengths.size() > 1) {
      return "send one Content-Length header; this request had " + lengths.size();
    }
    if (lengths.size() == 1 && !lengths.getFirst().strip().matches("\\d{1,18}")) {
      return "Content-Length must be a non-negative whole number, got '"
          + lengths.getFirst().strip()
          + "'";
    }
    if (encodings.isEmpty()) {
      return null;
    }
    if (!lengths.isEmpty()) {
      return "send either Content-Length or Transfer-Encoding, not both";
    }
    if (encodings.size() > 1 || !CHUNKED.matcher(encodings.getFirst()).matches()) {
      return "Transfer-Encoding must be exactly 'chunked' (the only coding this server reads)";
    }
    return null;
  }
}
