package dev.brain.server.mcp;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import reactor.core.publisher.Mono;

/**
 * MCP's Streamable HTTP transport on Helidon SE (the SDK's own HTTP transports are servlets). One
 * endpoint: {@code POST} carries one JSON-RPC message — {@code initialize} answers with JSON and an
 * {@code Mcp-Session-Id}, other requests with a short SSE stream ending in their response,
 * notifications and responses with 202; {@code DELETE} ends a session; {@code GET} (the optional
 * server-to-client stream) is 405, since brain never calls its clients. A message is read strictly
 * ({@link JsonRpcReader}). Every failure, the 405 included, is a JSON-RPC error body with a fitting
 * status, never a stack trace. Registered in the server's routing, so whatever guards the routing
 * guards this endpoint too. A {@code tools/call} of a writing tool is a 401 (with a JSON-RPC error
 * body) unless the request carries the server's token, checked per request as the REST writes do.
 */
final class StreamableHttpTransport implements McpStreamableServerTransportProvider, HttpService {
  private static final System.Logger LOG =
      System.getLogger(StreamableHttpTransport.class.getName());

  private final McpJsonMapper mapper;
  private final int maxBodyBytes;
  private final Set<String> writingTools;
  private final Predicate<ServerRequest> owner;
  private final Map<String, McpStreamableServerSession> sessions = new ConcurrentHashMap<>();
  private volatile McpStreamableServerSession.Factory sessionFactory;
  private volatile boolean closing;

  /** The hosting server's body deadline, under which every message body is read. */
  private final BrainMcp.BodyDeadline deadline;

  /**
   * @param writingTools the tools whose calls need the owner's token
   * @param owner whether a request carries the server's token
   * @param deadline how the hosting server reads a body under its deadline
   */
  StreamableHttpTransport(
      McpJsonMapper mapper,
      int maxBodyBytes,
      Set<String> writingTools,
      Predicate<ServerRequest> owner,
      BrainMcp.BodyDeadline deadline) {
    this.deadline = deadline;
    this.mapper = mapper;
    this.maxBodyBytes = maxBodyBytes;
    this.writingTools = Set.copyOf(writingTools);
    this.owner = owner;
  }

  @Override
  public List<String> protocolVersions() {
    return BrainMcp.PROTOCOL_VERSIONS;
  }

  @Override
  public void setSessionFactory(McpStreamableServerSession.Factory sessionFactory) {
    this.sessionFactory = sessionFactory;
  }

  @Override
  public void routing(HttpRules rules) {
    rules
        .post("/", this::post)
        .delete("/", this::delete)
        .get(
            "/",
            (req, res) -> {
              res.header(HeaderNames.ALLOW, "POST, DELETE");
              error(
                  res,
                  Status.METHOD_NOT_ALLOWED_405,
                  null,
                  "no server-to-client stream here (brain never calls its clients): POST each"
                      + " JSON-RPC message to this endpoint");
            });
  }

