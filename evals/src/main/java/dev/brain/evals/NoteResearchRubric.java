package dev.brain.evals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scores one {@code ## Research} section by what makes a person delete it: a source cited twice in
 * the section (under one topic or under two), an excerpt cut inside a sentence or spanning two
 * blocks of its note, a wikilink to a note the vault does not hold, and filler lines that say
 * nothing. Independent of how the section was made: it reads the section's Markdown and the vault's
 * files only.
 */
final class NoteResearchRubric {
  private NoteResearchRubric() {}

  /**
   * The counts of one section.
   *
   * @param bullets cited bullets (one source each), the related-notes list left out
   * @param duplicates bullets citing a source already cited above, under this topic or another
   * @param excerpts bullets with an excerpt
   * @param cut excerpts ending in an ellipsis, holding a list or heading marker, spanning two
   *     blocks of their note, or ending inside one of its sentences
   * @param links wikilinks
   * @param foreign wikilinks naming no note of the vault
   * @param filler lines that cite nothing and say nothing: an italic line under a topic, a bullet
   *     whose excerpt holds no word besides tags
   * @param findings each counted problem, in words, in section order
   */
  record Score(
      int bullets,
      int duplicates,
      int excerpts,
      int cut,
      int links,
      int foreign,
      int filler,
      List<String> findings) {}

  private static final Pattern WIKILINK =
      Pattern.compile("\\[\\[([^\\]|#\\n]*)(?:[#|][^\\]\\n]*)?]]");
  private static final Pattern MD_LINK = Pattern.compile("^\\[[^\\]]*]\\(([^)\\s]+)\\)");

  /**
   * A list item's marker inside a passage, where flattened text ran one item into the next: a
   * bullet ({@code -} or {@code *}; a {@code +} is more often a sum) or a heading's hashes, a task
   * box, or a number after a sentence's end ("weeks. 2. Move billing"; "chapter 9. Next" is prose).
   */
  private static final Pattern INNER_MARKER =
      Pattern.compile(
          "\\s(?:[-*]|#{1,6})\\s+\\S|\\s\\[[ xX]]\\s|[.!?:;]\\s+\\d{1,3}[.)]\\s+\\p{L}");

  /**
   * Scores {@code section} (heading to end marker) of a note of {@code vault}.
   *
   * @param vault the vault's notes, by lower-case wikilink target
   */
  static Score score(String section, Vault vault) {
    int bullets = 0;
    int duplicates = 0;
    int excerpts = 0;
    int cut = 0;
    int links = 0;
    int foreign = 0;
    int filler = 0;
    var findings = new ArrayList<String>();
    String topic = "";
    boolean intro = true;
    var seen = new HashSet<String>();
    for (String raw : section.split("\\r?\\n")) {
      String line = raw.strip();
      Matcher w = WIKILINK.matcher(line);
      while (w.find()) {
        links++;
        if (!vault.holds(w.group(1).strip())) {
          foreign++;
          findings.add("foreign link [[" + w.group(1).strip() + "]] under '" + topic + "'");
        }
      }
      if (line.startsWith("### ")) {
        topic = line.substring(4).strip();
        intro = false;
        continue;
      }
      if (line.matches("_.+_") && !intro) {
        filler++;
        findings.add("filler under '" + topic + "': " + line);
        continue;
      }
      if (!line.startsWith("- ") || topic.equalsIgnoreCase("Related notes")) {
        continue;
      }
      bullets++;
      String body = line.substring(2);
      String[] cited = cited(body);
      String source = cited[0];
      String excerpt = cited[1];
      if (!seen.add(source)) {
        duplicates++;
        findings.add("source cited again: " + source + " under '" + topic + "'");
      }
      if (excerpt.isEmpty()) {
        continue;
      }
      excerpts++;
      if (words(excerpt.replaceAll("(?<![\\w#])#[\\p{L}][\\p{L}\\p{N}_/-]*", "")).size() < 2) {
        filler++;
        findings.add("filler under '" + topic + "': " + line);
        continue;
      }
      String why = cutWhy(excerpt, source, vault);
      if (why != null) {
        cut++;
        findings.add("cut excerpt (" + why + ") under '" + topic + "': " + shorten(excerpt));
      }
    }
    return new Score(
        bullets, duplicates, excerpts, cut, links, foreign, filler, List.copyOf(findings));
  }

  /** The source a bullet cites (a key to compare) and its excerpt. */
  private static String[] cited(String body) {
    if (body.startsWith("[[")) {
      int end = body.indexOf("]]");
      if (end > 0) {
        String target = body.substring(2, end);
        int bar = target.indexOf('|');
        target = bar < 0 ? target : target.substring(0, bar);
        return new String[] {
          "[[" + target.strip().toLowerCase(Locale.ROOT) + "]]", rest(body, end + 2)
        };
      }
    }
    Matcher md = MD_LINK.matcher(body);
    if (md.find()) {
      return new String[] {md.group(1), rest(body, md.end())};
    }
    int colon = body.indexOf(": ");
    return colon < 0
        ? new String[] {body.toLowerCase(Locale.ROOT), ""}
        : new String[] {
          body.substring(0, colon).toLowerCase(Locale.ROOT), body.substring(colon + 2)
        };
  }

  private static String rest(String body, int from) {
    String r = body.substring(from);
    return r.startsWith(": ") ? r.substring(2).strip() : "";
  }

  /** Why an excerpt is cut, or {@code null} when it is whole. */
  private static String cutWhy(String excerpt, String source, Vault vault) {
    String e = excerpt.strip();
    if (e.endsWith("…") || e.endsWith("...")) {
      return "ends in an ellipsis";
    }
    if (INNER_MARKER.matcher(" " + e).find()) {
      return "holds a list or heading marker";
    }
    if (!source.startsWith("[[")) {
      return null;
    }
    List<String> blocks = vault.blocks(source.substring(2, source.length() - 2));
    if (blocks == null) {
      return null;
    }
    String words = String.join(" ", words(e));
    if (words.isEmpty()) {
      return null;
    }
    for (String block : blocks) {
      String b = String.join(" ", words(block));
      int at = (" " + b + " ").indexOf(" " + words + " ");
      if (at >= 0) {
        boolean atEnd = at + words.length() >= b.length();
        return atEnd || e.matches("(?s).*[.!?:;)\"'”’]$") ? null : "ends inside a sentence";
      }
    }
    return "spans two blocks of its note";
  }

  /** Lower-case words (letters and digits) of {@code text}, links made plain. */
  static List<String> words(String text) {
    var out = new ArrayList<String>();
    for (String w : Vault.plain(text).toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  private static String shorten(String s) {
    return s.length() <= 100 ? s : s.substring(0, 99) + "…";
  }

  /** The notes of a vault: wikilink targets and the blocks of each note's text. */
  interface Vault {
    /** Whether a wikilink target (a file name or a path, without extension) names a note. */
    boolean holds(String target);

    /**
     * The blocks of the note a target names (paragraphs, list items, table rows, headings), each on
     * one line; {@code null} for no such note.
     */
    List<String> blocks(String target);

    /** Text with its links made plain, as a quoted passage shows them. */
    static String plain(String s) {
      return s.replaceAll("\\[\\[([^\\]|]+)\\|([^\\]]+)]]", "$2")
          .replaceAll("\\[\\[([^\\]]+)]]", "$1")
          .replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1")
          .replaceAll("https?://([^/\\s)]+)[^\\s)]*", "$1");
    }

    /**
     * The blocks of a Markdown text, line-based: a blank line, a heading, a list item, a block
     * quote line or a table row starts a new block; front matter and code fences are left out.
     */
    static List<String> blocksOf(String text) {
      var out = new ArrayList<String>();
      var current = new StringBuilder();
      boolean fence = false;
      String[] lines = text.replace("\uFEFF", "").split("\\r?\\n");
      int i = 0;
      if (lines.length > 0 && lines[0].strip().equals("---")) {
        for (i = 1; i < lines.length && !lines[i].strip().equals("---"); i++) {}
        i++;
      }
      for (; i < lines.length; i++) {
        String l = lines[i].strip();
        if (l.startsWith("```") || l.startsWith("~~~")) {
          fence = !fence;
          flush(current, out);
          continue;
        }
        if (fence) {
          continue;
        }
        boolean starts =
            l.isEmpty() || l.matches("(#{1,6}|[-*+]|\\d{1,3}[.)]|>)(\\s.*)?") || l.startsWith("|");
        if (starts) {
          flush(current, out);
        }
        String content = l.replaceFirst("^(#{1,6}|[-*+]|\\d{1,3}[.)]|>)\\s+(\\[[ xX]]\\s+)?", "");
        if (!content.isEmpty()) {
          current.append(current.isEmpty() ? "" : " ").append(content);
        }
        if (l.startsWith("#") || l.startsWith("|")) {
          flush(current, out);
        }
      }
      flush(current, out);
      return out;
    }

    private static void flush(StringBuilder current, List<String> out) {
      if (!current.isEmpty()) {
        out.add(current.toString());
        current.setLength(0);
      }
    }
  }
}
