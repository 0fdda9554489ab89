package dev.brain.index;

import com.fasterxml.jackson.annotation.JsonValue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code brain status} shows: per collection its root, files, records, chunks, vector
 * coverage, last sync and the files it skipped or could not read, and whether a watcher follows it;
 * plus the index totals.
 *
 * @param index the index folder
 * @param state whether the index has a commit to show; before the first one every count is 0 and
 *     each configured collection is listed as never synced
 * @param records records in the index
 * @param chunks chunks in the index
 * @param embeddedChunks chunks with their vector
 * @param vectorCoverage {@code embeddedChunks / chunks} (1 without chunks)
 * @param summarizedRecords records with a summary (their own or an extractive one)
 * @param summaryCandidates records that should have one ({@link IndexStats#summaryCandidates()})
 * @param summaryCoverage {@code summarizedRecords / summaryCandidates} (1 when none should): below
 *     1 with {@code index.summaries: none}, or while records synced before summaries wait for their
 *     next sync
 * @param summaryModel the summary model ({@code index.summary-model}), or {@code null} for none
 * @param modelSummarizedRecords records whose summary the summary model wrote
 * @param modelSummaryCandidates records the summary model is for ({@link
 *     IndexStats#modelSummaryCandidates()})
 * @param modelSummaryCoverage {@code modelSummarizedRecords / modelSummaryCandidates} (1 when none
 *     are): below 1 while records wait for their model summary (made after their vectors) or failed
 * @param modelSummaryFailed records whose last model summary attempt failed; they keep the summary
 *     they had and are tried again by a later sync, with back-off
 * @param modelSummaryFailures some of those with their reasons
 * @param lastSyncAt when the last complete sync finished, or {@code null}
 * @param watching whether a watcher ({@code brain watch}, {@code brain serve --watch}) follows the
 *     collections
 * @param collections the collections of {@code brain.yaml}, then any others the index holds
 */
public record IndexStatus(
    String index,
    State state,
    long records,
    long chunks,
    long embeddedChunks,
    double vectorCoverage,
    long summarizedRecords,
    long summaryCandidates,
    double summaryCoverage,
    String summaryModel,
    long modelSummarizedRecords,
    long modelSummaryCandidates,
    double modelSummaryCoverage,
    long modelSummaryFailed,
    List<IndexStats.SummaryFailure> modelSummaryFailures,
    Instant lastSyncAt,
    boolean watching,
    List<Collection> collections) {

  /** Whether there is an index to describe. */
  public enum State {
    /** The index has a commit: the counts are what it holds. */
    INDEXED,
    /** Nothing was indexed into this data directory yet (no index folder). */
    NO_INDEX,
    /**
     * The index folder exists but holds no commit, or only the empty one an index makes when it is
     * created (no record, no finished sync): the first sync is still running, or it was stopped
     * (killed) before its first commit; running {@code brain index} again completes it.
     */
    NOT_COMMITTED;

    /** The lower-case wire name: {@code indexed}, {@code no_index}, {@code not_committed}. */
    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One collection.
   *
   * @param name its name
   * @param root its folder, or {@code null} when the index holds records of a collection that
   *     {@code brain.yaml} does not name (removed by hand, or indexed by a program)
   * @param rootExists whether the folder exists
   * @param files files its last complete sync looked at (not attachments)
   * @param attachments attachments its last complete sync counted and did not read, per extension
   * @param records its records
   * @param chunks their chunks
   * @param embeddedChunks chunks with their vector
   * @param vectorCoverage {@code embeddedChunks / chunks} (1 without chunks)
   * @param lastSyncAt when its last complete sync finished, or {@code null} for never
   * @param skipped files its last sync skipped, with reasons
   * @param failed files its last sync could not read, with reasons
   * @param truncated records its last sync indexed with their first chunks only, with reasons
   * @param warnings parts of files its last sync left out, with reasons
   * @param moreIssues issues beyond those listed
   * @param watching whether a watcher follows it
   * @param obsidianVault the Obsidian vault name when the root is a vault (holds {@code
   *     .obsidian/}), for {@code obsidian://open?vault=...&file=...} links to its notes; else
   *     {@code null}
   */
  public record Collection(
      String name,
      String root,
      boolean rootExists,
      int files,
      AttachmentCounts attachments,
      long records,
      long chunks,
      long embeddedChunks,
      double vectorCoverage,
      Instant lastSyncAt,
      List<CollectionStatus.Issue> skipped,
      List<CollectionStatus.Issue> failed,
      List<CollectionStatus.Issue> truncated,
      List<CollectionStatus.Issue> warnings,
      int moreIssues,
      boolean watching,
      String obsidianVault) {}

  /**
   * The status of {@code index} for the configured collections.
   *
   * @param watching whether a watcher follows the configured collections
   */
  public static IndexStatus of(CorpusStore index, List<CollectionRoot> configured, boolean watching)
      throws IOException {
    IndexStats stats = index.stats();
    List<CollectionStatus> synced = index.collections();
    if (stats.records() == 0 && stats.lastSyncAt() == null && synced.isEmpty()) {
      // Only the empty commit an index makes when it is created: its first sync still runs, or
      // was killed before committing anything.
      return notCommitted(
          index.location(), State.NOT_COMMITTED, configured, watching, index.config());
    }
    Map<String, CollectionStatus> byName = new HashMap<>();
    for (CollectionStatus s : synced) {
      byName.put(s.name(), s);
    }
    var out = new ArrayList<Collection>();
    for (CollectionRoot c : configured) {
      CollectionStatus s = byName.remove(c.name());
      out.add(entry(c.name(), c.root(), s, watching));
    }
    byName.values().stream()
        .sorted(java.util.Comparator.comparing(CollectionStatus::name))
        .forEach(s -> out.add(entry(s.name(), null, s, false)));
    return new IndexStatus(
        index.location(),
        State.INDEXED,
        stats.records(),
        stats.chunks(),
        stats.embeddedChunks(),
        stats.vectorCoverage(),
        stats.summarizedRecords(),
        stats.summaryCandidates(),
        stats.summaryCoverage(),
        summaryModel(index.config()),
        stats.modelSummarizedRecords(),
        stats.modelSummaryCandidates(),
        stats.modelSummaryCoverage(),
        stats.modelSummaryFailed(),
        stats.modelSummaryFailures(),
        stats.lastSyncAt(),
        watching,
        out);
  }

  /**
   * The status of a data directory whose index has no commit yet ({@link BrainIndex#hasCommit}
   * false): no counts, and the configured collections as never synced.
   */
  public static IndexStatus beforeFirstCommit(IndexConfig config, List<CollectionRoot> configured) {
    State state = Files.isDirectory(config.directory()) ? State.NOT_COMMITTED : State.NO_INDEX;
    return notCommitted(config.directory().toString(), state, configured, false, config);
  }

  private static IndexStatus notCommitted(
      String location,
      State state,
      List<CollectionRoot> configured,
      boolean watching,
      IndexConfig config) {
    var out = new ArrayList<Collection>();
    for (CollectionRoot c : configured) {
      out.add(entry(c.name(), c.root(), null, watching));
    }
    return new IndexStatus(
        location,
        state,
        0,
        0,
        0,
        1.0,
        0,
        0,
        1.0,
        summaryModel(config),
        0,
        0,
        1.0,
        0,
        List.of(),
        null,
        watching,
        out);
  }

  private static String summaryModel(IndexConfig config) {
    return config.summaryModel() == null ? null : config.summaryModel().spec();
  }

  private static Collection entry(String name, Path root, CollectionStatus s, boolean watching) {
    if (s == null) {
      s =
          new CollectionStatus(
              name,
              0,
              0,
              0,
              0,
              AttachmentCounts.NONE,
              null,
              List.of(),
              List.of(),
              List.of(),
              List.of(),
              0);
    }
    return new Collection(
        name,
        root == null ? null : root.toString(),
        root != null && Files.isDirectory(root),
        s.files(),
        s.attachments(),
        s.records(),
        s.chunks(),
        s.embeddedChunks(),
        s.vectorCoverage(),
        s.lastSyncAt(),
        s.skipped(),
        s.failed(),
        s.truncated(),
        s.warnings(),
        s.moreIssues(),
        watching && root != null,
        obsidianVault(root));
  }

  /** The vault name Obsidian knows a folder by (its name) if it holds {@code .obsidian/}. */
  public static String obsidianVault(Path root) {
    if (root == null || !Files.isDirectory(root.resolve(".obsidian"))) {
      return null;
    }
    Path name = root.getFileName();
    return name == null ? null : name.toString();
  }
}
