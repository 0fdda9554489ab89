package dev.brain.models.chat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What a {@link FakeHttpServer} answers to one request: a status, a content type, then body steps
 * (each write is flushed on its own, so the client sees the body in those pieces), and optionally a
 * body that never ends. Immutable; every method returns a new script.
 *
 * @param status HTTP status
 * @param contentType the Content-Type header
 * @param headerDelay how long to wait before sending the status line and headers
 * @param steps writes and pauses, in order
 * @param hang whether to keep the connection open after the steps instead of ending the body
 */
public record FakeResponse(
    int status, String contentType, Duration headerDelay, List<Step> steps, boolean hang) {

  /** One thing the server does while sending the body. */
  public sealed interface Step {}

  /** Writes these bytes and flushes them as one HTTP chunk. */
  public record Write(byte[] bytes) implements Step {}

  /** Waits before the next step. */
  public record Pause(Duration duration) implements Step {}

  public FakeResponse {
    steps = List.copyOf(steps);
  }

  /** An empty response with this status and content type. */
  public static FakeResponse of(int status, String contentType) {
    return new FakeResponse(status, contentType, Duration.ZERO, List.of(), false);
  }

  /** A whole JSON body with this status, e.g. an error document. */
  public static FakeResponse json(int status, String json) {
    return of(status, "application/json").write(json);
  }

  /** This script, then writing {@code text} as UTF-8. */
  public FakeResponse write(String text) {
    return write(text.getBytes(StandardCharsets.UTF_8));
  }

  /** This script, then writing {@code bytes}. */
  public FakeResponse write(byte[] bytes) {
    return with(new Write(bytes.clone()));
  }

  /** This script, then waiting {@code duration}. */
  public FakeResponse pause(Duration duration) {
    return with(new Pause(duration));
  }

  /** This script with the status line and headers sent only after {@code delay}. */
  public FakeResponse delayHeaders(Duration delay) {
    return new FakeResponse(status, contentType, delay, steps, hang);
  }

  /** This script, then keeping the connection open without ending the body. */
  public FakeResponse thenHang() {
    return new FakeResponse(status, contentType, headerDelay, steps, true);
  }

  /**
   * The same bytes cut into writes of at most {@code maxBytes}, regardless of lines, events or
   * UTF-8 characters.
   */
  public FakeResponse splitEvery(int maxBytes) {
    return recut(length -> Math.min(maxBytes, length));
  }

  /** The same bytes cut into writes of random sizes from 1 to {@code maxBytes} (seeded). */
  public FakeResponse splitRandomly(long seed, int maxBytes) {
    Random random = new Random(seed);
    return recut(length -> Math.min(length, 1 + random.nextInt(maxBytes)));
  }

  /** The whole body as text (pauses ignored). */
  public String bodyText() {
    StringBuilder text = new StringBuilder();
    for (Step step : steps) {
      if (step instanceof Write write) {
        text.append(new String(write.bytes(), StandardCharsets.UTF_8));
      }
    }
    return text.toString();
  }

  private interface Cutter {
    int next(int remaining);
  }

  private FakeResponse recut(Cutter cutter) {
    List<Step> cut = new ArrayList<>();
    for (Step step : steps) {
      if (!(step instanceof Write write)) {
        cut.add(step);
        continue;
      }
      byte[] bytes = write.bytes();
      for (int start = 0; start < bytes.length; ) {
        int length = cutter.next(bytes.length - start);
        byte[] piece = new byte[length];
        System.arraycopy(bytes, start, piece, 0, length);
        cut.add(new Write(piece));
        start += length;
      }
    }
    return new FakeResponse(status, contentType, headerDelay, cut, hang);
  }

  private FakeResponse with(Step step) {
    List<Step> more = new ArrayList<>(steps);
    more.add(step);
    return new FakeResponse(status, contentType, headerDelay, more, hang);
  }
}
