package dev.brain.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.brain.retrieval.InvalidSearchException;
import io.helidon.http.sse.SseEvent;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.sse.SseSink;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
 * interval.
 *
 * <p>The response is committed lazily: events are held until the work {@linkplain Emitter#commit()
 * commits}, streams answer text, ends, or has been quiet for one heartbeat interval. A work that
 * fails with an {@link ApiException} or {@link InvalidSearchException} before that gets a plain
 * HTTP error instead of a stream (a model found unavailable while warming up is a 503, a question
 * with no searchable word a 400). After the commit, every failure is a terminal {@code error}
 * event.
 *
 * <p>Exactly one terminal event ({@code done}, {@code verification_failed} or {@code error}) ends
 * every stream; anything after it is dropped. When a write fails the client has gone: the work
 * thread is interrupted, which cancels a model call in flight, and the stream waits for it to end.
 *
 * <p>A client that is there but reads nothing is dropped instead, and the work goes on (a run ends
 * and saves its trace as if it had been read): a write that waits longer than {@code
 * server.write-timeout} closes the connection ({@link ReadDeadlines#write}), and at most {@value
 * #MAX_QUEUED} events wait to be written, so a reader that falls that far behind is dropped too and
 * the server's memory stays bounded.
 */
final class EventStream {
  private static final System.Logger LOG = System.getLogger(EventStream.class.getName());

  /** Events after which nothing more is sent. */
  static final Set<String> TERMINAL = Set.of("done", "verification_failed", "error");

  /** Events that commit the stream as soon as they are emitted. */
  private static final Set<String> COMMITTING = Set.of("token", "answer");

  /** How long a cancelled run may take to notice before the stream stops waiting for it. */
  static final Duration CANCEL_GRACE = Duration.ofSeconds(10);

  private static final AtomicInteger RUNS = new AtomicInteger();

  /** Most events waiting to be written; a reader further behind is dropped. */
  static final int MAX_QUEUED = 4_096;

  /** What a run does; it emits events and returns after a terminal one. */
  @FunctionalInterface
  interface Work {
    void run(Emitter emitter) throws Exception;
  }

  /** Where a run's events go. Thread-safe. */
  interface Emitter {
    /** Queues an event; {@code data} is written as one line of JSON. */
    void emit(String name, Object data);

    /** Opens the stream now: from here on, failures are {@code error} events. */
    void commit();
  }

  /** Maps a failure of the work after the commit to the data of its {@code error} event. */
  @FunctionalInterface
  interface Failure {
    Map<String, Object> describe(Throwable error);
  }

  private record Event(String name, Object data) {}

  private record Failed(Throwable error) {}

  private static final Object COMMIT = new Object();
  private static final Object END = new Object();

  private EventStream() {}

  /**
   * Streams {@code work}'s events on {@code res} until a terminal event, the end of the work, or
   * the client's disconnect. Returns when the work thread has ended (or, after a disconnect, when
   * it has had {@link #CANCEL_GRACE} to do so). {@code workEnded} runs on the work thread as soon
   * as the work has ended, before the stream is closed: a client that sends its next request the
   * moment it sees the end of this stream finds the run's slot already free.
   *
   * @throws ApiException when the work failed with a client-facing error before the commit
   */
  static void serve(
      ServerResponse res, Duration heartbeat, Work work, Failure failure, Runnable workEnded) {
    BlockingQueue<Object> queue = new LinkedBlockingQueue<>(MAX_QUEUED);
    AtomicBoolean cancelled = new AtomicBoolean();
    AtomicBoolean dropped = new AtomicBoolean();
    Thread worker =
        Thread.ofVirtual()
            .name("brain-run-" + RUNS.incrementAndGet())
            .start(() -> runWork(work, queue, cancelled, dropped, workEnded));
    SseSink sink = null;
    boolean finished = false;
    try {
      var held = new ArrayList<Event>();
      Object first = holdUntilCommit(queue, heartbeat, held);
      if (first instanceof Failed f && preStream(f.error()) != null) {
        finished = true;
        join(worker);
        throw preStream(f.error());
      }
      sink = res.sink(SseSink.TYPE);
      new Pump(sink, heartbeat, failure, dropped).run(queue, held, first);
      finished = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the server is stopping
    } catch (ApiException e) {
      throw e;
    } catch (ReadDeadlines.WriteTimeout e) {
      // A reader that reads nothing: dropped; the work goes on to its end without this stream.
      dropped.set(true);
      finished = true;
      LOG.log(Level.INFO, "dropped a stream whose client read nothing; the run goes on");
    } catch (RuntimeException e) {
      LOG.log(Level.DEBUG, "client went away; cancelling the run", e);
    } finally {
      if (!finished) {
        cancelled.set(true);
        worker.interrupt();
        join(worker);
      }
      if (sink != null) {
        closeQuietly(sink);
      }
    }
  }

  /**
   * Collects events into {@code held} until one that opens the stream; returns what ended the wait:
   * {@code null} (commit, committing event, or a heartbeat interval without one), a {@link Failed}
   * or {@link #END}.
   */
  private static Object holdUntilCommit(
      BlockingQueue<Object> queue, Duration heartbeat, List<Event> held)
      throws InterruptedException {
    long deadline = System.nanoTime() + heartbeat.toNanos();
    for (; ; ) {
      long left = deadline - System.nanoTime();
      Object item = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
      if (item == null || item == COMMIT) {
        return null;
      }
      if (item instanceof Event e) {
        held.add(e);
        if (COMMITTING.contains(e.name()) || TERMINAL.contains(e.name())) {
          return null;
        }
        continue;
      }
      return item;
    }
  }

  /** The HTTP error of a failure before the commit, or null when it is not one for the client. */
  private static ApiException preStream(Throwable error) {
    if (error instanceof ApiException api) {
      return api;
    }
    if (error instanceof InvalidSearchException invalid) {
      return ErrorMapping.invalidSearch(invalid);
    }
    return null;
  }

  /** Writes events, heartbeats and the terminal event of a committed stream. */
  private static final class Pump {
    private final SseSink sink;
    private final Duration heartbeat;
    private final Failure failure;
    private final AtomicBoolean dropped;
    private final long start = System.nanoTime();
    private boolean terminal;

    Pump(SseSink sink, Duration heartbeat, Failure failure, AtomicBoolean dropped) {
      this.sink = sink;
      this.heartbeat = heartbeat;
      this.failure = failure;
      this.dropped = dropped;
    }

    void run(BlockingQueue<Object> queue, List<Event> held, Object first)
        throws InterruptedException {
      held.forEach(this::write);
      if (first != null && handle(first)) {
        return;
      }
      for (; ; ) {
        if (dropped.get()) {
          LOG.log(Level.INFO, "dropped a stream whose client fell too far behind; the run goes on");
          return;
        }
        Object item = queue.poll(heartbeat.toMillis(), TimeUnit.MILLISECONDS);
        if (item == null) {
          write(
              new Event(
                  "heartbeat", Map.of("elapsed_ms", (System.nanoTime() - start) / 1_000_000)));
        } else if (handle(item)) {
          return;
        }
      }
    }

    /** Writes one queue item; true at the end of the work. */
    private boolean handle(Object item) {
      if (item == END) {
        if (!terminal) {
          write(new Event("error", internal("the run ended without a result")));
        }
        return true;
      }
      if (item instanceof Failed f) {
        write(new Event("error", failure.describe(f.error())));
      } else if (item instanceof Event e) {
        write(e);
      }
      return false;
    }

    private void write(Event event) {
      if (terminal) {
        return; // an error is never followed by done, nor done by anything
      }
      String json;
      try {
        json = HttpJson.MAPPER.writeValueAsString(event.data());
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot write the " + event.name() + " event as JSON", e);
      }
      var sse = SseEvent.builder().name(event.name()).data(json).build();
      ReadDeadlines.write(() -> sink.emit(sse));
      terminal = TERMINAL.contains(event.name());
    }
  }

  private static void runWork(
      Work work,
      BlockingQueue<Object> queue,
      AtomicBoolean cancelled,
      AtomicBoolean dropped,
      Runnable workEnded) {
    // Never blocks the work: an item that does not fit drops the reader, which is too far behind.
    java.util.function.Consumer<Object> put =
        item -> {
          if (!dropped.get() && !queue.offer(item)) {
            dropped.set(true);
          }
        };
    Emitter emitter =
        new Emitter() {
          @Override
          public void emit(String name, Object data) {
            put.accept(new Event(name, data));
          }

          @Override
          public void commit() {
            put.accept(COMMIT);
          }
        };
    try {
      work.run(emitter);
    } catch (Throwable t) {
      if (cancelled.get()) {
        LOG.log(Level.DEBUG, "run cancelled after the client went away", t);
        return;
      }
      if (preStream(t) == null) {
        LOG.log(Level.WARNING, "research run failed", t);
      }
      put.accept(new Failed(t));
    } finally {
      try {
        workEnded.run();
      } finally {
        put.accept(END);
      }
    }
  }

  static Map<String, Object> internal(String message) {
    Map<String, Object> data = new LinkedHashMap<>();
    data.put("answer_status", "error");
    data.put("code", "internal");
    data.put("message", message);
    return data;
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
