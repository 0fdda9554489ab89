package dev.brain.research.plan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The word lists of the deterministic strategy that shape a plan: generic modifiers, time words,
 * words that name a kind of source, event and selection words, and the synonym families of {@code
 * synonyms.txt} (the words that never become terms are in {@link StopWords}). Lists, not rules: the
 * rules live in {@link QueryAnalyzer}.
 */
final class Vocabulary {
  private Vocabulary() {}

  /** Generic words: searched, but not required of evidence. */
  static final Set<String> MODIFIERS =
      Set.of(
          "often",
          "frequently",
          "usually",
          "much",
          "many",
          "long",
          "far",
          "big",
          "small",
          "best",
          "good",
          "better",
          "worse",
          "worst",
          "bad",
          "way",
          "ways",
          "type",
          "types",
          "share",
          "single",
          "use",
          "used",
          "using",
          "make",
          "made",
          "need",
          "needs",
          "new",
          "main",
          "first",
          "last",
          "top",
          "general",
          "overall",
          "exactly",
          "every",
          "always",
          "never",
          "time",
          "times",
          "part",
          "parts",
          "lot",
          "lots",
          "amount",
          "number",
          // Words naming what the answer measures: "what grind size" is answered by "15 on the
          // dial", which need not say "size".
          "size",
          "sizes",
          "setting",
          "settings",
          "level",
          "levels",
          "kinds",
          "choose",
          "chose",
          "chosen",
          "pick",
          "picked",
          "recommend",
          "recommended",
          "alternative",
          "alternatives",
          "option",
          "options",
          "idea",
          "ideas",
          "work",
          "works",
          "worked",
          "do",
          "done",
          "reason",
          "reasons",
          "difference",
          "differences",
          "compare",
          "compared",
          "comparison",
          "history",
          "timeline",
          "evolution",
          "changed",
          "change",
          "changes",
          "start",
          "started",
          "end",
          "ended");

  /**
   * Month ({@link Words#MONTHS}, but not "may", which is mostly the verb) and weekday names and
   * relative time words.
   */
  static final Set<String> TIME_WORDS =
      Stream.concat(
              Words.MONTHS.stream().filter(m -> !m.equals("may")),
              Stream.of(
                  "monday",
                  "tuesday",
                  "wednesday",
                  "thursday",
                  "friday",
                  "saturday",
                  "sunday",
                  "yesterday",
                  "today",
                  "tonight",
                  "recently",
                  "recent",
                  "lately",
                  "ago",
                  "year",
                  "years",
                  "month",
                  "months",
                  "decade"))
          .collect(Collectors.toUnmodifiableSet());

  /** Words that name a kind of source, with the source type (or evidence role) they point to. */
  static final Map<String, String> SOURCE_HINTS =
      Map.ofEntries(
          Map.entry("podcast", "transcript"),
          Map.entry("podcasts", "transcript"),
          Map.entry("episode", "transcript"),
          Map.entry("radio", "transcript"),
          Map.entry("transcript", "transcript"),
          Map.entry("transcripts", "transcript"),
          Map.entry("video", "transcript"),
          Map.entry("videos", "transcript"),
          Map.entry("youtube", "transcript"),
          Map.entry("interview", "transcript"),
          Map.entry("pdf", "pdf"),
          Map.entry("pdfs", "pdf"),
          Map.entry("paper", "pdf"),
          Map.entry("manual", "pdf"),
          Map.entry("article", "web"),
          Map.entry("articles", "web"),
          Map.entry("webpage", "web"),
          Map.entry("website", "web"),
          Map.entry("bookmark", "bookmark"),
          Map.entry("bookmarks", "bookmark"),
          Map.entry("bookmarked", "bookmark"),
          Map.entry("feed", "feed_entry"),
          Map.entry("rss", "feed_entry"),
          Map.entry("blog", "feed_entry"),
          Map.entry("github", "github"),
          Map.entry("repo", "github"),
          Map.entry("repository", "github"),
          Map.entry("screenshot", "ocr"),
          Map.entry("screenshots", "ocr"),
          Map.entry("ocr", "ocr"),
          Map.entry("scan", "ocr"),
          Map.entry("scanned", "ocr"));

  /** Event words that make a named person a person/event lookup. */
  static final Set<String> EVENT_WORDS =
      Set.of(
          "killed",
          "died",
          "dies",
          "death",
          "dead",
          "arrested",
          "charged",
          "convicted",
          "sentenced",
          "elected",
          "election",
          "resigned",
          "fired",
          "hired",
          "attack",
          "attacked",
          "crash",
          "crashed",
          "shooting",
          "shot",
          "accident",
          "trial",
          "married",
          "divorced",
          "born",
          "won",
          "lost",
          "announced",
          "launched",
          "acquired",
          "sued",
          "scandal");

  /** Words that make a question a tool/model selection. */
  static final Set<String> SELECTION_OBJECTS =
      Set.of(
          "model",
          "models",
          "llm",
          "llms",
          "tool",
          "tools",
          "library",
          "libraries",
          "framework",
          "frameworks",
          "database",
          "databases",
          "editor",
          "app",
          "apps",
          "stack",
          "provider",
          "providers",
          "service",
          "services",
          "plugin",
          "plugins",
          "engine",
          "engines");

  private static final Map<String, List<String>> SYNONYMS = loadSynonyms();

  /** Whether a lower-case word is a year between 1900 and 2099. */
  static boolean isYear(String word) {
    return word.length() == 4
        && (word.startsWith("19") || word.startsWith("20"))
        && word.chars().allMatch(Character::isDigit);
  }

  /** The synonym family of a lower-case form (the form itself first), or just the form. */
  static List<String> synonyms(String form) {
    List<String> family = SYNONYMS.get(form);
    if (family == null) {
      return List.of(form);
    }
    var out = new ArrayList<String>();
    out.add(form);
    family.stream().filter(f -> !f.equals(form)).forEach(out::add);
    return List.copyOf(out);
  }

  private static Map<String, List<String>> loadSynonyms() {
    var map = new HashMap<String, List<String>>();
    try (InputStream in = Vocabulary.class.getResourceAsStream("synonyms.txt")) {
      if (in == null) {
        throw new IllegalStateException("synonyms.txt is missing from the brain-research jar");
      }
      var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        List<String> family = new ArrayList<>();
        for (String f : line.split(",")) {
          if (!f.isBlank()) {
            family.add(f.strip().toLowerCase(Locale.ROOT));
          }
        }
        for (String f : family) {
          map.putIfAbsent(f, List.copyOf(family));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read synonyms.txt", e);
    }
    return Map.copyOf(map);
  }
}
