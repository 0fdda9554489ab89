package dev.brain.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.helidon.http.sse.SseEvent;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.sse.SseSink;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One server-sent event stream. The work runs on its own thread and emits events; the request
 * thread writes them, and a {@code heartbeat} whenever the work has been quiet for the heartbeat
 * interval. When a write fails the client has gone: the work thread is interrupted, which cancels a
 * model call in flight, and the stream waits for it to end. Exactly one terminal event ({@code
 * done}, {@code verification_failed} or {@code error}) ends every stream; anything the work emits
 * after it is dropped, and a work that fails or ends without one gets an {@code error}.
 */
final class EventStream {
  private static final System.Logger LOG = System.getLogger(EventStream.class.getName());

  /** Events after which nothing more is sent. */
  static final Set<String> TERMINAL = Set.of("done", "verification_failed", "error");

  /** How long a cancelled run may take to notice before the stream stops waiting for it. */
  static final Duration CANCEL_GRACE = Duration.ofSeconds(10);

  private static final AtomicInteger RUNS = new AtomicInteger();

  /** What a run does; it emits events and returns after a terminal one. */
  @FunctionalInterface
  interface Work {
    void run(Emitter emitter) throws Exception;
  }

  /** Where a run's events go. Thread-safe. */
  interface Emitter {
    /** Queues an event; {@code data} is written as one line of JSON. */
    void emit(String name, Object data);
  }

  /** Maps a failure of the work to the data of its {@code error} event. */
  @FunctionalInterface
  interface Failure {
    Map<String, Object> describe(Throwable error);
  }

  private record Event(String name, Object data) {}

  private static final Event END = new Event("", null);

  private EventStream() {}

  /**
   * Streams {@code work}'s events on {@code res} until a terminal event, the end of the work, or
   * the client's disconnect. Returns when the work thread has ended (or, after a disconnect, when
   * it has had {@link #CANCEL_GRACE} to do so).
   */
  static void serve(ServerResponse res, Duration heartbeat, Work work, Failure failure) {
    BlockingQueue<Event> queue = new LinkedBlockingQueue<>();
    AtomicBoolean cancelled = new AtomicBoolean();
    Thread worker =
        Thread.ofVirtual()
            .name("brain-run-" + RUNS.incrementAndGet())
            .start(() -> runWork(work, failure, queue, cancelled));
    SseSink sink = res.sink(SseSink.TYPE);
    long start = System.nanoTime();
    boolean finished = false;
    try {
      pump(queue, sink, heartbeat, start);
      finished = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the server is stopping
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "client went away; cancelling the run", e);
    } finally {
      if (!finished) {
        cancelled.set(true);
        worker.interrupt();
      }
      join(worker);
      closeQuietly(sink);
    }
  }

  private static void pump(BlockingQueue<Event> queue, SseSink sink, Duration heartbeat, long start)
      throws InterruptedException {
    boolean terminal = false;
    for (; ; ) {
      Event event = queue.poll(heartbeat.toMillis(), TimeUnit.MILLISECONDS);
      if (event == null) {
        write(sink, "heartbeat", Map.of("elapsed_ms", (System.nanoTime() - start) / 1_000_000));
        continue;
      }
      if (event == END) {
        return;
      }
      if (terminal) {
        continue; // an error is never followed by done, nor done by anything
      }
      write(sink, event.name(), event.data());
      terminal = TERMINAL.contains(event.name());
    }
  }

  private static void runWork(
      Work work, Failure failure, BlockingQueue<Event> queue, AtomicBoolean cancelled) {
    var sawTerminal = new AtomicBoolean();
    Emitter emitter =
        (name, data) -> {
          if (TERMINAL.contains(name)) {
            sawTerminal.set(true);
          }
          queue.add(new Event(name, data));
        };
    try {
      work.run(emitter);
      if (!sawTerminal.get()) {
        queue.add(new Event("error", internal("the run ended without a result")));
      }
    } catch (Throwable t) {
      if (cancelled.get()) {
        LOG.log(Level.DEBUG, "run cancelled after the client went away", t);
        return;
      }
      LOG.log(Level.WARNING, "research run failed", t);
      queue.add(new Event("error", failure.describe(t)));
    } finally {
      queue.add(END);
    }
  }

  static Map<String, Object> internal(String message) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("answer_status", "error");
    data.put("code", "internal");
    data.put("message", message);
    return data;
  }

  private static void write(SseSink sink, String name, Object data) {
    String json;
    try {
      json = HttpJson.MAPPER.writeValueAsString(data);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the " + name + " event as JSON", e);
    }
    sink.emit(SseEvent.builder().name(name).data(json).build());
  }

  private static void join(Thread worker) {
    try {
      if (!worker.join(CANCEL_GRACE)) {
        LOG.log(Level.WARNING, worker.getName() + " did not stop within " + CANCEL_GRACE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(SseSink sink) {
    try {
      sink.close();
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "closing the event stream", e);
    }
  }
}