  private void post(ServerRequest req, ServerResponse res) {
    if (closing) {
      error(res, Status.SERVICE_UNAVAILABLE_503, null, "the server is shutting down");
      return;
    }
    byte[] body = readBody(req, res);
    if (body == null) {
      return;
    }
    JSONRPCMessage message;
    switch (JsonRpcReader.read(mapper, body)) {
      case JsonRpcReader.Refused refused -> {
        send(res, Status.BAD_REQUEST_400, refused.error());
        return;
      }
      case JsonRpcReader.Message read -> message = read.message();
    }
    if (message instanceof JSONRPCRequest request
        && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
      initialize(request, res);
      return;
    }
    Object id = message instanceof JSONRPCRequest r ? r.id() : null;
    String sessionId =
        req.headers().value(HeaderNames.create(HttpHeaders.MCP_SESSION_ID)).orElse("");
    if (sessionId.isBlank()) {
      error(
          res,
          Status.BAD_REQUEST_400,
          id,
          "no Mcp-Session-Id header: the session is not initialized; send 'initialize' first");
      return;
    }
    McpStreamableServerSession session = sessions.get(sessionId);
    if (session == null) {
      error(res, Status.NOT_FOUND_404, id, "unknown or ended session; send 'initialize' again");
      return;
    }
    if (message instanceof JSONRPCRequest request && writes(request) && !owner.test(req)) {
      res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"brain\"");
      error(
          res,
          Status.UNAUTHORIZED_401,
          id,
          toolName(request)
              + " writes into your notes and needs the server's token: send 'Authorization:"
              + " Bearer <token>' with the token of <data>/server.json (server.token when set);"
              + " the other tools need none");
      return;
    }
    switch (message) {
      case JSONRPCRequest request -> stream(session, request, res);
      case JSONRPCNotification n -> {
        session.accept(n).block();
        res.status(Status.ACCEPTED_202).send();
      }
      case JSONRPCResponse r -> {
        acceptQuietly(session, r);
        res.status(Status.ACCEPTED_202).send();
      }
      default -> error(res, Status.BAD_REQUEST_400, null, "not a JSON-RPC message");
    }
  }

  /** Whether {@code request} calls a writing tool. */
  private boolean writes(JSONRPCRequest request) {
    return McpSchema.METHOD_TOOLS_CALL.equals(request.method())
        && writingTools.contains(toolName(request));
  }

  /**
   * The tool a {@code tools/call} names, read from its params as the SDK reads them to find the
   * tool; empty when they do not map (then the SDK refuses the call too).
   */
  private String toolName(JSONRPCRequest request) {
    try {
      var call = mapper.convertValue(request.params(), new TypeRef<McpSchema.CallToolRequest>() {});
      return call == null || call.name() == null ? "" : call.name();
    } catch (RuntimeException e) {
      return "";
    }
  }

  private static void acceptQuietly(McpStreamableServerSession session, JSONRPCResponse r) {
    try {
      session.accept(r).block();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "ignoring a response to no request: " + e.getMessage());
    }
  }

  /**
   * The body, or {@code null} after answering 413 when it is over the limit; read under the
   * server's body deadline, as every request body is.
   */
  private byte[] readBody(ServerRequest req, ServerResponse res) {
    return deadline.read(() -> readBodyNow(req, res));
  }

  private byte[] readBodyNow(ServerRequest req, ServerResponse res) {
    long declared = req.headers().contentLength().orElse(-1);
    try (InputStream in = req.content().inputStream()) {
      if (declared > maxBodyBytes) {
        in.transferTo(OutputStream.nullOutputStream());
        tooLarge(res);
        return null;
      }
      byte[] bytes = in.readNBytes(maxBodyBytes + 1);
      if (bytes.length > maxBodyBytes) {
        in.transferTo(OutputStream.nullOutputStream());
        tooLarge(res);
        return null;
      }
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void tooLarge(ServerResponse res) {
    error(
        res,
        Status.REQUEST_ENTITY_TOO_LARGE_413,
        null,
        "message over " + maxBodyBytes + " bytes; brain takes JSON-RPC messages up to that size");
  }

  private void initialize(JSONRPCRequest request, ServerResponse res) {
    McpSchema.InitializeRequest init;
    try {
      init = mapper.convertValue(request.params(), new TypeRef<McpSchema.InitializeRequest>() {});
    } catch (RuntimeException e) {
      init = null;
    }
    if (init == null || init.protocolVersion() == null) {
      error(
          res,
          Status.BAD_REQUEST_400,
          request.id(),
          McpSchema.ErrorCodes.INVALID_PARAMS,
          "initialize needs params with protocolVersion, capabilities and clientInfo");
      return;
    }
    var started = sessionFactory.startSession(init);
    sessions.put(started.session().getId(), started.session());
    McpSchema.InitializeResult result = started.initResult().block();
    res.header(HeaderNames.create(HttpHeaders.MCP_SESSION_ID), started.session().getId());
    send(
        res,
        Status.OK_200,
        new JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), result, null));
  }

  /** Answers a request as an SSE stream that ends with its response. */
  private void stream(
      McpStreamableServerSession session, JSONRPCRequest request, ServerResponse res) {
    res.status(Status.OK_200);
    res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
    res.header(HeaderNames.CACHE_CONTROL, "no-cache");
    try (OutputStream out = res.outputStream()) {
      var sse = new SseStream(session.getId(), out);
      try {
        session.responseStream(sse).handle(request).block();
      } catch (UncheckedIOException e) {
        throw e;
      } catch (RuntimeException e) {
        // The SDK lets a handler's failure (e.g. params it cannot map) escape the stream.
        LOG.log(Level.DEBUG, "MCP request failed: " + e.getMessage());
        sse.write(JsonRpcErrors.failed(request.id(), e), null);
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.log(Level.DEBUG, "MCP client went away: " + e.getMessage());
    }
  }

  private void delete(ServerRequest req, ServerResponse res) {
    String sessionId =
        req.headers().value(HeaderNames.create(HttpHeaders.MCP_SESSION_ID)).orElse("");
    McpStreamableServerSession session = sessions.remove(sessionId);
    if (session == null) {
      error(res, Status.NOT_FOUND_404, null, "unknown or ended session");
      return;
    }
    session.delete().block();
    res.status(Status.OK_200).send();
  }

  private void error(ServerResponse res, Status status, Object id, String message) {
    error(res, status, id, McpSchema.ErrorCodes.INVALID_REQUEST, message);
  }

  private void error(ServerResponse res, Status status, Object id, int code, String message) {
    send(res, status, JsonRpcErrors.error(id, code, message));
  }

  private void send(ServerResponse res, Status status, Object body) {
    byte[] bytes;
    try {
      bytes = mapper.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    res.status(status);
    res.header(HeaderValues.CONTENT_TYPE_JSON);
    res.send(bytes);
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return Mono.fromRunnable(
        () ->
            sessions
                .values()
                .forEach(
                    s -> {
                      try {
                        s.sendNotification(method, params).block();
                      } catch (RuntimeException e) {
                        LOG.log(Level.DEBUG, "cannot notify an MCP session: " + e.getMessage());
                      }
                    }));
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(
        () -> {
          closing = true;
          sessions.values().forEach(s -> s.closeGracefully().onErrorComplete().block());
          sessions.clear();
        });
  }

  /** One request's SSE stream: each message an {@code event: message}. */
  private final class SseStream implements McpStreamableServerTransport {
    private final String sessionId;
    private final OutputStream out;
    private final ReentrantLock lock = new ReentrantLock();

    SseStream(String sessionId, OutputStream out) {
      this.sessionId = sessionId;
      this.out = out;
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return sendMessage(message, null);
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message, String messageId) {
      return Mono.fromRunnable(() -> write(JsonRpcErrors.sanitized(message), messageId));
    }

    /** Writes one {@code message} event. */
    void write(Object message, String messageId) {
      lock.lock();
      try {
        String event =
            "id: "
                + (messageId == null ? sessionId : messageId)
                + "\nevent: message\ndata: "
                + mapper.writeValueAsString(message)
                + "\n\n";
        out.write(event.getBytes(StandardCharsets.UTF_8));
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        lock.unlock();
      }
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }
  }
}
