package dev.brain.evals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A BEIR-layout folder: {@code corpus.jsonl}, {@code queries.jsonl} and {@code qrels/test.tsv}.
 * Only queries that have test judgments are kept, as BEIR does.
 *
 * @param dir the folder
 * @param queries query id to text, in file order, test queries only
 * @param qrels query id to (doc id to grade)
 */
record BeirDataset(Path dir, Map<String, String> queries, Map<String, Map<String, Integer>> qrels) {

  /** The corpus file of the dataset. */
  Path corpus() {
    return dir.resolve("corpus.jsonl");
  }

  /**
   * Reads a BEIR folder.
   *
   * @throws EvalException if a file is missing or malformed, naming the file and the line
   */
  static BeirDataset load(Path dir) {
    for (var name : new String[] {"corpus.jsonl", "queries.jsonl", "qrels/test.tsv"}) {
      if (!Files.isRegularFile(dir.resolve(name))) {
        throw new EvalException(
            dir
                + " is not a BEIR folder: "
                + name
                + " is missing (expected corpus.jsonl, queries.jsonl and qrels/test.tsv)");
      }
    }
    var qrels = readQrels(dir.resolve("qrels/test.tsv"));
    var queries = readQueries(dir.resolve("queries.jsonl"), qrels);
    return new BeirDataset(dir, queries, qrels);
  }

  private static Map<String, Map<String, Integer>> readQrels(Path file) {
    var qrels = new LinkedHashMap<String, Map<String, Integer>>();
    var lines = readLines(file);
    for (int i = 0; i < lines.length; i++) {
      var line = lines[i].strip();
      if (line.isEmpty() || (i == 0 && line.startsWith("query-id"))) {
        continue;
      }
      var cols = line.split("\t");
      if (cols.length != 3) {
        throw new EvalException(
            file + " line " + (i + 1) + ": expected 3 tab-separated columns, got " + cols.length);
      }
      try {
        qrels
            .computeIfAbsent(cols[0], q -> new HashMap<>())
            .put(cols[1], Integer.parseInt(cols[2].strip()));
      } catch (NumberFormatException e) {
        throw new EvalException(file + " line " + (i + 1) + ": score is not a number: " + cols[2]);
      }
    }
    if (qrels.isEmpty()) {
      throw new EvalException(file + " has no judgments");
    }
    return qrels;
  }

  private static Map<String, String> readQueries(
      Path file, Map<String, Map<String, Integer>> qrels) {
    var mapper = new ObjectMapper();
    var queries = new LinkedHashMap<String, String>();
    var lines = readLines(file);
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      try {
        var node = mapper.readTree(lines[i]);
        var id = node.path("_id").asText();
        if (qrels.containsKey(id)) {
          queries.put(id, node.path("text").asText());
        }
      } catch (IOException e) {
        throw new EvalException(file + " line " + (i + 1) + " is not JSON: " + e.getMessage());
      }
    }
    if (queries.isEmpty()) {
      throw new EvalException(file + " has none of the query ids judged in qrels/test.tsv");
    }
    return queries;
  }

  private static String[] readLines(Path file) {
    try {
      return Files.readString(file).split("\r?\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
