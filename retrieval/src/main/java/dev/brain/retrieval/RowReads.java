package dev.brain.retrieval;

import dev.brain.chunking.MarkdownText;
import dev.brain.index.CorpusRecord;
import dev.brain.index.IndexInternals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;

/**
 * What rows read and analyze, kept for the searches of one {@link Retriever.Session}: each record
 * and chunk is read from the backend once, and each text analyzed once, however many searches (a
 * research pack's query variants) show it. Chunk handles are valid within one view, and a session
 * holds one view, so caching by handle is safe. Not thread-safe: one per session.
 */
final class RowReads {

  /** A chunk's text as a reader sees it, with its tokens (for the excerpt). */
  record Visible(String text, List<Analysis.Token> tokens) {}

  private final Backend.View view;
  private final Analyzer analyzer;
  private final Map<String, CorpusRecord> records = new HashMap<>();
  private final Set<String> missing = new HashSet<>();
  private final Map<Integer, StoredChunk> chunks = new HashMap<>();
  private final Map<Integer, List<Analysis.Token>> tokens = new HashMap<>();
  private final Map<Integer, Visible> visible = new HashMap<>();
  private final Map<String, Set<String>> terms = new HashMap<>();
  private final Map<String, String> texts = new HashMap<>();
  private final StoredDocCache<String> visibleTexts;
  private final StoredDocCache<Boolean> blankGaps;

  /**
   * @param analyzer the backend's analyzer; rows use its {@link IndexInternals#forRereading} form,
   *     which gives the same tokens
   * @param visibleTexts chunks' visible texts kept across sessions, by {@link
   *     Backend.View#contentKey}
   * @param blankGaps whether the text before a chunk is blank from a given offset, kept across
   *     sessions by the chunk's {@link Backend.View#contentKey} and the offset
   */
  RowReads(
      Backend.View view,
      Analyzer analyzer,
      StoredDocCache<String> visibleTexts,
      StoredDocCache<Boolean> blankGaps) {
    this.view = view;
    this.analyzer = IndexInternals.forRereading(analyzer);
    this.visibleTexts = visibleTexts;
    this.blankGaps = blankGaps;
  }

  Analyzer analyzer() {
    return analyzer;
  }

  /** The records with these keys and the chunks with these handles, reading only new ones. */
  Backend.Loaded load(List<String> keys, Collection<Integer> chunkDocs) throws IOException {
    var newKeys = new ArrayList<String>();
    for (String key : new LinkedHashSet<>(keys)) {
      if (!records.containsKey(key) && !missing.contains(key)) {
        newKeys.add(key);
      }
    }
    var newDocs = new ArrayList<Integer>();
    for (int doc : new LinkedHashSet<>(chunkDocs)) {
      if (!chunks.containsKey(doc)) {
        newDocs.add(doc);
      }
    }
    if (!newKeys.isEmpty() || !newDocs.isEmpty()) {
      Backend.Loaded loaded = view.load(newKeys, newDocs);
      records.putAll(loaded.records());
      chunks.putAll(loaded.chunks());
      for (String key : newKeys) {
        if (!loaded.records().containsKey(key)) {
          missing.add(key);
        }
      }
    }
    var outRecords = new HashMap<String, CorpusRecord>();
    for (String key : keys) {
      CorpusRecord r = records.get(key);
      if (r != null) {
        outRecords.put(key, r);
      }
    }
    var outChunks = new HashMap<Integer, StoredChunk>();
    for (int doc : chunkDocs) {
      StoredChunk c = chunks.get(doc);
      if (c != null) {
        outChunks.put(doc, c);
      }
    }
    return new Backend.Loaded(outRecords, outChunks);
  }

  /**
   * The record's raw text: its own when it was loaded with it, else read from the view once (a
   * backend's {@link Backend.View#load} may leave it out).
   */
  String text(CorpusRecord record) {
    if (!record.text().isEmpty()) {
      return record.text();
    }
    String text = texts.get(record.key());
    if (text == null) {
      try {
        text = view.recordText(record.key());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      text = text == null ? "" : text;
      texts.put(record.key(), text);
    }
    return text;
  }

  /**
   * The gaps between the record's chunks: whether one is blank is read from the record's raw text
   * (a whole text read for a few characters), so the answer is kept by the chunk after the gap,
   * whose segment holds the record too, and the offset the gap starts at.
   */
  ChunkSpans.Gap gap(CorpusRecord record) {
    ChunkSpans.Gap read = ChunkSpans.gap(record, () -> text(record));
    return (next, end) -> {
      Object chunk = view.contentKey(next.doc());
      if (chunk == null) {
        return read.blank(next, end);
      }
      Object key = List.of(chunk, end);
      Boolean blank = blankGaps.get(key);
      if (blank == null) {
        blank = read.blank(next, end);
        blankGaps.put(key, blank);
      }
      return blank;
    };
  }

  /** The tokens of a chunk's text as the text field indexes them. */
  List<Analysis.Token> tokens(StoredChunk chunk) {
    return tokens.computeIfAbsent(chunk.doc(), d -> Analysis.tokens(analyzer, chunk.text()));
  }

  /** The chunk's visible text and its tokens; the text's own tokens when rendering changes none. */
  Visible visible(StoredChunk chunk, boolean markdown) {
    return visible.computeIfAbsent(
        chunk.doc(),
        d -> {
          String text = visibleText(chunk, markdown);
          return new Visible(
              text, text.equals(chunk.text()) ? tokens(chunk) : Analysis.tokens(analyzer, text));
        });
  }

  /**
   * The chunk's text rendered as a reader sees it, kept across sessions where the view says how.
   */
  private String visibleText(StoredChunk chunk, boolean markdown) {
    Object key = view.contentKey(chunk.doc());
    if (key == null) {
      return MarkdownText.visibleText(chunk.text(), markdown);
    }
    // Whether the text is rendered as Markdown depends on the record's source type, which a
    // chunk's content never changes: the key holds it all the same.
    key = java.util.List.of(key, markdown);
    String text = visibleTexts.get(key);
    if (text == null) {
      text = MarkdownText.visibleText(chunk.text(), markdown);
      visibleTexts.put(key, text);
    }
    return text;
  }

  /** The distinct analyzed terms of a short text (title, aliases, heading, tag). */
  Set<String> terms(String text) {
    return terms.computeIfAbsent(text == null ? "" : text, t -> Analysis.terms(analyzer, t));
  }
}
