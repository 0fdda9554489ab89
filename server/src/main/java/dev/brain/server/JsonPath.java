package dev.brain.server;

import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.stream.Collectors;

/**
 * Where in a JSON document a value that cannot be read sits, as a person writes it ({@code
 * conversation[0].question}): the one wording of the HTTP body reader and the MCP tool arguments.
 */
public final class JsonPath {
  private JsonPath() {}

  /** The path of the value {@code e} is about; empty for the document itself. */
  public static String of(JsonMappingException e) {
    return e.getPath().stream()
        .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining("."))
        .replace(".[", "[");
  }
}
