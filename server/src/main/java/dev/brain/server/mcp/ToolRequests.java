package dev.brain.server.mcp;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.brain.research.json.Json;
import dev.brain.server.StrictTypes;
import java.util.Map;

/** Tool arguments read as a request record, with a tool error naming the argument at fault. */
final class ToolRequests {
  private ToolRequests() {}

  /**
   * Reads tool arguments as request records: brain's JSON names; an unknown name is an error, and a
   * value is never converted to another type (as the HTTP API reads a body).
   */
  private static final ObjectMapper REQUESTS =
      StrictTypes.refuseConversions(
          Json.newMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES));

  /**
   * The tool error of arguments that do not read as a request: the path of the value at fault
   * ({@code conversation[0].answer}) and what is wrong with it, in words.
   */
  private static ToolInputException wrongArgument(IllegalArgumentException e) {
    if (!(e.getCause() instanceof JsonMappingException m) || m.getPath().isEmpty()) {
      return new ToolInputException("arguments", "the arguments do not match the tool's schema");
    }
    String at = dev.brain.server.JsonPath.of(m);
    if (m instanceof UnrecognizedPropertyException u) {
      String parent = at.substring(0, Math.max(0, at.length() - u.getPropertyName().length() - 1));
      return new ToolInputException(
          at, "unknown argument '" + u.getPropertyName() + "' in '" + parent + "'");
    }
    return new ToolInputException(at, "'" + at + "' has the wrong type; see the tool's schema");
  }

  /**
   * The {@code type} record of {@code arguments}, by brain's JSON names.
   *
   * @throws ToolInputException naming the argument that is unknown or of the wrong type
   */
  static <T> T read(Map<String, Object> arguments, Class<T> type) {
    try {
      return REQUESTS.convertValue(arguments, type);
    } catch (IllegalArgumentException e) {
      throw wrongArgument(e);
    }
  }
}
