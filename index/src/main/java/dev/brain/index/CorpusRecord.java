package dev.brain.index;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * One thing the user saved: a note, a bookmark, a feed entry, a web page, a PDF, a transcript. The
 * raw {@code text} is never rewritten; {@code summary} is derived and optional. Optional fields are
 * {@code null} when unknown.
 *
 * @param key stable prefixed key ({@code note:}, {@code src:}, {@code bm:}, {@code feed-entry:},
 *     {@code doc:})
 * @param kind {@code item} (saved or written by the user) or {@code source} (a linked document)
 * @param sourceType {@code note}, {@code bookmark}, {@code web}, {@code pdf}, {@code feed_entry},
 *     {@code transcript}, {@code doc}, ...
 * @param title display title
 * @param url canonical URL, if any
 * @param path vault-relative note path, if the record is a note
 * @param author author or channel, if known
 * @param tags user tags, lower-case, multi-word tags hyphenated
 * @param createdAt when the user created or saved it
 * @param publishedAt when the source was published
 * @param text raw text
 * @param summary derived summary, or {@code null}
 * @param links keys of records this one links to
 * @param origin the file the record was imported from (absolute, normalized); removing the file
 *     removes its records on the next sync
 * @param aliases other names of the record (a note's front-matter {@code aliases}), searchable like
 *     its title
 * @param updatedAt when the user last changed it (a note's front-matter {@code updated}, else the
 *     file time of a file's record), or {@code null} when unknown
 * @param dateSource where {@code createdAt} came from: {@value #DATE_FRONT_MATTER_CREATED}, {@value
 *     #DATE_FRONT_MATTER_DATE} or {@value #DATE_FILE_TIME}; {@code null} when unknown (records
 *     indexed before dates carried their source, and importers that do not say)
 */
public record CorpusRecord(
    String key,
    String kind,
    String sourceType,
    String title,
    String url,
    String path,
    String author,
    List<String> tags,
    Instant createdAt,
    Instant publishedAt,
    String text,
    String summary,
    List<String> links,
    String origin,
    List<String> aliases,
    Instant updatedAt,
    String dateSource) {

  /** Kind of a record the user saved or wrote. */
  public static final String KIND_ITEM = "item";

  /** Kind of a linked document (web page, PDF, transcript). */
  public static final String KIND_SOURCE = "source";

  /** {@link #dateSource()} of a date from a note's front-matter {@code created}. */
  public static final String DATE_FRONT_MATTER_CREATED = "front_matter:created";

  /** {@link #dateSource()} of a date from a note's front-matter {@code date}. */
  public static final String DATE_FRONT_MATTER_DATE = "front_matter:date";

  /** {@link #dateSource()} of a date taken from the file's modification time. */
  public static final String DATE_FILE_TIME = "file_time";

  public CorpusRecord {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(sourceType, "sourceType");
    Objects.requireNonNull(text, "text");
    tags = tags == null ? List.of() : List.copyOf(tags);
    links = links == null ? List.of() : List.copyOf(links);
    aliases = aliases == null ? List.of() : List.copyOf(aliases);
  }

  /**
   * A builder of a record with the four required fields; every optional field starts unset ({@code
   * null}, or empty for the lists).
   */
  public static Builder builder(String key, String kind, String sourceType, String text) {
    return new Builder(key, kind, sourceType, text);
  }

  /** Collects a record's optional fields by name; {@link #build()} makes the record. */
  public static final class Builder {
    private final String key;
    private final String kind;
    private final String sourceType;
    private final String text;
    private String title;
    private String url;
    private String path;
    private String author;
    private List<String> tags;
    private Instant createdAt;
    private Instant publishedAt;
    private String summary;
    private List<String> links;
    private String origin;
    private List<String> aliases;
    private Instant updatedAt;
    private String dateSource;

    private Builder(String key, String kind, String sourceType, String text) {
      this.key = key;
      this.kind = kind;
      this.sourceType = sourceType;
      this.text = text;
    }

    /** Sets {@link CorpusRecord#title()}. */
    public Builder title(String title) {
      this.title = title;
      return this;
    }

    /** Sets {@link CorpusRecord#url()}. */
    public Builder url(String url) {
      this.url = url;
      return this;
    }

    /** Sets {@link CorpusRecord#path()}. */
    public Builder path(String path) {
      this.path = path;
      return this;
    }

    /** Sets {@link CorpusRecord#author()}. */
    public Builder author(String author) {
      this.author = author;
      return this;
    }

    /** Sets {@link CorpusRecord#tags()}. */
    public Builder tags(List<String> tags) {
      this.tags = tags;
      return this;
    }

    /** Sets {@link CorpusRecord#createdAt()}. */
    public Builder createdAt(Instant createdAt) {
      this.createdAt = createdAt;
      return this;
    }

    /** Sets {@link CorpusRecord#publishedAt()}. */
    public Builder publishedAt(Instant publishedAt) {
      this.publishedAt = publishedAt;
      return this;
    }

    /** Sets {@link CorpusRecord#summary()}. */
    public Builder summary(String summary) {
      this.summary = summary;
      return this;
    }

    /** Sets {@link CorpusRecord#links()}. */
    public Builder links(List<String> links) {
      this.links = links;
      return this;
    }

    /** Sets {@link CorpusRecord#origin()}. */
    public Builder origin(String origin) {
      this.origin = origin;
      return this;
    }

    /** Sets {@link CorpusRecord#aliases()}. */
    public Builder aliases(List<String> aliases) {
      this.aliases = aliases;
      return this;
    }

    /** Sets {@link CorpusRecord#updatedAt()}. */
    public Builder updatedAt(Instant updatedAt) {
      this.updatedAt = updatedAt;
      return this;
    }

    /** Sets {@link CorpusRecord#dateSource()}. */
    public Builder dateSource(String dateSource) {
      this.dateSource = dateSource;
      return this;
    }

    /** The record; fails if a required field is {@code null}. */
    public CorpusRecord build() {
      return new CorpusRecord(
          key,
          kind,
          sourceType,
          title,
          url,
          path,
          author,
          tags,
          createdAt,
          publishedAt,
          text,
          summary,
          links,
          origin,
          aliases,
          updatedAt,
          dateSource);
    }
  }

  /** This record with {@code origin} as the file it came from. */
  public CorpusRecord withOrigin(String origin) {
    return toBuilder().origin(origin).build();
  }

  /** This record with {@code summary} as its summary ({@code null}: none). */
  public CorpusRecord withSummary(String summary) {
    return toBuilder().summary(summary).build();
  }

  /** A builder holding every field of this record. */
  private Builder toBuilder() {
    return builder(key, kind, sourceType, text)
        .title(title)
        .url(url)
        .path(path)
        .author(author)
        .tags(tags)
        .createdAt(createdAt)
        .publishedAt(publishedAt)
        .summary(summary)
        .links(links)
        .origin(origin)
        .aliases(aliases)
        .updatedAt(updatedAt)
        .dateSource(dateSource);
  }

  /**
   * Hex sha-256 over every field that affects what is indexed. Equal hashes mean the record can be
   * skipped on re-sync.
   */
  public String contentHash() {
    var fields =
        List.of(
            key,
            kind,
            sourceType,
            str(title),
            str(url),
            str(path),
            str(author),
            String.join("\u001f", tags),
            str(createdAt),
            str(publishedAt),
            text,
            str(summary),
            String.join("\u001f", links),
            str(origin),
            String.join("\u001f", aliases));
    if (updatedAt == null && dateSource == null) {
      // Records without the two later fields keep the hash they were indexed with.
      return sha256(String.join("\u001e", fields));
    }
    return sha256(
        String.join("\u001e", fields) + "\u001e" + str(updatedAt) + "\u001e" + str(dateSource));
  }

  private static String str(Object o) {
    return o == null ? "" : o.toString();
  }

  /** Hex sha-256 of a string's UTF-8 bytes. */
  public static String sha256(String s) {
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
