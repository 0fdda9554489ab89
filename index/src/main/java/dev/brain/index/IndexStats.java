package dev.brain.index;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an index holds, for {@code brain stats}.
 *
 * @param records number of records
 * @param chunks number of chunks
 * @param embeddedChunks chunks that have their vector; below {@code chunks} while a sync is still
 *     embedding (lexical first) or after one was stopped during embedding
 * @param summarizedRecords records with a summary (their own, or an extractive one)
 * @param summaryCandidates records that should have one: those with a summary of their own and
 *     those long enough for an extractive one ({@link #summaryCoverage()})
 * @param modelSummarizedRecords records whose summary the summary model wrote
 * @param modelSummaryCandidates records the summary model is for: the long ones without a summary
 *     of their own ({@link #modelSummaryCoverage()})
 * @param modelSummaryFailed records whose last model summary attempt failed (they keep the summary
 *     they had, and are tried again)
 * @param modelSummaryFailures some of those, with their reasons (at most {@link #FAILURES_SHOWN})
 * @param byKind record counts by kind, largest first
 * @param bySourceType record counts by source type, largest first
 * @param topTags the most used user tags with their record counts, largest first (at most {@link
 *     #TOP_TAGS})
 * @param distinctTags number of distinct user tags
 * @param created the first and last creation time of the records that have one, or {@code null}
 *     when none has (what a date filter can usefully span)
 * @param sizeBytes size of the index folder on disk
 * @param metadata model, dimension, vector format, schema version and last sync time
 */
public record IndexStats(
    long records,
    long chunks,
    long embeddedChunks,
    long summarizedRecords,
    long summaryCandidates,
    long modelSummarizedRecords,
    long modelSummaryCandidates,
    long modelSummaryFailed,
    List<SummaryFailure> modelSummaryFailures,
    Map<String, Long> byKind,
    Map<String, Long> bySourceType,
    List<TagCount> topTags,
    int distinctTags,
    DateSpan created,
    long sizeBytes,
    IndexMetadata metadata) {

  /** How many failures {@link #modelSummaryFailures()} lists at most. */
  public static final int FAILURES_SHOWN = 5;

  /**
   * A record whose model summary failed.
   *
   * @param key the record
   * @param reason why the last attempt failed
   * @param attempts failed attempts in a row
   * @param retryAt when a sync may try it again
   */
  public record SummaryFailure(String key, String reason, int attempts, Instant retryAt) {}

  /** How many tags {@link #topTags()} lists at most. */
  public static final int TOP_TAGS = 25;

  /**
   * A tag and the number of records carrying it.
   *
   * @param tag the user tag
   * @param count records with the tag
   */
  public record TagCount(String tag, long count) {}

  /**
   * The earliest and latest of a set of times.
   *
   * @param first the earliest
   * @param last the latest, not before {@code first}
   */
  public record DateSpan(Instant first, Instant last) {
    public DateSpan {
      if (first.isAfter(last)) {
        throw new IllegalArgumentException(
            "a date span ends before it starts: " + first + " > " + last);
      }
    }
  }

  public IndexStats {
    byKind = Collections.unmodifiableMap(new LinkedHashMap<>(byKind));
    bySourceType = Collections.unmodifiableMap(new LinkedHashMap<>(bySourceType));
    topTags = List.copyOf(topTags);
    modelSummaryFailures = List.copyOf(modelSummaryFailures);
  }

  /**
   * Share of the records the summary model is for that have a model summary, 0 to 1 (1 when there
   * are none).
   */
  @JsonProperty("model_summary_coverage")
  public double modelSummaryCoverage() {
    return modelSummaryCandidates == 0
        ? 1.0
        : (double) modelSummarizedRecords / modelSummaryCandidates;
  }

  /** Share of chunks with a vector, 0 to 1 (1 for an index without chunks). */
  @JsonProperty("vector_coverage")
  public double vectorCoverage() {
    return chunks == 0 ? 1.0 : (double) embeddedChunks / chunks;
  }

  /**
   * Share of the records that should have a summary that have one, 0 to 1 (1 when none should):
   * below 1 with {@code index.summaries: none}.
   */
  @JsonProperty("summary_coverage")
  public double summaryCoverage() {
    return summaryCandidates == 0 ? 1.0 : (double) summarizedRecords / summaryCandidates;
  }

  /** The embedding model id the index was built with. */
  public String modelId() {
    return metadata.modelId();
  }

  /** When the last complete sync finished, or {@code null}. */
  public Instant lastSyncAt() {
    return metadata.lastSyncAt();
  }
}
