package dev.brain.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;

/** Reads the parts of a BEIR dataset the benchmarks use. */
final class SciFact {
  private SciFact() {}

  static final ObjectMapper JSON = new ObjectMapper();

  /** A corpus line: id, title, text. */
  record Doc(String id, String title, String text) {}

  /** The texts of the test queries (ids in {@code qrels/test.tsv}), in qrels order. */
  static List<String> testQueries(Path dataset) throws IOException {
    var ids = new LinkedHashSet<String>();
    for (String line : Files.readAllLines(dataset.resolve("qrels/test.tsv"))) {
      String[] f = line.split("\t");
      if (f.length >= 3 && !f[0].equals("query-id")) {
        ids.add(f[0]);
      }
    }
    var texts = new HashMap<String, String>();
    for (String line : Files.readAllLines(dataset.resolve("queries.jsonl"))) {
      if (!line.isBlank()) {
        JsonNode n = JSON.readTree(line);
        texts.put(n.get("_id").asText(), n.get("text").asText());
      }
    }
    var out = new ArrayList<String>(ids.size());
    for (String id : ids) {
      String text = texts.get(id);
      if (text == null) {
        throw new IOException("query " + id + " of qrels/test.tsv is missing from queries.jsonl");
      }
      out.add(text.strip());
    }
    return out;
  }

  /** The raw JSON lines of the first {@code limit} corpus documents. */
  static List<String> corpusLines(Path dataset, int limit) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(dataset.resolve("corpus.jsonl"))) {
      return in.lines().filter(l -> !l.isBlank()).limit(limit).toList();
    }
  }

  /** The first {@code limit} corpus documents. */
  static List<Doc> corpus(Path dataset, int limit) throws IOException {
    var docs = new ArrayList<Doc>();
    for (String line : corpusLines(dataset, limit)) {
      JsonNode n = JSON.readTree(line);
      docs.add(new Doc(n.get("_id").asText(), n.path("title").asText(""), n.get("text").asText()));
    }
    return docs;
  }
}
