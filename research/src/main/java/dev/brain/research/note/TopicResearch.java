package dev.brain.research.note;

import dev.brain.research.note.NoteResult.Source;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
  static final int EXCERPT_CHARS = 280;

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

  TopicResearch(Corpus corpus, WebSearch web, int concurrency, NoteLinks links) {
    this.corpus = corpus;
    this.web = web;
    this.concurrency = concurrency;
    this.links = links;
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
      for (EvidenceRow row : pack.evidence()) {
        if (row.sourceKey().equals(note.key())) {
          continue;
        }
        // A row with no sentence on the topic matched by meaning or by its title alone: it is
        // about something else, and citing it here would cite it under every topic.
        Source source = source(row, query);
        if (source == null) {
          general++;
          continue;
        }
        sources.add(source);
        if (sources.size() == CORPUS_SOURCES) {
          break;
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
   * Each note cited under the topics it speaks to most (by the topic words its best passage holds),
   * and not under the others: a note that matches every topic a little is cited where it says most.
   */
  static List<Findings> underTheirBestTopic(List<Findings> findings) {
    var best = new java.util.HashMap<String, Integer>();
    for (Findings f : findings) {
      for (Source s : f.sources()) {
        if (s.key() != null) {
          best.merge(s.key(), Passages.score(s.excerpt(), f.query()), Math::max);
        }
      }
    }
    var out = new ArrayList<Findings>();
    for (Findings f : findings) {
      var kept = new ArrayList<Source>();
      int moved = 0;
      for (Source s : f.sources()) {
        if (s.key() == null || Passages.score(s.excerpt(), f.query()) >= best.get(s.key())) {
          kept.add(s);
        } else {
          moved++;
        }
      }
      out.add(f.withSources(kept, moved));
    }
    return out;
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

  /** The source of a row: its passage on the topic; {@code null} when it has none. */
  private Source source(EvidenceRow row, String query) {
    String text = row.excerpt() == null ? "" : row.excerpt();
    String excerpt = Passages.best(text, query, EXCERPT_CHARS);
    if (excerpt.isEmpty()) {
      return null;
    }
    String title = row.title() == null || row.title().isBlank() ? row.sourceKey() : row.title();
    if (row.notePath() != null && !row.notePath().isBlank()) {
      return new Source(
          "note", row.sourceKey(), title, row.url(), links.link(row.notePath()), excerpt);
    }
    return new Source("corpus", row.sourceKey(), title, row.url(), null, excerpt);
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

  /** Passages of a text that best match a query. */
  static final class Passages {
    private Passages() {}

    /** The opening sentences of {@code text} (headings and table rules left out). */
    static String first(String text, int max) {
      return Sanitize.line(String.join(" ", pieces(text)), max);
    }

    private static List<String> pieces(String text) {
      var pieces = new ArrayList<String>();
      String unlinked = Sanitize.unlink(text).replaceAll("\\|\\s*:?-{3,}:?\\s*(?=\\|)", "");
      for (String line : unlinked.split("\\r?\\n")) {
        String l = line.strip();
        if (l.isEmpty() || l.matches("#{1,6}|\\|?[-:| ]+\\|?|---+")) {
          continue; // table rules and front-matter fences say nothing
        }
        l = l.replaceFirst("^(#{1,6}|[-*+>]|\\d+[.)])\\s+", "").replaceAll("\\s*\\|\\s*", " | ");
        pieces.addAll(List.of(l.split("(?<=[.!?])\\s+|\\s+-\\s+(?=\\S)")));
      }
      return pieces;
    }

    /** The most topic words any one sentence of {@code text} holds. */
    static int score(String text, String query) {
      Set<String> words = TopicExtractor.focusWords(query);
      int best = 0;
      for (String sentence : pieces(text == null ? "" : text)) {
        String lower = sentence.toLowerCase(Locale.ROOT);
        best = Math.max(best, (int) words.stream().filter(lower::contains).count());
      }
      return best;
    }

    /**
     * The sentences of {@code text} sharing most words with {@code query} (at most two, in text
     * order, together at most {@code max} characters); empty when none shares a word.
     */
    static String best(String text, String query, int max) {
      Set<String> words = TopicExtractor.focusWords(query);
      if (words.isEmpty() || text.isBlank()) {
        return "";
      }
      String[] sentences = pieces(text).toArray(String[]::new);
      record Scored(int index, int score, String sentence) {}
      var scored = new ArrayList<Scored>();
      for (int i = 0; i < sentences.length; i++) {
        String lower = sentences[i].toLowerCase(Locale.ROOT);
        int score = 0;
        for (String w : words) {
          if (lower.contains(w)) {
            score++;
          }
        }
        if (score > 0 && sentences[i].length() >= 12) {
          scored.add(new Scored(i, score, sentences[i].strip()));
        }
      }
      scored.sort(
          Comparator.comparingInt(Scored::score).reversed().thenComparingInt(Scored::index));
      var top = new ArrayList<>(scored.subList(0, Math.min(2, scored.size())));
      top.sort(Comparator.comparingInt(Scored::index));
      String joined = String.join(" ", top.stream().map(Scored::sentence).toList());
      return Sanitize.line(joined, max);
    }
  }
}
