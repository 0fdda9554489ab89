package dev.brain.server.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.brain.research.json.Json;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.server.StrictTypes;
import dev.brain.server.StrictUtf8;
import io.helidon.http.Status;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Turns a request body into a request record strictly, with messages of our own: the body must be
 * valid UTF-8 (no overlong forms) holding exactly one JSON object with no duplicate keys; a value
 * of the wrong type is never converted ({@code 42} is not the string {@code "42"}, {@code "5"} not
 * the number 5, {@code 5.5} not 5); a number out of range is a 422 naming the field. No error
 * message names a Java or Jackson type.
 */
final class StrictJson {
  private StrictJson() {}

  /** Deepest nesting accepted: far beyond any request, far below a parser's limits. */
  private static final int MAX_DEPTH = 64;

  private static final ObjectMapper MAPPER = strict(Json.newMapper());

  /** Backticked type names and dotted Java names in a parser message. */
  private static final Pattern TYPE_NAMES =
      Pattern.compile("`[^`]*`|\\b(?:java|javax|com|dev|io|org|jdk|sun)\\.[\\w.$]+");

  static ObjectMapper strict(ObjectMapper mapper) {
    mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    mapper
        .getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build());
    return StrictTypes.refuseConversions(mapper);
  }

  /**
   * Reads {@code body} as a {@code type}.
   *
   * @throws ApiException 400 if the body is empty, not UTF-8, not JSON, not one object, or has
   *     trailing content; 422 if a field is unknown, of the wrong type or out of range
   */
  static <T> T read(byte[] body, Class<T> type) {
    String text = utf8(body);
    if (text.isBlank()) {
      throw badJson("the request body is empty; send a JSON object");
    }
    JsonNode tree;
    try {
      tree = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw syntaxError(e);
    }
    if (tree != null && hasLoneSurrogate(tree)) {
      throw badJson(
          "the request body holds a lone UTF-16 surrogate escape (such as \\ud800); send whole"
              + " characters");
    }
    if (tree == null || !tree.isObject()) {
      throw badJson(
          "the request body must be a JSON object, got "
              + (tree == null || tree.isNull()
                  ? "null"
                  : tree.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
    }
    try {
      T value = MAPPER.treeToValue(tree, type);
      if (value == null) {
        throw badJson("the request body must be a JSON object");
      }
      return value;
    } catch (IOException | IllegalArgumentException e) {
      throw mappingError(e);
    }
  }

  /**
   * Whether a string or field name of {@code node} holds half of a surrogate pair: valid UTF-8
   * cannot, but a JSON {@code \\u} escape can, and such text breaks every later encoder.
   */
  private static boolean hasLoneSurrogate(JsonNode node) {
    if (node.isTextual()) {
      return loneSurrogate(node.textValue());
    }
    for (var field : node.properties()) {
      if (loneSurrogate(field.getKey()) || hasLoneSurrogate(field.getValue())) {
        return true;
      }
    }
    for (JsonNode element : node.isArray() ? node : List.<JsonNode>of()) {
      if (hasLoneSurrogate(element)) {
        return true;
      }
    }
    return false;
  }

  private static boolean loneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  /** The body as text; invalid UTF-8 (overlong forms, lone surrogates, bad bytes) is a 400. */
  private static String utf8(byte[] body) {
    try {
      return StrictUtf8.decode(body);
    } catch (StrictUtf8.Invalid e) {
      throw badJson(
          "the request body is not valid UTF-8 at byte offset "
              + e.offset()
              + "; send JSON encoded as UTF-8");
    }
  }

  private static ApiException syntaxError(JsonProcessingException e) {
    var where = e.getLocation();
    String at =
        where == null ? "" : " at line " + where.getLineNr() + ", column " + where.getColumnNr();
    String reason = clean(e.getOriginalMessage());
    if (reason.startsWith("Trailing token")) {
      reason = "there is more after the JSON object";
    } else if (reason.startsWith("Duplicate field")) {
      reason = "a field appears twice: " + reason.substring("Duplicate field".length()).strip();
    }
    return badJson("the request body is not valid JSON" + at + ": " + reason);
  }

  /** The API error of a well-formed object that does not fit the request type. */
  static ApiException mappingError(Exception e) {
    if (e instanceof ValueInstantiationException vie && vie.getCause() != null) {
      Throwable cause = vie.getCause();
      if (cause instanceof InvalidSearchException ise) {
        return ErrorMapping.invalidSearch(ise);
      }
      if (cause instanceof ApiException api) {
        return api;
      }
      String field = path(vie);
      if (cause instanceof NullPointerException) {
        return ApiException.invalidOption(
            (field.isEmpty() ? "a field" : "'" + field + "'")
                + " is null or holds a null; every listed field needs a value",
            field.isEmpty() ? null : field);
      }
      if (cause instanceof IllegalArgumentException iae) {
        return ApiException.invalidOption(clean(iae.getMessage()), field.isEmpty() ? null : field);
      }
    }
    if (e instanceof UnrecognizedPropertyException upe) {
      List<String> known = new ArrayList<>();
      if (upe.getKnownPropertyIds() != null) {
        upe.getKnownPropertyIds().forEach(id -> known.add(String.valueOf(id)));
      }
      known.sort(null);
      String field = path(upe);
      return new ApiException(
          Status.UNPROCESSABLE_CONTENT_422,
          new ApiError("invalid_option", "unknown field '" + field + "'", field, known, null),
          0);
    }
    if (e instanceof MismatchedInputException mie && !mie.getPath().isEmpty()) {
      String field = path(mie);
      return ApiException.invalidOption(
          "field '" + field + "' must be " + expected(mie.getTargetType()), field);
    }
    if (e instanceof JsonMappingException jme && !jme.getPath().isEmpty()) {
      String field = path(jme);
      String why =
          jme.getCause() instanceof InputCoercionException
              ? "is out of range"
              : "has a value that is not allowed";
      return ApiException.invalidOption("field '" + field + "' " + why, field);
    }
    return badJson("the request body does not fit this endpoint: " + clean(e.getMessage()));
  }

  /** What a value of {@code type} looks like, in JSON terms. */
  static String expected(Class<?> type) {
    if (type == null) {
      return "of another type";
    }
    if (type == String.class || type.isEnum()) {
      return "a string";
    }
    if (type == Integer.class
        || type == int.class
        || type == Long.class
        || type == long.class
        || type == Short.class
        || type == short.class) {
      return "a whole number";
    }
    if (Number.class.isAssignableFrom(type) || type == double.class || type == float.class) {
      return "a number";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "an array";
    }
    if (Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "an object";
    }
    return "of another type";
  }

  private static String path(JsonMappingException e) {
    return dev.brain.server.JsonPath.of(e);
  }

  /** The first line of a parser message, without type names. */
  static String clean(String message) {
    if (message == null || message.isBlank()) {
      return "malformed input";
    }
    int nl = message.indexOf('\n');
    String line = nl < 0 ? message : message.substring(0, nl);
    return TYPE_NAMES.matcher(line).replaceAll("a value").strip();
  }

  private static ApiException badJson(String message) {
    return ApiException.badRequest("bad_json", message, null);
  }
}
