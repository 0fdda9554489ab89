package dev.brain.index;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a collection's last complete sync, kept in the commit user data (key {@code
 * brain.collection.<name>}, a small JSON object) so it changes only with the commit it describes.
 *
 * <p>{@code reading} is what the collection's files were last all read against ({@link
 * FileStates#reading}); only while it holds may a sync trust the files' stamps. {@code null} when
 * unknown (recorded before it was kept).
 */
record CollectionSync(
    String name,
    Instant at,
    int files,
    AttachmentCounts attachments,
    List<CollectionStatus.Issue> skipped,
    List<CollectionStatus.Issue> failed,
    List<CollectionStatus.Issue> truncated,
    List<CollectionStatus.Issue> warnings,
    int moreIssues,
    String reading) {

  /** This outcome at another time. */
  CollectionSync at(Instant time) {
    return new CollectionSync(
        name, time, files, attachments, skipped, failed, truncated, warnings, moreIssues, reading);
  }

  static final String PREFIX = "brain.collection.";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The outcome of syncing {@code collection} from the issues of the whole run (those of files
   * under its root), at most {@link CollectionStatus#MAX_ISSUES} kept: the longest lists lose their
   * last entries first.
   */
  static CollectionSync of(
      CollectionRoot collection,
      Instant at,
      int files,
      AttachmentCounts attachments,
      SyncIssues run,
      String reading) {
    var lists =
        List.of(
            issues(collection, run.skipped()),
            issues(collection, run.failed()),
            issues(collection, run.truncated()),
            issues(collection, run.warnings()));
    int more = 0;
    while (lists.stream().mapToInt(List::size).sum() > CollectionStatus.MAX_ISSUES) {
      lists.stream().max(java.util.Comparator.comparingInt(List::size)).orElseThrow().removeLast();
      more++;
    }
    return new CollectionSync(
        collection.name(),
        at,
        files,
        attachments,
        lists.get(0),
        lists.get(1),
        lists.get(2),
        lists.get(3),
        more,
        reading);
  }

  private static List<CollectionStatus.Issue> issues(
      CollectionRoot collection, List<SyncReport.FileIssue> all) {
    var out = new ArrayList<CollectionStatus.Issue>();
    for (SyncReport.FileIssue issue : all) {
      if (collection.contains(issue.file())) {
        out.add(new CollectionStatus.Issue(DisplayPath.of(issue.file()), issue.reason()));
      }
    }
    return out;
  }

  String userDataKey() {
    return PREFIX + name;
  }

  String toJson() {
    var map = new LinkedHashMap<String, Object>();
    map.put("at", at.toString());
    map.put("files", files);
    map.put("attachments", attachments.byExtension());
    map.put("skipped", skipped);
    map.put("failed", failed);
    map.put("truncated", truncated);
    map.put("warnings", warnings);
    map.put("more_issues", moreIssues);
    if (reading != null) {
      map.put("reading", reading);
    }
    try {
      return JSON.writeValueAsString(map);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every collection's last sync found in commit user data; unreadable entries are left out. */
  static Map<String, CollectionSync> fromUserData(Map<String, String> data) {
    var out = new LinkedHashMap<String, CollectionSync>();
    for (var entry : data.entrySet()) {
      if (!entry.getKey().startsWith(PREFIX)) {
        continue;
      }
      String name = entry.getKey().substring(PREFIX.length());
      try {
        var node = JSON.readTree(entry.getValue());
        out.put(
            name,
            new CollectionSync(
                name,
                Instant.parse(node.path("at").asText()),
                node.path("files").asInt(),
                attachments(node.path("attachments")),
                issues(node.path("skipped")),
                issues(node.path("failed")),
                issues(node.path("truncated")),
                issues(node.path("warnings")),
                node.path("more_issues").asInt(),
                node.path("reading").asText(null)));
      } catch (JsonProcessingException | RuntimeException e) {
        // A damaged entry only loses the status line; the documents are what count.
      }
    }
    return out;
  }

  /** The counts per extension; none when the sync was recorded before attachments were counted. */
  private static AttachmentCounts attachments(com.fasterxml.jackson.databind.JsonNode object) {
    var counts = new LinkedHashMap<String, Integer>();
    object.properties().forEach(e -> counts.put(e.getKey(), e.getValue().asInt()));
    return new AttachmentCounts(counts);
  }

  private static List<CollectionStatus.Issue> issues(
      com.fasterxml.jackson.databind.JsonNode array) {
    var out = new ArrayList<CollectionStatus.Issue>();
    for (var node : array) {
      out.add(new CollectionStatus.Issue(node.path("file").asText(), node.path("reason").asText()));
    }
    return out;
  }
}
