package dev.brain.server.http;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Deadlines for the bytes of a request and of a streamed response, so a client that sends partial
 * headers, a short body or a drip of bytes, or reads nothing of an event stream, cannot hold a
 * connection (and a thread) open: the headers must arrive within {@code server.header-timeout} of
 * the request line (a connection's first request line and headers within it of the connection's
 * start), a body within {@code server.read-timeout} of the handler starting to read it. A
 * connection past its deadline is closed from a watchdog thread, which makes the blocked read fail.
 * A later request line that never ends is Helidon's idle timeout's (the connection counts as idle
 * until the line is complete).
 *
 * <p>Helidon serves each connection on a thread of its own, and reads a request's headers and body
 * on that thread; the deadlines are kept per thread. A socket option cannot do this: a read timeout
 * resets with every byte of a drip.
 */
public final class ReadDeadlines implements Http1ConnectionListener, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ReadDeadlines.class.getName());

  /** How often the watchdog looks; a deadline is enforced at most this late. */
  private static final Duration TICK = Duration.ofMillis(250);

  /** The deadlines of the server each connection thread serves (none outside a server). */
  private static final Map<Thread, Connection> CONNECTIONS = new ConcurrentHashMap<>();

  private final Duration headerTimeout;
  private final Duration readTimeout;
  private final Duration writeTimeout;
  private final Thread watchdog;

  ReadDeadlines(Duration headerTimeout, Duration readTimeout, Duration writeTimeout) {
    this.headerTimeout = headerTimeout;
    this.readTimeout = readTimeout;
    this.writeTimeout = writeTimeout;
    this.watchdog = Thread.ofPlatform().daemon().name("brain-read-deadlines").start(this::watch);
  }

  /**
   * A connection's socket, its body and write timeouts and the time its current read or write must
   * end by.
   */
  private static final class Connection {
    final HelidonSocket socket;
    final Duration readTimeout;
    final Duration writeTimeout;
    final ReadDeadlines owner;
    volatile long deadlineNanos; // 0: no read or write is timed
    volatile boolean writeTimedOut; // the watchdog closed it during a timed write
    boolean writing;
    boolean bodyBroken; // the current request's body failed to read: the connection is spent

    Connection(
        HelidonSocket socket, Duration readTimeout, Duration writeTimeout, ReadDeadlines owner) {
      this.socket = socket;
      this.readTimeout = readTimeout;
      this.writeTimeout = writeTimeout;
      this.owner = owner;
    }

    void arm(Duration timeout) {
      deadlineNanos = Math.max(1, System.nanoTime() + timeout.toNanos());
    }
  }

  /**
   * Serves HTTP/1.1 with {@code checks} (e.g. {@link RequestFraming}) run on each request's line
   * and headers before this class's own deadlines, and with the first request's line and headers
   * due within {@code server.header-timeout} of the connection's start: a connection that sends
   * nothing, or too little, is closed instead of holding one of the server's connections until the
   * idle timeout. Being the listener's only protocol also makes Helidon hand a new connection
   * straight to HTTP/1.1, where its idle timeout sees it, instead of waiting for bytes to pick
   * among protocols.
   */
  ServerConnectionSelector http1(Http1ConnectionListener checks) {
    // One listener that calls both: Helidon 4.3.1 passes no events on to a list of two or more.
    ReadDeadlines deadlines = this;
    Http1ConnectionListener both =
        new Http1ConnectionListener() {
          @Override
          public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
            checks.prologue(ctx, prologue);
            deadlines.prologue(ctx, prologue);
          }

          @Override
          public void headers(ConnectionContext ctx, Headers headers) {
            checks.headers(ctx, headers);
            deadlines.headers(ctx, headers);
          }
        };
    Http1Config http1 = Http1Config.builder().addReceiveListener(both).build();
    // No protocol upgrades (WebSocket, h2c): the server offers none.
    ServerConnectionSelector selector = Http1ConnectionSelector.builder().config(http1).build();
    return new ServerConnectionSelector() {
      @Override
      public int bytesToIdentifyConnection() {
        return selector.bytesToIdentifyConnection();
      }

      @Override
      public Support supports(BufferData data) {
        return selector.supports(data);
      }

      @Override
      public Set<String> supportedApplicationProtocols() {
        return selector.supportedApplicationProtocols();
      }

      @Override
      public ServerConnection connection(ConnectionContext ctx) {
        connectionOf(ctx).arm(headerTimeout);
        return selector.connection(ctx);
      }
    };
  }

  private Connection connectionOf(ConnectionContext ctx) {
    return CONNECTIONS.computeIfAbsent(
        Thread.currentThread(),
        t -> new Connection(ctx.serverSocket(), readTimeout, writeTimeout, this));
  }

  @Override
  public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
    Connection c = connectionOf(ctx);
    c.bodyBroken = false;
    if (c.deadlineNanos == 0) {
      // A later request on the connection; the first one's head is due since the connection began.
      c.arm(headerTimeout);
    }
  }

  @Override
  public void headers(ConnectionContext ctx, Headers headers) {
    Connection c = CONNECTIONS.get(Thread.currentThread());
    if (c != null) {
      c.deadlineNanos = 0;
    }
  }

  /**
   * Runs {@code read} (a read of the current request's body) under the body deadline: the
   * connection is closed when it has not finished within {@code server.read-timeout}, and the read
   * then fails. Every handler that reads a body reads it through here (the MCP endpoint too).
   */
  public static <T> T body(Supplier<T> read) {
    Connection c = CONNECTIONS.get(Thread.currentThread());
    if (c == null) {
      return read.get();
    }
    c.arm(c.readTimeout);
    try {
      return read.get();
    } catch (RuntimeException e) {
      // A body cut short, too large or badly framed: where the next request starts is unknown.
      c.bodyBroken = true;
      throw e;
    } finally {
      c.deadlineNanos = 0;
    }
  }

  /** A write that did not end within {@code server.write-timeout}: the client does not read. */
  static final class WriteTimeout extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WriteTimeout(RuntimeException cause) {
      super("the client read nothing for the write timeout (server.write-timeout)", cause);
    }
  }

  /**
   * Runs {@code write} (a write of the current response) under the write deadline: when it has not
   * finished within {@code server.write-timeout} (the client reads nothing, so the socket's buffers
   * are full) the connection is closed, and the write fails with {@link WriteTimeout}.
   */
  static void write(Runnable write) {
    Connection c = CONNECTIONS.get(Thread.currentThread());
    if (c == null) {
      write.run();
      return;
    }
    c.writing = true;
    c.writeTimedOut = false;
    c.arm(c.writeTimeout);
    try {
      write.run();
    } catch (RuntimeException e) {
      if (c.writeTimedOut) {
        throw new WriteTimeout(e);
      }
      throw e;
    } finally {
      c.deadlineNanos = 0;
      c.writing = false;
    }
  }

  /**
   * Whether the current request's body failed to read through {@link #body}: its response must
   * close the connection, as the rest of the body would be read as the next request.
   */
  static boolean bodyBroken() {
    Connection c = CONNECTIONS.get(Thread.currentThread());
    return c != null && c.bodyBroken;
  }

  private void watch() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(TICK);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      for (var entry : CONNECTIONS.entrySet()) {
        Connection c = entry.getValue();
        if (c.owner != this) {
          continue;
        }
        if (!entry.getKey().isAlive()) {
          CONNECTIONS.remove(entry.getKey(), c);
          continue;
        }
        long deadline = c.deadlineNanos;
        if (deadline != 0 && now - deadline > 0) {
          c.deadlineNanos = 0;
          c.writeTimedOut = c.writing;
          close(c);
        }
      }
    }
  }

  private static void close(Connection c) {
    LOG.log(
        Level.INFO,
        c.writeTimedOut
            ? "closed a connection whose client read nothing for the write timeout"
            : "closed a connection whose request did not arrive in time");
    try {
      c.socket.close();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "closing a late connection failed", e);
    }
  }

  @Override
  public void close() {
    watchdog.interrupt();
    CONNECTIONS.values().removeIf(c -> c.owner == this);
  }
}
