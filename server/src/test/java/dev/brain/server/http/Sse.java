package dev.brain.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads server-sent events with the JDK client, as the tests' SSE consumer. */
final class Sse {
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Sse() {}

  /** One event: its name and its data parsed as JSON. */
  record Event(String name, JsonNode data) {
    @Override
    public String toString() {
      return name + " " + data;
    }
  }

  /** A finished stream: the HTTP status, content type and every event in order. */
  record Stream2(int status, String contentType, List<Event> events, String rawBody) {
    List<String> names() {
      return events.stream().map(Event::name).toList();
    }

    List<String> namesWithoutHeartbeats() {
      return names().stream().filter(n -> !n.equals("heartbeat")).toList();
    }

    Event first(String name) {
      return events.stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }
  }

  static HttpRequest.Builder post(URI uri, String json) {
    return HttpRequest.newBuilder(uri)
        .header("Content-Type", "application/json")
        .header("Accept", "text/event-stream")
        .timeout(Duration.ofSeconds(90))
        .POST(HttpRequest.BodyPublishers.ofString(json));
  }

  /** Sends the request and reads the whole stream (or the error body). */
  static Stream2 read(HttpRequest.Builder request) {
    try {
      HttpResponse<Stream<String>> res =
          CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofLines());
      String type = res.headers().firstValue("content-type").orElse("");
      List<String> lines;
      try (var body = res.body()) {
        lines = body.toList();
      }
      return new Stream2(res.statusCode(), type, parse(lines), String.join("\n", lines));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Opens the stream and returns its body for reading event by event (close it to disconnect). */
  static BufferedReader open(HttpRequest.Builder request) {
    try {
      HttpResponse<InputStream> res =
          CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      return new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Reads the next event from an open stream, or null at its end. */
  static Event next(BufferedReader reader) throws IOException {
    var frame = new ArrayList<String>();
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      if (line.isEmpty()) {
        if (!frame.isEmpty()) {
          return parse(frame).get(0);
        }
        continue;
      }
      frame.add(line);
    }
    return frame.isEmpty() ? null : parse(frame).get(0);
  }

  static List<Event> parse(List<String> lines) {
    var events = new ArrayList<Event>();
    String name = "message";
    var data = new StringBuilder();
    for (String line : lines) {
      if (line.isEmpty()) {
        if (!data.isEmpty()) {
          events.add(new Event(name, json(data.toString())));
        }
        name = "message";
        data.setLength(0);
      } else if (line.startsWith("event:")) {
        name = line.substring(6).strip();
      } else if (line.startsWith("data:")) {
        if (!data.isEmpty()) {
          data.append('\n');
        }
        data.append(line.substring(5).stripLeading());
      }
    }
    if (!data.isEmpty()) {
      events.add(new Event(name, json(data.toString())));
    }
    return events;
  }

  private static JsonNode json(String text) {
    try {
      return HttpJson.MAPPER.readTree(text);
    } catch (IOException e) {
      return HttpJson.MAPPER.getNodeFactory().textNode(text);
    }
  }
}
