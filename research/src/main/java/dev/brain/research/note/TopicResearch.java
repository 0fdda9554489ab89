package dev.brain.research.note;

import dev.brain.index.CollectionRoot;
import dev.brain.research.note.NoteResult.Source;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Researches each topic on a bounded pool: the corpus through a research pack (the note itself left
 * out), the web only when a search endpoint is configured, and in deep mode the top two pages of
 * each topic. A failing topic, search or page is recorded and skipped; the others go on.
 */
final class TopicResearch {

  /** Sources kept per topic from the corpus. */
  static final int CORPUS_SOURCES = 5;

  /** Longest passage kept per source. */
  static final int EXCERPT_CHARS = 300;

  /** Largest note file read for its passages; a larger one is quoted from its search excerpt. */
  static final long MAX_SOURCE_BYTES = 1 << 20;

  /** Pages fetched per topic in deep mode. */
  static final int PAGES_PER_TOPIC = 2;

  /** Asks the corpus a question. */
  interface Corpus {
    ResearchPack pack(String question) throws IOException;
  }

  /**
   * What was found for one topic.
   *
   * @param general notes the corpus search returned that say nothing on the topic in particular (no
   *     sentence shares a word with it); not cited
   * @param elsewhere notes on the topic that are cited under another topic they say more about
   */
  record Findings(
      Topic topic,
      String query,
      List<Source> sources,
      List<String> failures,
      int general,
      int elsewhere) {
    boolean failed() {
      return sources.isEmpty() && !failures.isEmpty();
    }

    Findings withSources(List<Source> kept, int moved) {
      return new Findings(topic, query, List.copyOf(kept), failures, general, elsewhere + moved);
    }
  }

  private final Corpus corpus;
  private final WebSearch web;
  private final int concurrency;
  private final NoteLinks links;
  private final List<CollectionRoot> collections;

  /** The blocks of each source note read in this run, by record key (empty: not readable). */
  private final Map<String, List<String>> blocks = new ConcurrentHashMap<>();

  /**
   * @param links the notes of the researched note's own collection: the only ones cited as
   *     wikilinks (a link to a note of another collection would open an empty new note)
   * @param collections every collection, to read a source note's blocks from its file
   */
  TopicResearch(
      Corpus corpus,
      WebSearch web,
      int concurrency,
      NoteLinks links,
      List<CollectionRoot> collections) {
    this.corpus = corpus;
    this.web = web;
    this.concurrency = concurrency;
    this.links = links;
    this.collections = List.copyOf(collections);
  }

