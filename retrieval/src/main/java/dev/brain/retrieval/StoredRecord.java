package dev.brain.retrieval;

import dev.brain.index.CorpusRecord;
import java.time.Instant;
import java.util.List;

/**
 * A record's stored fields, as rows need them: what a {@link Backend} returns for a key.
 *
 * @param key record key
 * @param kind {@code item} or {@code source}
 * @param sourceType {@code note}, {@code pdf}, ...
 * @param title title, or null
 * @param aliases other names of the record
 * @param url URL, or null
 * @param path vault-relative note path, or null
 * @param tags user tags
 * @param createdAt creation time, or null
 * @param publishedAt publication time, or null
 * @param rawText the record's text
 * @param summary its summary, or null
 * @param links keys of the records it links to
 */
public record StoredRecord(
    String key,
    String kind,
    String sourceType,
    String title,
    List<String> aliases,
    String url,
    String path,
    List<String> tags,
    Instant createdAt,
    Instant publishedAt,
    String rawText,
    String summary,
    List<String> links) {

  /** The fields rows need of a record decoded from its stored document. */
  public static StoredRecord of(CorpusRecord r) {
    return new StoredRecord(
        r.key(),
        r.kind(),
        r.sourceType(),
        r.title(),
        r.aliases(),
        r.url(),
        r.path(),
        r.tags(),
        r.createdAt(),
        r.publishedAt(),
        r.text(),
        r.summary(),
        r.links());
  }

  /** The text a chunk of {@code role} indexes: the summary for summary chunks, else raw text. */
  String textFor(String role) {
    return "summary".equals(role) && summary != null ? summary : rawText;
  }
}
