package dev.brain.index;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedNumericDocValues;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;

/** Counts records by kind, source type and tag from doc values, for {@link IndexStats}. */
final class StatsCollector {
  private final Map<String, Long> byKind = new HashMap<>();
  private final Map<String, Long> bySourceType = new HashMap<>();
  private final Map<String, Long> byTag = new HashMap<>();
  private long records;
  private long summarized;
  private long summaryCandidates;
  private long modelSummarized;
  private long modelCandidates;
  private long modelFailed;
  private final List<IndexStats.SummaryFailure> failures = new ArrayList<>();
  private long firstCreated = Long.MAX_VALUE;
  private long lastCreated = Long.MIN_VALUE;

  static IndexStats collect(IndexSearcher searcher, Path directory, IndexMetadata metadata)
      throws IOException {
    var collector = new StatsCollector();
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      collector.addLeaf(leaf.reader());
    }
    long chunks = searcher.count(IndexReads.chunksQuery());
    long embedded = searcher.count(IndexReads.embeddedChunksQuery());
    List<IndexStats.TagCount> topTags =
        sorted(collector.byTag).entrySet().stream()
            .limit(IndexStats.TOP_TAGS)
            .map(e -> new IndexStats.TagCount(e.getKey(), e.getValue()))
            .toList();
    return new IndexStats(
        collector.records,
        chunks,
        embedded,
        collector.summarized,
        collector.summaryCandidates,
        collector.modelSummarized,
        collector.modelCandidates,
        collector.modelFailed,
        collector.failures,
        sorted(collector.byKind),
        sorted(collector.bySourceType),
        topTags,
        collector.byTag.size(),
        collector.createdSpan(),
        sizeOnDisk(directory),
        metadata);
  }

  private void addLeaf(LeafReader reader) throws IOException {
    Bits live = reader.getLiveDocs();
    // Only record documents carry KEY, so its doc values enumerate exactly the records.
    SortedSetDocValues keys = DocValues.getSortedSet(reader, IndexFields.KEY);
    SortedSetDocValues kinds = DocValues.getSortedSet(reader, IndexFields.KIND);
    SortedSetDocValues sourceTypes = DocValues.getSortedSet(reader, IndexFields.SOURCE_TYPE);
    SortedSetDocValues tags = DocValues.getSortedSet(reader, IndexFields.TAGS);
    SortedNumericDocValues created = DocValues.getSortedNumeric(reader, IndexFields.CREATED_AT);
    SortedSetDocValues summaries = DocValues.getSortedSet(reader, IndexFields.SUMMARY_SOURCE);
    SortedSetDocValues failed = DocValues.getSortedSet(reader, IndexFields.SUMMARY_FAILURE);
    for (int doc = keys.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = keys.nextDoc()) {
      if (live != null && !live.get(doc)) {
        continue;
      }
      records++;
      byKind.merge(IndexReads.first(kinds, doc), 1L, Long::sum);
      bySourceType.merge(IndexReads.first(sourceTypes, doc), 1L, Long::sum);
      if (tags.advanceExact(doc)) {
        for (int i = 0; i < tags.docValueCount(); i++) {
          byTag.merge(tags.lookupOrd(tags.nextOrd()).utf8ToString(), 1L, Long::sum);
        }
      }
      String summary = IndexReads.first(summaries, doc);
      if (summary != null) {
        summaryCandidates++;
        summarized += SummarySource.OFF.wireName().equals(summary) ? 0 : 1;
        countModelSummary(reader, doc, summary, IndexReads.first(failed, doc));
      }
      if (created.advanceExact(doc)) {
        long at = created.nextValue();
        firstCreated = Math.min(firstCreated, at);
        lastCreated = Math.max(lastCreated, at);
      }
    }
  }

  /** Counts a long record toward the summary model's coverage, and its failure if it has one. */
  private void countModelSummary(LeafReader reader, int doc, String source, String failure)
      throws IOException {
    if (SummarySource.IMPORTED.wireName().equals(source)) {
      return; // its own summary wins: no model is asked
    }
    modelCandidates++;
    modelSummarized += SummarySource.MODEL.wireName().equals(source) ? 1 : 0;
    if (failure == null) {
      return;
    }
    modelFailed++;
    if (failures.size() < IndexStats.FAILURES_SHOWN) {
      var stored =
          reader
              .storedFields()
              .document(
                  doc,
                  Set.of(
                      IndexFields.KEY,
                      IndexFields.SUMMARY_SOURCE,
                      IndexFields.SUMMARY_VERSION,
                      IndexFields.SUMMARY_FAILURE,
                      IndexFields.SUMMARY_ATTEMPTS,
                      IndexFields.SUMMARY_RETRY_AT));
      SummaryState state = Documents.summaryState(stored);
      failures.add(
          new IndexStats.SummaryFailure(
              stored.get(IndexFields.KEY), failure, state.attempts(), state.retryAt()));
    }
  }

  private IndexStats.DateSpan createdSpan() {
    return firstCreated > lastCreated
        ? null
        : new IndexStats.DateSpan(
            Instant.ofEpochMilli(firstCreated), Instant.ofEpochMilli(lastCreated));
  }

  /** Largest count first, then by name, for stable output. */
  private static Map<String, Long> sorted(Map<String, Long> counts) {
    var result = new LinkedHashMap<String, Long>();
    counts.entrySet().stream()
        .sorted(
            Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey()))
        .forEach(e -> result.put(e.getKey(), e.getValue()));
    return result;
  }

  /**
   * The bytes of the files under {@code directory}. A merge or commit running meanwhile deletes
   * files between the listing and the read of their size: those count as gone, never as an error.
   */
  private static long sizeOnDisk(Path directory) throws IOException {
    long[] total = {0};
    Files.walkFileTree(
        directory,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
            if (attributes.isRegularFile()) {
              total[0] += attributes.size();
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE; // deleted by a concurrent merge
            }
            throw e;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
            if (e == null || e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
    return total[0];
  }
}
