package dev.brain.evals;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The JSON Lines form of {@link ResearchEvalCase}: read strictly (an unknown field or a value of
 * the wrong type is an error naming the file, line, case and field) and written one case a line.
 */
final class CaseLines {
  private CaseLines() {}

  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .withCoercionConfig(
              LogicalType.Textual,
              cfg ->
                  cfg.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
          .build();

  /**
   * The cases of JSON Lines files, in order; blank lines and lines starting with {@code //} are
   * skipped.
   *
   * @throws EvalException naming the file and line of a malformed line, an unknown field, a missing
   *     or wrong schema version, a missing id or question, or a duplicate id
   */
  static List<ResearchEvalCase> read(List<Path> files) {
    var cases = new ArrayList<ResearchEvalCase>();
    var ids = new HashSet<String>();
    for (Path file : files) {
      List<String> lines;
      try {
        lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new EvalException("cannot read case file " + file + ": " + e.getMessage());
      }
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i).strip();
        if (line.isEmpty() || line.startsWith("//")) {
          continue;
        }
        String where = file + ":" + (i + 1);
        ResearchEvalCase c = parse(line, where);
        if (!ids.add(c.id())) {
          throw new EvalException(where + ": duplicate case id '" + c.id() + "'");
        }
        cases.add(c);
      }
    }
    if (cases.isEmpty()) {
      throw new EvalException("no cases in " + files);
    }
    return cases;
  }

  /**
   * One case line; {@code where} names the file and line in errors. Strict: an unknown field, or a
   * field of the wrong type (a string where a number or a list belongs, a number for a string, a
   * fraction for a count) is an error naming the case and the field.
   */
  static ResearchEvalCase parse(String line, String where) {
    JsonNode tree;
    try {
      tree = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new EvalException(where + ": not a JSON case object: " + e.getOriginalMessage());
    }
    if (tree == null || !tree.isObject()) {
      throw new EvalException(where + ": not a JSON case object");
    }
    String at =
        where
            + ":"
            + (tree.path("id").isTextual() ? " case '" + tree.get("id").asText() + "':" : "");
    ResearchEvalCase c;
    try {
      c = JSON.treeToValue(tree, ResearchEvalCase.class);
    } catch (UnrecognizedPropertyException e) {
      throw new EvalException(
          at
              + " unknown field '"
              + e.getPropertyName()
              + "' (a "
              + ResearchEvalCase.SCHEMA_VERSION
              + " case has: "
              + String.join(", ", fieldNames())
              + ")");
    } catch (MismatchedInputException e) {
      String field =
          e.getPath().isEmpty() || e.getPath().get(0).getFieldName() == null
              ? "?"
              : e.getPath().get(0).getFieldName();
      throw new EvalException(
          at
              + " field '"
              + field
              + "' must be "
              + expectedType(field)
              + ", not "
              + describe(tree.get(field)));
    } catch (JsonProcessingException e) {
      throw new EvalException(where + ": not a JSON case object: " + e.getOriginalMessage());
    }
    validate(c, where);
    return c;
  }

  /** The rules a case must keep beyond its fields' types. */
  private static void validate(ResearchEvalCase c, String where) {
    if (!ResearchEvalCase.SCHEMA_VERSION.equals(c.schemaVersion())) {
      throw new EvalException(
          where
              + ": schema_version must be \""
              + ResearchEvalCase.SCHEMA_VERSION
              + "\", not "
              + (c.schemaVersion() == null ? "missing" : "\"" + c.schemaVersion() + "\""));
    }
    if (c.id() == null || c.id().isBlank()) {
      throw new EvalException(where + ": a case needs an \"id\"");
    }
    if (c.question() == null || c.question().isBlank()) {
      throw new EvalException(where + ": case '" + c.id() + "' needs a \"question\"");
    }
    if (c.topN() != null && c.topN() < 1) {
      throw new EvalException(where + ": case '" + c.id() + "': top_n must be at least 1");
    }
    if (c.minRetrievalSignals() != null && c.minRetrievalSignals() < 1) {
      throw new EvalException(
          where + ": case '" + c.id() + "': min_retrieval_signals must be at least 1");
    }
    if (c.plannerDisabled()
        && (c.plannerModel() != null || c.expectPlannerErrorContains() != null)) {
      throw new EvalException(
          where
              + ": case '"
              + c.id()
              + "': disable_planner runs the case without a planner model, so planner_model and"
              + " expect_planner_error_contains can never hold; drop them or disable_planner");
    }
    for (List<String> group : c.expectAnyOf()) {
      if (group.isEmpty()) {
        throw new EvalException(
            where + ": case '" + c.id() + "': every expect_any_of group needs at least one key");
      }
    }
  }

  static String toJsonLine(ResearchEvalCase c) {
    try {
      return JSON.writeValueAsString(c);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What a field's value must be, in words, from its record component's type. */
  private static String expectedType(String field) {
    for (var component : ResearchEvalCase.class.getRecordComponents()) {
      JsonProperty p = component.getAccessor().getAnnotation(JsonProperty.class);
      if (field.equals(p != null ? p.value() : component.getName())) {
        String type = component.getGenericType().getTypeName();
        return switch (type) {
          case "java.lang.String" -> "a string";
          case "java.lang.Boolean" -> "true or false";
          case "java.lang.Integer", "java.lang.Long" -> "a whole number";
          case "java.util.List<java.lang.String>" -> "a list of strings";
          case "java.util.List<java.util.List<java.lang.String>>" ->
              "a list of lists of strings (groups of alternative keys)";
          default -> "of another type";
        };
      }
    }
    return "of another type";
  }

  /** A JSON value in a few words, for an error message. */
  private static String describe(JsonNode value) {
    if (value == null || value.isNull()) {
      return "null";
    }
    String text = value.toString();
    return text.length() > 60 ? text.substring(0, 59) + "…" : text;
  }

  /** The JSON names of a case's fields, in the record's order. */
  static List<String> fieldNames() {
    var names = new ArrayList<String>();
    for (var component : ResearchEvalCase.class.getRecordComponents()) {
      JsonProperty p = component.getAccessor().getAnnotation(JsonProperty.class);
      names.add(p != null ? p.value() : component.getName());
    }
    return names;
  }
}
