package dev.brain.research.note;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Passages of a text that best match a query. */
final class Passages {
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

  /** Links, URLs and tags: words a block shows but does not say. */
  private static final Pattern NOT_SAID =
      Pattern.compile(
          "!?\\[\\[[^\\]]*]]|!?\\[[^\\]]*]\\([^)]*\\)|https?://\\S+|(?<![\\w#&/])#[\\p{L}][\\p{L}\\p{N}_/-]*");

  /** A sentence end: terminal punctuation, then space and what may start a sentence. */
  private static final Pattern SENTENCE_END =
      Pattern.compile("(?<=[.!?])[\"'”’)]?\\s+(?=[\\p{Lu}\\p{N}\"'“‘(\\[*_])");

  /**
   * The passage of {@code blocks} on {@code query}: the block whose own words (links and tags left
   * out) hold most query words, the first of equals; the whole block when it fits in {@code max},
   * else its best sentence and the ones after it that fit; empty when no block of three words or
   * more holds a query word (unless {@code titled}: then the first such block). Never text of two
   * blocks.
   */
  static String fromBlocks(List<String> blocks, String query, boolean titled, int max) {
    Set<String> words = passageWords(query);
    String best = null;
    int bestScore = titled ? -1 : 0;
    for (String block : blocks) {
      String said = NOT_SAID.matcher(block).replaceAll(" ").toLowerCase(Locale.ROOT);
      if (wordCount(said) < 3) {
        continue; // a line of tags or links says nothing to quote
      }
      int score = (int) words.stream().filter(w -> containsWord(said, w)).count();
      if (score > bestScore) {
        best = block;
        bestScore = score;
      }
    }
    if (best == null) {
      return "";
    }
    String text = Sanitize.line(Sanitize.unlink(best), Integer.MAX_VALUE);
    if (text.length() <= max) {
      return text;
    }
    String[] sentences = SENTENCE_END.split(text);
    int from = 0;
    int fromScore = -1;
    for (int i = 0; i < sentences.length; i++) {
      String lower = sentences[i].toLowerCase(Locale.ROOT);
      int score = (int) words.stream().filter(w -> containsWord(lower, w)).count();
      if (score > fromScore) {
        from = i;
        fromScore = score;
      }
    }
    var out = new StringBuilder(sentences[from].strip());
    for (int i = from + 1; i < sentences.length; i++) {
      if (out.length() + 1 + sentences[i].strip().length() > max) {
        break;
      }
      out.append(' ').append(sentences[i].strip());
    }
    return Sanitize.line(out.toString(), max);
  }

  /**
   * The words of a topic a passage must hold: its {@link TopicExtractor#focusWords}, numbers left
   * out when it has other words (a "200" of "efConstruction = 200" is in every log).
   */
  static Set<String> passageWords(String query) {
    Set<String> all = TopicExtractor.focusWords(query);
    var words = new java.util.LinkedHashSet<String>();
    for (String w : all) {
      if (!w.chars().allMatch(Character::isDigit)) {
        words.add(w);
      }
    }
    return words.isEmpty() ? all : words;
  }

  private static int wordCount(String text) {
    int n = 0;
    for (String w : text.split("[^\\p{L}\\p{N}]+")) {
      n += w.isEmpty() ? 0 : 1;
    }
    return n;
  }

  /**
   * Whether {@code lower} holds {@code word} as a word or its plural ("pro" is not in "progress").
   */
  static boolean containsWord(String lower, String word) {
    int at = lower.indexOf(word);
    while (at >= 0) {
      int end = at + word.length();
      if (lower.startsWith("es", end) && !wordGoesOn(lower, end + 2)) {
        end += 2;
      } else if (lower.startsWith("s", end) && !wordGoesOn(lower, end + 1)) {
        end += 1;
      }
      if ((at == 0 || !Character.isLetterOrDigit(lower.charAt(at - 1)))
          && !wordGoesOn(lower, end)) {
        return true;
      }
      at = lower.indexOf(word, at + 1);
    }
    return false;
  }

  private static boolean wordGoesOn(String text, int at) {
    return at < text.length() && Character.isLetterOrDigit(text.charAt(at));
  }

  /**
   * A search excerpt without the partial sentences at its cut ends (marked {@code …}); as it is
   * when nothing whole is left.
   */
  static String whole(String excerpt) {
    String e = excerpt.strip();
    String out = e;
    if (out.startsWith("…")) {
      Matcher m = SENTENCE_END.matcher(out);
      out = m.find() ? out.substring(m.end()) : "";
    }
    if (out.endsWith("…")) {
      int end = -1;
      Matcher m = Pattern.compile("[.!?](?=[\"'”’)]?\\s)").matcher(out);
      while (m.find()) {
        end = m.end();
      }
      out = end < 0 ? "" : out.substring(0, end);
    }
    return out.isBlank() ? e : out.strip();
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
    scored.sort(Comparator.comparingInt(Scored::score).reversed().thenComparingInt(Scored::index));
    var top = new ArrayList<>(scored.subList(0, Math.min(2, scored.size())));
    top.sort(Comparator.comparingInt(Scored::index));
    String joined = String.join(" ", top.stream().map(Scored::sentence).toList());
    return Sanitize.line(joined, max);
  }
}
