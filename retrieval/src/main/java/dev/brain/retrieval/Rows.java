package dev.brain.retrieval;

import dev.brain.chunking.MarkdownText;
import dev.brain.index.CorpusRecord;
import dev.brain.retrieval.Fusion.FusedChunk;
import dev.brain.retrieval.Fusion.FusedRecord;
import dev.brain.retrieval.TagLift.Ranked;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Consolidates fused records into evidence rows: reads the record and its best chunks, merges
 * adjacent chunks into spans, cuts the excerpt, and works out matched terms and signals.
 */
final class Rows {

  /** How much of a record's raw text is rendered for an excerpt of a row without a chunk. */
  private static final int RAW_HEAD_CHARS = 8_000;

  private final Backend.View view;
  private final RowReads reads;
  private final QueryText query;
  private final SearchOptions options;
  private final boolean vectorUsed;

  /**
   * @param view the backend view the lanes ran on; records found without a chunk hit (exact tag,
   *     related) show the chunk it scores best for the query's words
   * @param reads the records, chunks and analyses already read on that view
   * @param vectorUsed whether the vector lane ran (a row without it is not "bm25 only")
   */
  Rows(
      Backend.View view,
      RowReads reads,
      QueryText query,
      SearchOptions options,
      boolean vectorUsed) {
    this.view = view;
    this.reads = reads;
    this.query = query;
    this.options = options;
    this.vectorUsed = vectorUsed;
  }

  /** Rows for the top fused records, in order, ranked from 1. */
  List<EvidenceRow> ranked(List<FusedRecord> top) throws IOException {
    var keptDocs = new ArrayList<Integer>();
    var chunkDocs = new ArrayList<Integer>();
    for (FusedRecord fused : top) {
      fused.chunks().stream()
          .limit(options.maxChunksPerRecord())
          .forEach(c -> keptDocs.add(c.doc()));
    }
    chunkDocs.addAll(keptDocs);
    for (FusedRecord fused : top) {
      // Each lane's best chunk too, for the role it found the record through.
      fused.laneChunks().values().stream()
          .filter(doc -> !chunkDocs.contains(doc))
          .forEach(chunkDocs::add);
    }
    Backend.Loaded loaded = reads.load(top.stream().map(FusedRecord::key).toList(), chunkDocs);
    // Only the kept chunks are read for the query's words (a lane's best chunk gives its role).
    Map<Integer, Set<String>> textTerms =
        query.terms().isEmpty() ? Map.of() : view.textTerms(keptDocs, query.terms().keySet());
    var rows = new ArrayList<Ranked>(top.size());
    for (FusedRecord fused : top) {
      CorpusRecord record = loaded.records().get(fused.key());
      if (record != null) {
        rows.add(row(rows.size() + 1, fused, record, loaded.chunks(), textTerms));
      }
    }
    return options.tagOnlyBelowWords()
        ? TagLift.belowWords(rows)
        : rows.stream().map(Ranked::row).toList();
  }

  private Ranked row(
      int rank,
      FusedRecord fused,
      CorpusRecord record,
      Map<Integer, StoredChunk> loaded,
      Map<Integer, Set<String>> textTerms)
      throws IOException {
    List<StoredChunk> chunks = keptChunks(fused, loaded);
    List<LaneScore> lanes = withRoles(fused, loaded);
    var retrieval = new RowRetrieval(lanes, fused.score());
    boolean tagOnly = lanes.stream().allMatch(l -> l.lane() == Lane.EXACT_TAG);
    List<String> signals = laneSignals(lanes);
    Evidence evidence = evidence(record, chunks, textTerms);
    boolean liftedByTag =
        !evidence.words() && fused.rank(Lane.EXACT_TAG) > 0 && !askedForTag(record.tags());
    return new Ranked(
        build(
            rank,
            record,
            chunks,
            evidence,
            retrieval,
            signals,
            tagOnly ? "exact_tag" : null,
            null,
            null),
        evidence.words(),
        liftedByTag);
  }

  /**
   * Whether the query names one of these tags as {@code #tag}: then the tag is what it asks for.
   */
  private boolean askedForTag(List<String> tags) {
    String text = query.text().toLowerCase(Locale.ROOT);
    return tags.stream().anyMatch(t -> query.tagAliases().contains(t) && text.contains("#" + t));
  }

