package dev.brain.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Questions about a folder of documents, one JSON object a line: {@code {"id", "q", "expect",
 * "fact"}}. {@code expect} lists the file names that answer the question (the first is the main
 * one) and {@code fact} a short phrase a correct answer states; an empty {@code expect} marks a
 * question the documents cannot answer, which a good answer declines.
 */
final class DocumentQuestions {
  private DocumentQuestions() {}

  private static final Set<String> FIELDS = Set.of("id", "q", "expect", "fact");

  /**
   * One question.
   *
   * @param id unique among the questions read together
   * @param question the question as a user types it
   * @param expect file names of the documents that answer it; empty when none does
   * @param fact what a correct answer states (case-insensitive), or empty for an unanswerable one
   */
  record Question(String id, String question, List<String> expect, String fact) {

    Question {
      expect = List.copyOf(expect);
    }

    /** Whether the documents answer this question. */
    boolean answerable() {
      return !expect.isEmpty();
    }
  }

  /**
   * The questions of {@code files}, in file order.
   *
   * @throws EvalException naming the file, the line and what is wrong with it
   */
  static List<Question> read(List<Path> files) {
    var mapper = new ObjectMapper();
    var out = new ArrayList<Question>();
    var ids = new HashSet<String>();
    for (Path file : files) {
      List<String> lines = lines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).isBlank()) {
          continue;
        }
        String where = file + " line " + (i + 1);
        Question q = parse(mapper, lines.get(i), where);
        if (!ids.add(q.id())) {
          throw new EvalException(where + ": the id " + q.id() + " is used twice");
        }
        out.add(q);
      }
    }
    if (out.isEmpty()) {
      throw new EvalException("no questions in " + files);
    }
    return out;
  }

  private static Question parse(ObjectMapper mapper, String line, String where) {
    JsonNode node;
    try {
      node = mapper.readTree(line);
    } catch (IOException e) {
      throw new EvalException(where + " is not JSON: " + e.getMessage());
    }
    if (!node.isObject()) {
      throw new EvalException(where + " is not a JSON object");
    }
    node.fieldNames()
        .forEachRemaining(
            f -> {
              if (!FIELDS.contains(f)) {
                throw new EvalException(where + ": unknown field " + f + "; known: " + FIELDS);
              }
            });
    String id = text(node, "id", where);
    String q = text(node, "q", where);
    JsonNode expect = node.path("expect");
    if (!expect.isArray()) {
      throw new EvalException(where + ": expect must be a list of file names ([] if none)");
    }
    var files = new ArrayList<String>();
    expect.forEach(e -> files.add(e.asText()));
    String fact = node.path("fact").asText("");
    if (!files.isEmpty() && fact.isBlank()) {
      throw new EvalException(where + ": an answerable question needs the fact its answer states");
    }
    return new Question(id, q, files, fact.strip());
  }

  private static String text(JsonNode node, String field, String where) {
    String value = node.path(field).asText("");
    if (value.isBlank()) {
      throw new EvalException(where + ": " + field + " is missing or empty");
    }
    return value;
  }

  private static List<String> lines(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new EvalException("no questions file " + file);
    }
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
