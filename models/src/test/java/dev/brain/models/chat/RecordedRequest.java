package dev.brain.models.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A request a {@link FakeHttpServer} received.
 *
 * @param method HTTP method
 * @param path request path, e.g. {@code /api/chat}
 * @param headers headers by lower-case name
 * @param body the body as UTF-8 text
 */
public record RecordedRequest(
    String method, String path, Map<String, List<String>> headers, String body) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public RecordedRequest {
    headers = Map.copyOf(headers);
  }

  /** The first value of a header (any case), or null. */
  public String header(String name) {
    List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** The body parsed as JSON. */
  public JsonNode json() {
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new AssertionError("request body is not JSON: " + body, e);
    }
  }
}
