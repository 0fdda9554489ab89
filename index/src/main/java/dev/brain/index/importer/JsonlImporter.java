package dev.brain.index.importer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.index.CorpusRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Reads JSON Lines, one record per line, streaming. Two shapes are understood: BEIR corpus lines
 * {@code {"_id", "title", "text", "metadata"}} and generic lines with {@code key} (or {@code url}),
 * {@code title}, {@code text}, {@code summary} (indexed as the record's summary chunk), {@code
 * url}, {@code tags}, {@code author}, {@code created_at}, {@code published_at}. Every line becomes
 * {@code doc:<id>}, kind {@code source}, source type {@code doc}: such files are collections of
 * documents, not things the user wrote. A whole-number {@code _id} or {@code key} is the same id as
 * its decimal string ({@code 5} and {@code "5"} are both {@code doc:5}), as BEIR qrels write ids as
 * strings. Bad lines (text after the object, a field named twice, ...) are skipped with a warning;
 * the file is malformed only when no line is a record. A line without {@code created_at} has none:
 * the file's modification time would change every record of the file whenever one line changes.
 */
final class JsonlImporter {

  /** Warnings kept per file; the rest are counted, so a broken export cannot flood the report. */
  static final int MAX_WARNINGS = 20;

  /** A field named twice in one line is refused: which value would count is a guess. */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private JsonlImporter() {}

  static ImportResult read(SourceFile file) throws ImportException {
    file.requireText(file.head());
    var records = new ArrayList<CorpusRecord>();
    var problems = new ArrayList<String>();
    var keys = new HashSet<String>();
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(Files.newInputStream(file.file()), StandardCharsets.UTF_8))) {
      int lineNumber = 0;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNumber++;
        if (line.isBlank()) {
          continue;
        }
        String where = file.relativePath() + ":" + lineNumber + ": ";
        try {
          CorpusRecord record = record(oneValue(line), file);
          if (keys.add(record.key())) {
            records.add(record);
          } else {
            problems.add(where + "skipped: key " + record.key() + " was already used above");
          }
        } catch (StreamConstraintsException e) {
          problems.add(where + "skipped: " + overLimit(e));
        } catch (JsonProcessingException e) {
          problems.add(where + "not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (BadLine e) {
          problems.add(where + e.getMessage());
        }
      }
    } catch (IOException e) {
      throw file.unreadable(e);
    }
    if (records.isEmpty() && !problems.isEmpty()) {
      throw ImportException.malformed(
          file.file(),
          "no line of "
              + file.file()
              + " is a record; first problem: "
              + problems.get(0)
              + ". Each line must be a JSON object with \"_id\" or \"key\" and \"text\"",
          null);
    }
    return new ImportResult(records, capped(problems));
  }

  /**
   * A line over one of Jackson's safety limits, in words: "JSON nested deeper than 1000 levels",
   * never the name of the Java method that sets the limit.
   */
  private static String overLimit(StreamConstraintsException e) {
    String message = e.getOriginalMessage();
    if (message.contains("nesting depth")) {
      return "JSON nested deeper than "
          + JSON.getFactory().streamReadConstraints().getMaxNestingDepth()
          + " levels";
    }
    return message.replaceAll(",? from `[^`]*`", "");
  }

  /**
   * The one JSON value of a line; text after it (a second object, stray characters) makes the line
   * bad rather than silently ignored.
   */
  private static JsonNode oneValue(String line) throws IOException, BadLine {
    try (JsonParser parser = JSON.createParser(line)) {
      JsonNode node = JSON.readTree(parser);
      long end = parser.currentLocation().getCharOffset();
      boolean more;
      try {
        more = parser.nextToken() != null;
      } catch (JsonProcessingException e) {
        more = true;
      }
      if (more) {
        throw new BadLine(
            "skipped: text after the JSON value (from column "
                + (end + 1)
                + "); a line holds one JSON object");
      }
      return node;
    }
  }

  private static CorpusRecord record(JsonNode node, SourceFile file) throws BadLine {
    if (!node.isObject()) {
      throw new BadLine("skipped: a line must be a JSON object");
    }
    requireType(node, "_id", true);
    requireType(node, "key", true);
    requireType(node, "url", false);
    requireType(node, "title", false);
    requireType(node, "text", false);
    requireType(node, "summary", false);
    String url = string(node, "url");
    String id = string(node, "_id");
    if (id == null) {
      id = string(node, "key");
    }
    if (id == null && Keys.isWebUrl(url)) {
      id = Keys.hash12(Keys.canonicalUrl(url));
    }
    if (id == null) {
      throw new BadLine("skipped: no \"_id\", \"key\" or \"url\" to key the record by");
    }
    String title = string(node, "title");
    String text = string(node, "text");
    if (text == null && title == null) {
      throw new BadLine("skipped: no \"text\" or \"title\"");
    }
    return CorpusRecord.builder(
            id.startsWith("doc:") ? id : Keys.doc(id),
            CorpusRecord.KIND_SOURCE,
            "doc",
            text != null ? text : title)
        .title(title)
        .url(Keys.isWebUrl(url) ? Keys.canonicalUrl(url) : null)
        .author(string(node, "author"))
        .tags(Tags.normalizeAll(tags(node.get("tags"))))
        .createdAt(Dates.parse(string(node, "created_at")))
        .publishedAt(Dates.parse(string(node, "published_at")))
        .summary(string(node, "summary"))
        .origin(file.origin())
        .build();
  }

  /** A present field of another type than a string (or a whole number for ids) is a bad line. */
  private static void requireType(JsonNode node, String field, boolean idLike) throws BadLine {
    JsonNode value = node.get(field);
    if (value == null || value.isNull() || value.isTextual()) {
      return;
    }
    if (idLike && value.isIntegralNumber()) {
      return;
    }
    throw new BadLine(
        "skipped: \""
            + field
            + "\" must be a string"
            + (idLike ? " or a whole number" : "")
            + ", got "
            + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
  }

  /** A text or number field as a string; null when absent, null or blank. */
  private static String string(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !(value.isTextual() || value.isNumber())) {
      return null;
    }
    String s = value.asText();
    return s.isBlank() ? null : s;
  }

  private static List<String> tags(JsonNode tags) {
    if (tags == null) {
      return List.of();
    }
    if (tags.isTextual()) {
      return List.of(tags.asText().split(","));
    }
    var out = new ArrayList<String>();
    tags.forEach(t -> out.add(t.asText()));
    return out;
  }

  private static List<String> capped(List<String> problems) {
    if (problems.size() <= MAX_WARNINGS) {
      return problems;
    }
    var out = new ArrayList<>(problems.subList(0, MAX_WARNINGS));
    out.add("... and " + (problems.size() - MAX_WARNINGS) + " more lines skipped");
    return out;
  }

  /** A line that is JSON but not a record; its message is the warning. */
  private static final class BadLine extends Exception {
    private static final long serialVersionUID = 1L;

    BadLine(String message) {
      super(message, null, false, false);
    }
  }
}
