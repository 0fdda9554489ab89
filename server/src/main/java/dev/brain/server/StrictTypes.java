package dev.brain.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.util.List;

/**
 * A request's values read as the types they are, never converted: {@code 42} is not the string
 * {@code "42"}, {@code "5"} not the number 5, {@code 5.5} not 5, {@code "true"} not true. The one
 * rule of the HTTP body reader and the MCP tool arguments, so a request reads the same on both.
 */
public final class StrictTypes {
  private StrictTypes() {}

  /** {@code mapper}, refusing every scalar conversion; returned for chaining. */
  public static ObjectMapper refuseConversions(ObjectMapper mapper) {
    mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
    for (var shape :
        List.of(CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean)) {
      mapper.coercionConfigFor(LogicalType.Textual).setCoercion(shape, CoercionAction.Fail);
    }
    mapper
        .coercionConfigFor(LogicalType.Boolean)
        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
    for (var type : List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
      mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
      mapper
          .coercionConfigFor(type)
          .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
    }
    return mapper;
  }
}
