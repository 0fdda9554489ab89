package dev.brain.research.note;

import java.util.List;

/**
 * What a note research run did ({@code note_research.v1}).
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}
 * @param path the note's real path
 * @param key the note's record key, {@code note:<collection>/<path>}
 * @param depth {@code shallow} or {@code deep}
 * @param focus the focus asked for, or {@code null}
 * @param topicSource {@code model} or {@code deterministic}
 * @param synthesizer {@code extractive} or the model id that wrote the section
 * @param topics the topics researched (at most {@value NoteResearcher#MAX_TOPICS})
 * @param topicsResearched how many topics were researched: the size of {@code topics}
 * @param research per topic: the question asked, the sources found, what failed
 * @param section the {@code ## Research} section, heading included
 * @param preview the section's first {@value #PREVIEW_CHARS} characters (all of it when shorter)
 * @param written whether the note file was changed
 * @param dryRun whether this was a dry run
 * @param reindex {@code done}, or why the note was not re-indexed
 * @param traceId the trace's run id, or {@code null} when none was written
 * @param truncatedChars characters of the note beyond the 200,000 read for topics (0 if none)
 * @param skipped what failed and was left out (topics, searches, pages), in words
 */
public record NoteResult(
    String schemaVersion,
    String path,
    String key,
    String depth,
    String focus,
    String topicSource,
    String synthesizer,
    List<Topic> topics,
    int topicsResearched,
    List<TopicReport> research,
    String section,
    String preview,
    boolean written,
    boolean dryRun,
    String reindex,
    String traceId,
    long truncatedChars,
    List<String> skipped) {

  /** The schema version of this shape. */
  public static final String SCHEMA_VERSION = "note_research.v1";

  /** Characters of the section in {@link #preview()}. */
  public static final int PREVIEW_CHARS = 500;

  /**
   * The first {@value #PREVIEW_CHARS} characters of {@code section}, never half a surrogate pair.
   */
  static String preview(String section) {
    if (section.length() <= PREVIEW_CHARS) {
      return section;
    }
    int end = PREVIEW_CHARS;
    if (Character.isHighSurrogate(section.charAt(end - 1))) {
      end--;
    }
    return section.substring(0, end);
  }

  /**
   * The research of one topic.
   *
   * @param topic the topic label
   * @param query the question asked of the corpus and the web
   * @param sources what was found, best first
   * @param failures what failed for this topic (empty when nothing did)
   */
  public record TopicReport(
      String topic, String query, List<Source> sources, List<String> failures) {}

  /**
   * One source found for a topic.
   *
   * @param kind {@code note} (a note of the user's, cited as a wikilink), {@code corpus} (another
   *     record of the corpus) or {@code web}
   * @param key the record key ({@code null} for web results)
   * @param title the title
   * @param url the URL, or {@code null}
   * @param link the wikilink target of a note ({@code null} otherwise)
   * @param excerpt the passage or snippet used
   */
  public record Source(
      String kind, String key, String title, String url, String link, String excerpt) {}
}
