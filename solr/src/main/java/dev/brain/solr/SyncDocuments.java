package dev.brain.solr;

import static dev.brain.index.IndexFields.COLLECTION;
import static dev.brain.index.IndexFields.DOC_TYPE;
import static dev.brain.index.IndexFields.PARENT_KEY;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.index.AttachmentCounts;
import dev.brain.index.CollectionStatus;
import dev.brain.index.SyncReport.FileIssue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * The sync document brain keeps per collection in the Solr collection: its last complete sync's
 * time, file count, attachments and issues (as JSON, capped as the embedded index caps them), and
 * the per-collection status read back from it and the documents' counts.
 */
final class SyncDocuments {

  private static final ObjectMapper JSON = new ObjectMapper();

  private SyncDocuments() {}

  /** Records a collection's last complete sync: file count, attachments counted and issues. */
  static void write(
      SolrStore store,
      String name,
      int files,
      AttachmentCounts attachments,
      List<FileIssue> skipped,
      List<FileIssue> failed,
      List<FileIssue> truncated,
      List<FileIssue> warnings,
      int moreIssues)
      throws IOException {
    store
        .writes()
        .add(
            List.of(
                document(
                    name,
                    files,
                    attachments,
                    skipped,
                    failed,
                    truncated,
                    warnings,
                    moreIssues,
                    Instant.now())));
  }

  /**
   * The sync document of collection {@code name}: each issue list capped at {@link
   * CollectionStatus#MAX_ISSUES}, how many were left off (with {@code moreIssues} left off before),
   * and the attachments, as JSON.
   */
  static SolrInputDocument document(
      String name,
      int files,
      AttachmentCounts attachments,
      List<FileIssue> skipped,
      List<FileIssue> failed,
      List<FileIssue> truncated,
      List<FileIssue> warnings,
      int moreIssues,
      Instant at) {
    var issues = new LinkedHashMap<String, Object>();
    int[] more = {moreIssues};
    issues.put("skipped", cap(skipped, more));
    issues.put("failed", cap(failed, more));
    issues.put("truncated", cap(truncated, more));
    issues.put("warnings", cap(warnings, more));
    var d = new SolrInputDocument();
    String id = SolrDocs.syncId(name);
    d.setField(SolrDocs.ID, id);
    d.setField(DOC_TYPE, SolrDocs.SYNC);
    d.setField(PARENT_KEY, id);
    d.setField(COLLECTION, name);
    d.setField(SolrDocs.FILES, files);
    d.setField(SolrDocs.LAST_SYNC_AT, at.toEpochMilli());
    try {
      issues.put("more", List.of(new CollectionStatus.Issue("", Integer.toString(more[0]))));
      issues.put("attachments", attachments.byExtension());
      d.setField(SolrDocs.ISSUES, JSON.writeValueAsString(issues));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return d;
  }

  private static List<CollectionStatus.Issue> cap(List<FileIssue> issues, int[] more) {
    var out = new ArrayList<CollectionStatus.Issue>();
    for (FileIssue i : issues) {
      if (out.size() < CollectionStatus.MAX_ISSUES) {
        out.add(new CollectionStatus.Issue(i.file().toString(), i.reason()));
      } else {
        more[0]++;
      }
    }
    return out;
  }

  /** Per collection: counts from the documents, the last sync from its sync document. */
  static List<CollectionStatus> collections(SolrStore store) throws IOException {
    Map<String, Long> records = store.facet(COLLECTION, SolrQueries.RECORDS);
    Map<String, Long> chunks = store.facet(COLLECTION, SolrQueries.CHUNKS);
    Map<String, Long> embedded =
        store.facet(COLLECTION, SolrQueries.CHUNKS, SolrDocs.HAS_VECTOR + ":true");
    var syncs = new HashMap<String, SolrDocument>();
    var q = new SolrQuery("*:*");
    q.addFilterQuery(DOC_TYPE + ":" + SolrDocs.SYNC);
    store.each(q, d -> syncs.put(SolrDocs.str(d, COLLECTION), d));
    var names = new TreeSet<>(records.keySet());
    names.addAll(syncs.keySet());
    var out = new ArrayList<CollectionStatus>();
    for (String name : names) {
      out.add(
          status(
              name,
              records.getOrDefault(name, 0L),
              chunks.getOrDefault(name, 0L),
              embedded.getOrDefault(name, 0L),
              syncs.get(name)));
    }
    return out;
  }

  /**
   * A collection's status from its document counts and its sync document ({@code null} before its
   * first complete sync: no files, no time, no issues).
   */
  static CollectionStatus status(
      String name, long records, long chunks, long embedded, SolrDocument sync) {
    JsonNode issues = issues(sync);
    List<CollectionStatus.Issue> more = issueList(issues, "more");
    return new CollectionStatus(
        name,
        records,
        chunks,
        embedded,
        sync == null ? 0 : SolrDocs.integer(sync, SolrDocs.FILES),
        attachments(issues),
        sync == null ? null : Instant.ofEpochMilli(SolrDocs.longValue(sync, SolrDocs.LAST_SYNC_AT)),
        issueList(issues, "skipped"),
        issueList(issues, "failed"),
        issueList(issues, "truncated"),
        issueList(issues, "warnings"),
        more.isEmpty() ? 0 : Integer.parseInt(more.get(0).reason()));
  }

  private static JsonNode issues(SolrDocument sync) {
    String json = sync == null ? null : SolrDocs.str(sync, SolrDocs.ISSUES);
    if (json == null) {
      return JSON.createObjectNode();
    }
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      // written by brain; an unreadable one only loses the issue list
      return JSON.createObjectNode();
    }
  }

  private static List<CollectionStatus.Issue> issueList(JsonNode issues, String kind) {
    var out = new ArrayList<CollectionStatus.Issue>();
    for (JsonNode issue : issues.path(kind)) {
      out.add(
          new CollectionStatus.Issue(issue.path("file").asText(), issue.path("reason").asText()));
    }
    return out;
  }

  /** The attachments counted per extension; none for a sync recorded before they were counted. */
  private static AttachmentCounts attachments(JsonNode issues) {
    var counts = new LinkedHashMap<String, Integer>();
    issues
        .path("attachments")
        .properties()
        .forEach(e -> counts.put(e.getKey(), e.getValue().asInt()));
    return new AttachmentCounts(counts);
  }
}
