package dev.brain.server.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * MCP over stdio: one JSON-RPC message per line on stdin, one per line on stdout, nothing else on
 * stdout. Unlike the SDK's own stdio provider, a bad line never ends the session: a line that is
 * not one JSON value gets a parse error, one that is no JSON-RPC 2.0 message an invalid-request
 * error ({@link JsonRpcReader}), a line over {@link BrainMcp#MAX_MESSAGE_BYTES} a too-large error,
 * a request before {@code initialize} or under the id of a request still running an error saying so
 * — then the next line is read. The session ends when stdin ends.
 */
final class StdioTransport implements McpServerTransportProvider {
  private static final System.Logger LOG = System.getLogger(StdioTransport.class.getName());

  private final McpJsonMapper mapper;
  private final InputStream in;
  private final OutputStream out;
  private final int maxLineBytes;
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile McpServerSession session;
  private volatile boolean initializeSeen;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Set<Object> running = ConcurrentHashMap.newKeySet();

  /** How long requests still running when stdin ends may take to answer. */
  private static final Duration DRAIN = Duration.ofMinutes(1);

  StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, int maxLineBytes) {
    this.mapper = mapper;
    this.in = in;
    this.out = out;
    this.maxLineBytes = maxLineBytes;
  }

  @Override
  public List<String> protocolVersions() {
    return BrainMcp.PROTOCOL_VERSIONS;
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    session = sessionFactory.create(new LineTransport());
    Thread.ofPlatform().name("brain-mcp-stdin").daemon().start(this::readLines);
  }

  /** Blocks until stdin has ended (or could not be read any more). */
  void awaitEnd() throws InterruptedException {
    ended.await();
  }

  private void readLines() {
    try (var lines = new BufferedInputStream(in, 1 << 16)) {
      while (true) {
        Line line = readLine(lines);
        if (line == null) {
          return;
        }
        if (line.tooLong()) {
          write(error(null, McpSchema.ErrorCodes.INVALID_REQUEST, tooLong()));
        } else if (!blank(line.bytes())) {
          handleQuietly(line.bytes());
        }
      }
    } catch (IOException e) {
      LOG.log(Level.WARNING, "cannot read stdin; ending the MCP session: " + e.getMessage());
    } finally {
      awaitInFlight();
      session.close();
      ended.countDown();
    }
  }

  private void finished() {
    synchronized (inFlight) {
      inFlight.decrementAndGet();
      inFlight.notifyAll();
    }
  }

  /** Lets requests read before stdin ended send their answers (for at most a minute). */
  private void awaitInFlight() {
    long deadline = System.nanoTime() + DRAIN.toNanos();
    synchronized (inFlight) {
      while (inFlight.get() > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return;
        }
        try {
          inFlight.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private String tooLong() {
    return "message over "
        + maxLineBytes
        + " bytes; brain reads one JSON-RPC message per line up to that size";
  }

  /** Whether a line holds nothing but spaces and tabs (a keep-alive newline, say). */
  private static boolean blank(byte[] line) {
    for (byte b : line) {
      if (b != ' ' && b != '\t') {
        return false;
      }
    }
    return true;
  }

  private void handleQuietly(byte[] line) {
    try {
      handle(line);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "cannot handle an MCP message", e);
      write(error(null, McpSchema.ErrorCodes.INTERNAL_ERROR, "internal error"));
    }
  }

  private void handle(byte[] line) {
    JSONRPCMessage message;
    switch (JsonRpcReader.read(mapper, line)) {
      case JsonRpcReader.Refused refused -> {
        write(refused.error());
        return;
      }
      case JsonRpcReader.Message read -> message = read.message();
    }
    Object id = null;
    if (message instanceof JSONRPCRequest request) {
      if (McpSchema.METHOD_INITIALIZE.equals(request.method())) {
        initializeSeen = true;
      } else if (!initializeSeen && !McpSchema.METHOD_PING.equals(request.method())) {
        write(
            error(
                request.id(),
                McpSchema.ErrorCodes.INVALID_REQUEST,
                "the session is not initialized; send 'initialize' first"));
        return;
      }
      // Answers are matched to requests by id: a second request under a running one's id would
      // make both answers ambiguous.
      if (!running.add(request.id())) {
        write(
            error(
                request.id(),
                McpSchema.ErrorCodes.INVALID_REQUEST,
                "invalid request: a request with id "
                    + request.id()
                    + " is still running; give every request an id of its own"));
        return;
      }
      id = request.id();
    }
    Object runningId = id;
    inFlight.incrementAndGet();
    session
        .handle(message)
        .doFinally(
            signal -> {
              if (runningId != null) {
                running.remove(runningId);
              }
              finished();
            })
        .subscribe(v -> {}, e -> LOG.log(Level.WARNING, "MCP message failed: " + e.getMessage()));
  }

  private static Map<String, Object> error(Object id, int code, String message) {
    return JsonRpcErrors.error(id, code, message);
  }

  private void write(Object message) {
    byte[] bytes;
    try {
      bytes =
          mapper.writeValueAsBytes(
              message instanceof JSONRPCMessage m ? JsonRpcErrors.sanitized(m) : message);
    } catch (IOException e) {
      LOG.log(Level.ERROR, "cannot write an MCP message as JSON", e);
      return;
    }
    synchronized (out) {
      try {
        out.write(bytes);
        out.write('\n');
        out.flush();
      } catch (IOException e) {
        LOG.log(Level.WARNING, "cannot write to stdout: " + e.getMessage());
      }
    }
  }

  /** One line of stdin: its bytes, or only the fact that it was over the limit. */
  private record Line(byte[] bytes, boolean tooLong) {}

  /** The next line without its end, or {@code null} at the end of the stream. */
  private Line readLine(InputStream stream) throws IOException {
    var buffer = new ByteArrayOutputStream();
    boolean tooLong = false;
    int b;
    boolean any = false;
    while ((b = stream.read()) != -1) {
      any = true;
      if (b == '\n') {
        break;
      }
      if (tooLong) {
        continue;
      }
      if (buffer.size() >= maxLineBytes) {
        tooLong = true;
        buffer = new ByteArrayOutputStream();
        continue;
      }
      buffer.write(b);
    }
    if (!any) {
      return null;
    }
    if (tooLong) {
      return new Line(null, true);
    }
    byte[] bytes = buffer.toByteArray();
    int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
    return new Line(java.util.Arrays.copyOf(bytes, end), false);
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.sendNotification(method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.closeGracefully();
  }

  /** The session's side of the pipe: each message one line on stdout. */
  private final class LineTransport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
      return Mono.fromRunnable(() -> write(message));
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }

    @Override
    public List<String> protocolVersions() {
      return BrainMcp.PROTOCOL_VERSIONS;
    }
  }
}
