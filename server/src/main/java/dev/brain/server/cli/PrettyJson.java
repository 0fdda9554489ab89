package dev.brain.server.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The CLI's JSON: {@link dev.brain.research.json.Json brain's mapper}, indented. */
final class PrettyJson {
  private PrettyJson() {}

  static final ObjectMapper MAPPER =
      dev.brain.research.json.Json.newMapper().enable(SerializationFeature.INDENT_OUTPUT);

  static String pretty(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON for " + value.getClass(), e);
    }
  }
}