  /**
   * A related row: a record linked with the ranked row {@code relatedTo}.
   *
   * @param seedScore the fused score of the ranked row it relates to
   */
  EvidenceRow related(
      int rank,
      int laneRank,
      CorpusRecord record,
      String relatedTo,
      String relationship,
      double seedScore)
      throws IOException {
    StoredChunk best = view.bestChunk(record.key(), query);
    List<StoredChunk> chunks = best == null ? List.of() : List.of(best);
    var retrieval =
        new RowRetrieval(List.of(new LaneScore(Lane.RELATED, laneRank, seedScore, 0)), 0);
    var signals = new ArrayList<String>(List.of("related:" + relationship));
    return build(
        rank,
        record,
        chunks,
        evidence(record, chunks, Map.of()),
        retrieval,
        signals,
        "related",
        relatedTo,
        relationship);
  }

  /** The record's best chunks (at most the per-record limit), best first. */
  private List<StoredChunk> keptChunks(FusedRecord fused, Map<Integer, StoredChunk> loaded)
      throws IOException {
    var chunks = new ArrayList<StoredChunk>();
    for (FusedChunk c : fused.chunks()) {
      if (chunks.size() == options.maxChunksPerRecord()) {
        break;
      }
      chunks.add(loaded.get(c.doc()));
    }
    if (chunks.isEmpty()) {
      StoredChunk best = view.bestChunk(fused.key(), query);
      if (best != null) {
        chunks.add(best);
      }
    }
    return chunks;
  }

  private EvidenceRow build(
      int rank,
      CorpusRecord record,
      List<StoredChunk> chunks,
      Evidence evidence,
      RowRetrieval retrieval,
      List<String> laneSignals,
      String roleOverride,
      String relatedTo,
      String relationship) {
    StoredChunk best = chunks.isEmpty() ? null : chunks.get(0);
    var signals = new ArrayList<String>(evidence.signals());
    signals.addAll(laneSignals);
    String role = roleOverride != null ? roleOverride : best != null ? best.role() : "raw";
    return new EvidenceRow(
        rank,
        record.key(),
        record.kind(),
        record.sourceType(),
        record.title(),
        record.url(),
        record.path(),
        record.tags(),
        iso(record.createdAt()),
        iso(record.publishedAt()),
        record.summary(),
        excerpt(record, best),
        role,
        best == null ? null : ChunkSpans.chunkRef(chunks, reads.gap(record)),
        retrieval,
        signals,
        query.matched(evidence.present()),
        query.missing(evidence.present()),
        relatedTo,
        relationship);
  }

  /**
   * What the row's text says about the query: terms present (its tags' words included), text-based
   * signals, and whether a query word is in the record's own words (tags not counted).
   */
  private record Evidence(Set<String> present, List<String> signals, boolean words) {}

  /**
   * Kept chunks are analyzed best first, and only until every query term is present and the phrase
   * (if the query has one) is found: later chunks could add nothing then. A chunk whose query terms
   * the backend knows is analyzed only when it holds them all: lacking one, it cannot hold the
   * phrase, and the terms are all it adds.
   *
   * @param textTerms the query terms each chunk's text holds, by chunk handle, where the backend
   *     knows them (chunks without an entry are analyzed)
   */
  private Evidence evidence(
      CorpusRecord record, List<StoredChunk> chunks, Map<Integer, Set<String>> textTerms) {
    Set<String> queryTerms = query.terms().keySet();
    Set<String> present = new HashSet<>();
    var signals = new ArrayList<String>();
    Set<String> title = reads.terms(record.title());
    present.addAll(title);
    if (!Collections.disjoint(title, queryTerms)) {
      signals.add("title_match");
    }
    Set<String> aliases = reads.terms(String.join(" ", record.aliases()));
    present.addAll(aliases);
    if (!Collections.disjoint(aliases, queryTerms)) {
      signals.add("alias_match");
    }
    if (!chunks.isEmpty()) {
      Set<String> heading = reads.terms(String.join(" ", chunks.get(0).headingPath()));
      present.addAll(heading);
      if (!Collections.disjoint(heading, queryTerms)) {
        signals.add("heading_match");
      }
    }
    boolean wantsPhrase = query.sequence().size() > 1;
    boolean phrase = false;
    for (StoredChunk chunk : chunks) {
      if ((phrase || !wantsPhrase) && present.containsAll(queryTerms)) {
        break;
      }
      Set<String> held = textTerms.get(chunk.doc());
      if (held != null && !(wantsPhrase && held.containsAll(queryTerms))) {
        present.addAll(held);
        continue;
      }
      List<Analysis.Token> chunkTokens = reads.tokens(chunk);
      var sequence = new ArrayList<String>(chunkTokens.size());
      for (Analysis.Token t : chunkTokens) {
        sequence.add(t.term());
        if (queryTerms.contains(t.term())) {
          present.add(t.term()); // only query terms matter: matched/missing and all_terms
        }
      }
      phrase |= containsPhrase(sequence, query.sequence());
    }
    if (phrase) {
      signals.add("phrase_match");
    }
    // Tags count for matched terms, but only after the record's own words were read: a word a tag
    // also holds must not end the reading before the text shows whether it holds the word too.
    boolean words = !Collections.disjoint(present, queryTerms);
    for (String tag : record.tags()) {
      present.addAll(reads.terms(tag.replace('-', ' ').replace('/', ' ')));
    }
    for (String tag : record.tags()) {
      if (query.tagAliases().contains(tag)) {
        signals.add("exact_tag:" + tag);
      }
    }
    if (query.terms().size() > 1 && present.containsAll(queryTerms)) {
      signals.add("all_terms");
    }
    return new Evidence(present, signals, words);
  }

