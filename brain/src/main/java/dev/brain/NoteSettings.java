package dev.brain;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * {@code note.*}: note research ({@code brain note research}). Local first: without a web search
 * URL only the corpus is researched.
 *
 * @param webSearchUrl a SearxNG-compatible JSON search endpoint (asked as {@code
 *     URL?q=...&format=json}); default none. Env {@code BRAIN_NOTE_WEB_SEARCH_URL}
 * @param concurrency topics researched at once; default 4
 * @param pageTimeout time per fetched page in deep mode; default 10s
 */
public record NoteSettings(URI webSearchUrl, int concurrency, Duration pageTimeout) {
  public NoteSettings {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be positive, got " + concurrency);
    }
    Objects.requireNonNull(pageTimeout, "pageTimeout");
  }

  /** The {@code note.*} values of {@code r}: flag, environment, file or default. */
  static NoteSettings read(ConfigReader r) {
    String url =
        r.checked(
            "note.web-search-url",
            "BRAIN_NOTE_WEB_SEARCH_URL",
            null,
            ConfigValues::httpUrl,
            "an http:// or https:// URL of a SearxNG-compatible JSON search endpoint");
    return new NoteSettings(
        url == null ? null : URI.create(url),
        r.integer("note.concurrency", null, 4, 1, 64),
        r.duration(
            "note.page-timeout",
            null,
            Duration.ofSeconds(10),
            Duration.ofMillis(1),
            ConfigValues.MAX_RUN));
  }
}