  /** The findings of every topic, in topic order. */
  List<Findings> research(List<Topic> topics, NoteFile note, Depth depth)
      throws InterruptedException {
    if (topics.isEmpty()) {
      return List.of();
    }
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(concurrency, topics.size()),
            Thread.ofPlatform().name("brain-note-", 0).daemon(true).factory());
    try {
      var futures = new ArrayList<Future<Findings>>();
      for (Topic t : topics) {
        futures.add(pool.submit(() -> one(t, note, depth)));
      }
      var out = new ArrayList<Findings>();
      for (int i = 0; i < topics.size(); i++) {
        out.add(result(futures.get(i), topics.get(i)));
      }
      return underTheirBestTopic(out);
    } finally {
      pool.shutdownNow();
    }
  }

  private static Findings result(Future<Findings> future, Topic topic) throws InterruptedException {
    try {
      return future.get();
    } catch (ExecutionException e) {
      String why = e.getCause() == null ? "failed" : message(e.getCause());
      return new Findings(
          topic, topic.topic(), List.of(), List.of("topic '" + topic.topic() + "': " + why), 0, 0);
    }
  }

  private Findings one(Topic topic, NoteFile note, Depth depth) throws InterruptedException {
    String query = topic.topic();
    var sources = new ArrayList<Source>();
    var failures = new ArrayList<String>();
    int general = 0;
    try {
      ResearchPack pack = corpus.pack(query);
      var found = new ArrayList<Source>();
      // The note's own row takes a slot when the pack holds it; the others are read as the first
      // limit - 1 either way, so the note's own rank (its new section may move it) changes nothing.
      int others = pack.queryPlan() == null ? Integer.MAX_VALUE : pack.queryPlan().limit() - 1;
      int ranked = 0;
      for (EvidenceRow row : pack.evidence()) {
        if (row.sourceKey().equals(note.key()) || (!row.isRelated() && ++ranked > others)) {
          continue;
        }
        // A row with no passage of its own on the topic matched by meaning, by its title or by a
        // link alone: it is about something else, and citing it here would cite it under every
        // topic.
        Source source = source(row, query, note.collection().name());
        if (source == null) {
          general++;
          continue;
        }
        found.add(source);
      }
      // Best passage first, then by key: the pack's order of near ties may differ from run to
      // run, and a second run over the same corpus must write the same section.
      found.sort(
          Comparator.comparingInt((Source s) -> Passages.score(s.excerpt(), query))
              .reversed()
              .thenComparing(Source::key));
      for (Source s : found) {
        if (sources.size() < CORPUS_SOURCES && !citedAlready(sources, s)) {
          sources.add(s);
        }
      }
    } catch (IOException | RuntimeException e) {
      failures.add("topic '" + topic.topic() + "': the corpus search failed: " + message(e));
    }
    if (web != null) {
      webSources(topic, query, depth, sources, failures);
    }
    return new Findings(topic, query, List.copyOf(sources), List.copyOf(failures), general, 0);
  }

  /**
   * Whether {@code sources} cite what {@code s} cites: the same record, note or URL (a saved page
   * and its bookmark share their URL).
   */
  static boolean citedAlready(List<Source> sources, Source s) {
    for (Source o : sources) {
      if ((s.key() != null && s.key().equals(o.key()))
          || (s.link() != null
              && o.link() != null
              && SectionSynthesis.target(s.link())
                  .equalsIgnoreCase(SectionSynthesis.target(o.link())))
          || (s.url() != null && !s.url().isBlank() && s.url().equals(o.url()))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Each source cited once in the section: under the topic its passage speaks to most (by the topic
   * words it holds), the first of equals, and not under the others. A note that matches every topic
   * a little is cited where it says most; one that matches several alike (topics that share the
   * note's title) is not quoted again and again.
   */
  static List<Findings> underTheirBestTopic(List<Findings> findings) {
    var best = new java.util.HashMap<String, Integer>();
    for (Findings f : findings) {
      for (Source s : f.sources()) {
        best.merge(identity(s), Passages.score(s.excerpt(), f.query()), Math::max);
      }
    }
    var placed = new java.util.HashSet<String>();
    var out = new ArrayList<Findings>();
    for (Findings f : findings) {
      var kept = new ArrayList<Source>();
      int moved = 0;
      for (Source s : f.sources()) {
        String id = identity(s);
        if (Passages.score(s.excerpt(), f.query()) >= best.get(id) && placed.add(id)) {
          kept.add(s);
        } else {
          moved++;
        }
      }
      out.add(f.withSources(kept, moved));
    }
    return out;
  }

  /**
   * What a source is, across topics: its URL (a saved page and its bookmark are one source), else
   * its record key, else its title.
   */
  private static String identity(Source s) {
    if (s.url() != null && !s.url().isBlank()) {
      return "url:" + s.url();
    }
    return s.key() != null ? "key:" + s.key() : "title:" + s.title();
  }

  private void webSources(
      Topic topic, String query, Depth depth, List<Source> sources, List<String> failures)
      throws InterruptedException {
    List<WebSearch.Hit> hits;
    try {
      hits = web.search(query);
    } catch (IOException | RuntimeException e) {
      failures.add("topic '" + topic.topic() + "': the web search failed: " + message(e));
      return;
    }
    for (int i = 0; i < hits.size(); i++) {
      WebSearch.Hit hit = hits.get(i);
      if (citedAlready(sources, new Source("web", null, hit.title(), hit.url(), null, ""))) {
        continue;
      }
      String excerpt = hit.snippet();
      if (depth == Depth.DEEP && i < PAGES_PER_TOPIC) {
        try {
          String best = Passages.best(web.page(hit.url()), query, 2 * EXCERPT_CHARS);
          if (!best.isEmpty()) {
            excerpt = best;
          }
        } catch (IOException | RuntimeException e) {
          failures.add("page " + hit.url() + " skipped: " + message(e));
        }
      }
      sources.add(new Source("web", null, hit.title(), hit.url(), null, excerpt));
    }
  }

  /**
   * The source of a row: its passage on the topic; {@code null} when it has none. A note of the
   * researched note's collection is cited as a wikilink, a note of another collection as plain text
   * naming that collection.
   */
  private Source source(EvidenceRow row, String query, String ownCollection) {
    String title = row.title() == null || row.title().isBlank() ? row.sourceKey() : row.title();
    // A note titled after the whole topic is about it (a person's note need not repeat the name):
    // its opening block is a passage on the topic too.
    Set<String> words = Passages.passageWords(query);
    String lowerTitle = title.toLowerCase(Locale.ROOT);
    boolean titled = !words.isEmpty() && words.stream().allMatch(lowerTitle::contains);
    String excerpt = Passages.fromBlocks(blocksOf(row), query, titled, EXCERPT_CHARS);
    if (excerpt.isEmpty()) {
      return null;
    }
    if (row.notePath() != null && !row.notePath().isBlank()) {
      String link =
          ownCollection.equals(collectionOf(row.sourceKey())) ? links.link(row.notePath()) : null;
      return new Source("note", row.sourceKey(), title, row.url(), link, excerpt);
    }
    return new Source("corpus", row.sourceKey(), title, row.url(), null, excerpt);
  }

  /** The collection of a note key {@code note:<collection>/<path>}, or {@code null}. */
  static String collectionOf(String key) {
    if (key == null || !key.startsWith("note:")) {
      return null;
    }
    int slash = key.indexOf('/', 5);
    return slash < 0 ? null : key.substring(5, slash);
  }

  /**
   * The blocks a row's passage may come from: a note's paragraphs, list items and table rows, read
   * from its file; else (a page, a PDF, a note whose file is gone) the row's excerpt without the
   * partial sentences at its cut ends.
   */
  private List<String> blocksOf(EvidenceRow row) {
    if (row.notePath() != null && !row.notePath().isBlank()) {
      List<String> read = blocks.computeIfAbsent(row.sourceKey(), k -> readBlocks(row));
      if (!read.isEmpty()) {
        return read;
      }
    }
    return List.of(Passages.whole(row.excerpt() == null ? "" : row.excerpt()));
  }

  private List<String> readBlocks(EvidenceRow row) {
    String collection = collectionOf(row.sourceKey());
    for (CollectionRoot c : collections) {
      if (!c.name().equals(collection)) {
        continue;
      }
      try {
        Path root = c.root().toAbsolutePath().normalize();
        Path file = root.resolve(row.notePath()).normalize();
        if (!file.startsWith(root)
            || !Files.isRegularFile(file)
            || Files.size(file) > MAX_SOURCE_BYTES) {
          return List.of();
        }
        return NoteBlocks.of(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
      } catch (IOException | RuntimeException e) {
        return List.of(); // quoted from the search excerpt instead
      }
    }
    return List.of();
  }

  /** The wikilink target of a note path: its file name without the extension. */
  static String linkName(String notePath) {
    String name = notePath.substring(notePath.replace('\\', '/').lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  private static String message(Throwable e) {
    String m = e.getMessage();
    if (m == null || m.isBlank()) {
      return e instanceof java.net.http.HttpTimeoutException ? "timed out" : "failed";
    }
    return Sanitize.line(m, 300);
  }
}