  /** Whether {@code phrase} (two terms or more) occurs as a contiguous run in {@code terms}. */
  static boolean containsPhrase(List<String> terms, List<String> phrase) {
    return phrase.size() > 1 && Collections.indexOfSubList(terms, phrase) >= 0;
  }

  /** The record's lane scores, each with the role of the chunk the lane found it through. */
  private static List<LaneScore> withRoles(FusedRecord fused, Map<Integer, StoredChunk> loaded) {
    var out = new ArrayList<LaneScore>(fused.lanes().size());
    for (LaneScore score : fused.lanes()) {
      Integer doc = fused.laneChunks().get(score.lane());
      StoredChunk chunk = doc == null ? null : loaded.get(doc);
      out.add(chunk == null ? score : score.withRole(chunk.role()));
    }
    return out;
  }

  /**
   * How the lanes found the record: {@code vector_only}, {@code lexical_and_semantic} or {@code
   * bm25_only}, and {@code summary} when a lane's best chunk was the record's summary.
   */
  private List<String> laneSignals(List<LaneScore> lanes) {
    var out = new ArrayList<String>(lanePresence(lanes));
    if (lanes.stream().anyMatch(l -> "summary".equals(l.role()))) {
      out.add("summary");
    }
    return out;
  }

  private List<String> lanePresence(List<LaneScore> lanes) {
    boolean bm25 = lanes.stream().anyMatch(l -> l.lane() == Lane.BM25);
    boolean vector = lanes.stream().anyMatch(l -> l.lane() == Lane.VECTOR);
    boolean tag = lanes.stream().anyMatch(l -> l.lane() == Lane.EXACT_TAG);
    if (vector && !bm25 && !tag) {
      return List.of("vector_only");
    }
    if (bm25 && vector) {
      return List.of("lexical_and_semantic");
    }
    if (bm25 && vectorUsed) {
      return List.of("bm25_only");
    }
    return List.of();
  }

  /**
   * The excerpt: a window of the best chunk's text as a reader sees it (Markdown rendered by {@link
   * MarkdownText}), centred on the query terms that the same analysis finds in that text. Without a
   * chunk, the start of the record's text.
   */
  private String excerpt(CorpusRecord record, StoredChunk best) {
    boolean markdown = MarkdownText.isMarkdown(record.sourceType());
    if (best == null) {
      String raw = reads.text(record);
      // Only the start is shown: render no more of a long text than a window can take.
      String head = raw.substring(0, Math.min(raw.length(), RAW_HEAD_CHARS));
      String text = MarkdownText.visibleText(head, markdown);
      return Excerpts.excerpt(text, 0, List.of(), options.maxExcerptChars());
    }
    RowReads.Visible visible = reads.visible(best, markdown);
    String text = visible.text();
    var matches = new ArrayList<Excerpts.Match>();
    for (Analysis.Token t : visible.tokens()) {
      if (query.terms().containsKey(t.term())) {
        matches.add(new Excerpts.Match(t.start(), t.end(), t.term()));
      }
    }
    return Excerpts.excerpt(text, 0, matches, options.maxExcerptChars());
  }

  private static String iso(Instant at) {
    return at == null ? null : at.toString();
  }
}
