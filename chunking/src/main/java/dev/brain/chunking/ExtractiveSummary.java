package dev.brain.chunking;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a long text is about, in its own words: the opening statement (its first sentence), an
 * outline (each section's heading path with the section's first sentence), and the terms it defines
 * ({@code X is a ...} as a paragraph's first sentence); then, for every section over {@value
 * #LONG_SECTION_TOKENS} tokens, a section summary of its own (its path and the first sentence of
 * each of its paragraphs). Made from the blocks {@link MarkdownBlocks} reads, so it shows what a
 * reader sees (no Markdown syntax). Deterministic: the same text always gives the same summary.
 * Only texts of at least {@value #MIN_PARAGRAPHS} paragraphs or {@value #MIN_WORDS} words get one;
 * a shorter text is its own summary. A text whose summary would be its opening statement alone (a
 * long abstract of one paragraph) gets none unless a section is over the limit: its first chunk
 * already says that. Sections over {@value #LONG_SECTION_TOKENS} characters are counted with the
 * token counter; over eight times that they are taken as long without counting.
 *
 * @param text the summary: the record summary, then each section summary, separated by blank lines
 * @param parts where each summary lies in {@code text}: the record summary first (absent when it
 *     would be the opening alone), then each long section's
 */
public record ExtractiveSummary(String text, List<Part> parts) {

  /** Version of these rules; part of the index's chunking signature. Bump when output changes. */
  public static final String VERSION = "extractive-v5";

  /** Paragraphs (prose, list, quote or table blocks) that make a text long enough. */
  public static final int MIN_PARAGRAPHS = 4;

  /** Words (outside code) that make a text long enough, however few its paragraphs. */
  public static final int MIN_WORDS = 300;

  /** Tokens above which a section gets a summary of its own. */
  public static final int LONG_SECTION_TOKENS = 1_500;

  /** Most outline lines. */
  private static final int MAX_LINES = 40;

  /** Most lead sentences of a section summary. */
  private static final int MAX_LEADS = 12;

  /** Most defined terms. */
  private static final int MAX_TERMS = 20;

  /** Longest sentence kept whole; a longer one is cut at a word and ends with an ellipsis. */
  private static final int MAX_SENTENCE_CHARS = 300;

  /** "Lucene is a ...", "A posting list is the ...", "BM25 refers to a ...". */
  private static final Pattern DEFINITION =
      Pattern.compile(
          "^(?:(?:A|An|The)\\s+)?(\\p{L}[\\p{L}\\p{N}+#.\\-]*(?:\\s+[\\p{L}\\p{N}][\\p{L}\\p{N}+#.\\-]*){0,3})"
              + "\\s+(?:is|are|means|refers to)\\s+(?:a|an|the|one)\\s");

  /**
   * One summary in {@link #text()}.
   *
   * @param start first character in the summary text
   * @param end after its last character
   * @param headingPath the section a section summary is of; empty for the record summary
   */
  public record Part(int start, int end, List<String> headingPath) {
    public Part {
      headingPath = List.copyOf(headingPath);
    }
  }

  public ExtractiveSummary {
    parts = List.copyOf(parts);
  }

  /**
   * The summary of {@code text}, or empty when it is too short to need one (or has no sentence).
   *
   * @param markdown whether {@code text} is Markdown (else plain text: paragraphs between blank
   *     lines)
   * @param counter counts the tokens of sections long enough to be worth counting
   */
  static Optional<ExtractiveSummary> of(String text, boolean markdown, TokenCounter counter) {
    List<MarkdownBlocks.Block> blocks = MarkdownBlocks.of(text, markdown);
    if (!longEnough(blocks)) {
      return Optional.empty();
    }
    List<Section> sections = sections(blocks);
    String opening = opening(blocks);
    var out = new StringBuilder();
    if (!opening.isEmpty()) {
      out.append(opening);
    }
    appendOutline(out, sections);
    appendTerms(out, blocks);
    if (out.length() == opening.length()) {
      out.setLength(0); // the opening alone: the text's first chunk says as much
    }
    var parts = new ArrayList<Part>();
    if (!out.isEmpty()) {
      parts.add(new Part(0, out.length(), List.of()));
    }
    for (Section section : sections) {
      String summary = sectionSummary(text, section, counter);
      if (summary != null) {
        separate(out);
        int start = out.length();
        out.append(summary);
        parts.add(new Part(start, out.length(), section.path()));
      }
    }
    return parts.isEmpty()
        ? Optional.empty()
        : Optional.of(new ExtractiveSummary(out.toString(), parts));
  }

  /** Whether a text of these blocks is long enough to get a summary. */
  static boolean longEnough(List<MarkdownBlocks.Block> blocks) {
    int paragraphs = 0;
    int words = 0;
    for (MarkdownBlocks.Block b : blocks) {
      if (b.kind() == MarkdownBlocks.Kind.CODE) {
        continue;
      }
      if (b.kind() != MarkdownBlocks.Kind.HEADING) {
        paragraphs++;
      }
      words += wordCount(b.text());
    }
    return paragraphs >= MIN_PARAGRAPHS || words >= MIN_WORDS;
  }

  /** The blocks under one heading (or before the first), in text order. */
  private record Section(List<String> path, List<MarkdownBlocks.Block> blocks) {
    int start() {
      return blocks.getFirst().start();
    }

    int end() {
      return blocks.getLast().end();
    }

    /** The blocks a reader reads as running text: not the heading, not code. */
    List<MarkdownBlocks.Block> prose() {
      return blocks.stream()
          .filter(b -> b.kind() != MarkdownBlocks.Kind.HEADING)
          .filter(b -> b.kind() != MarkdownBlocks.Kind.CODE)
          .toList();
    }

    /** The lead sentence of each block of running text, at most {@code max}, in order. */
    List<String> leads(int max) {
      var out = new ArrayList<String>();
      for (int i = 0; i < blocks.size() && out.size() < max; i++) {
        MarkdownBlocks.Kind kind = blocks.get(i).kind();
        if (kind != MarkdownBlocks.Kind.HEADING && kind != MarkdownBlocks.Kind.CODE) {
          String lead = lead(blocks, i);
          if (!lead.isEmpty()) {
            out.add(lead);
          }
        }
      }
      return out;
    }
  }

  private static List<Section> sections(List<MarkdownBlocks.Block> blocks) {
    var out = new ArrayList<Section>();
    List<String> path = List.of();
    var current = new ArrayList<MarkdownBlocks.Block>();
    for (MarkdownBlocks.Block b : blocks) {
      if (b.kind() == MarkdownBlocks.Kind.HEADING) {
        if (!current.isEmpty()) {
          out.add(new Section(path, List.copyOf(current)));
        }
        current.clear();
        var next = new ArrayList<>(b.headingPath());
        next.add(b.text());
        path = List.copyOf(next);
      }
      current.add(b);
    }
    if (!current.isEmpty()) {
      out.add(new Section(path, List.copyOf(current)));
    }
    return out;
  }

  /** The first sentence of the first paragraph (else of the first block of running text). */
  private static String opening(List<MarkdownBlocks.Block> blocks) {
    for (int i = 0; i < blocks.size(); i++) {
      if (blocks.get(i).kind() == MarkdownBlocks.Kind.PARAGRAPH) {
        String sentence = lead(blocks, i);
        if (!sentence.isEmpty()) {
          return sentence;
        }
      }
    }
    return "";
  }

  /**
   * The first sentence of {@code blocks[i]}; when it is a lead-in (it ends the block with a colon:
   * "I settled on:", "run the following update script:") the first thing it introduces follows it,
   * so the line says what the section says rather than that it is about to say it.
   */
  private static String lead(List<MarkdownBlocks.Block> blocks, int i) {
    MarkdownBlocks.Block b = blocks.get(i);
    String sentence = firstSentence(b.text());
    if (!sentence.endsWith(":")
        || !b.text().strip().endsWith(sentence)
        || i + 1 == blocks.size()
        || blocks.get(i + 1).kind() == MarkdownBlocks.Kind.HEADING) {
      return sentence;
    }
    MarkdownBlocks.Block next = blocks.get(i + 1);
    String first = next.units().isEmpty() ? "" : next.units().getFirst().text().strip();
    if (next.kind() == MarkdownBlocks.Kind.CODE) {
      first = first.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
      first = first.isEmpty() ? "" : "`" + first + "`";
    } else {
      first = firstSentence(first);
    }
    return first.isEmpty() ? sentence : firstSentence(sentence + " " + first);
  }

  private static void appendOutline(StringBuilder out, List<Section> sections) {
    var lines = new ArrayList<String>();
    int root = rootHeadings(sections);
    for (Section section : sections) {
      if (section.path().size() <= root || lines.size() == MAX_LINES) {
        continue;
      }
      String lead = section.leads(1).stream().findFirst().orElse("");
      String path = String.join(" > ", section.path().subList(root, section.path().size()));
      lines.add(lead.isEmpty() ? "- " + path : "- " + path + ": " + lead);
    }
    if (lines.isEmpty()) {
      return;
    }
    separate(out);
    out.append("Outline:\n").append(String.join("\n", lines));
  }

  /**
   * 1 when every section sits under one top heading (a note's title as its {@code #} heading), else
   * 0: the outline leaves that heading out, so the title is not repeated on every line (where it
   * would outweigh the rest for keyword search), and its own section's lead is the opening.
   */
  private static int rootHeadings(List<Section> sections) {
    String top = null;
    for (Section section : sections) {
      if (section.path().isEmpty() && section.prose().isEmpty()) {
        continue; // only front matter or blank lines before the title
      }
      if (section.path().isEmpty() || (top != null && !top.equals(section.path().getFirst()))) {
        return 0;
      }
      top = section.path().getFirst();
    }
    return top == null ? 0 : 1;
  }

  private static void appendTerms(StringBuilder out, List<MarkdownBlocks.Block> blocks) {
    Set<String> terms = new LinkedHashSet<>();
    for (MarkdownBlocks.Block b : blocks) {
      if (b.kind() != MarkdownBlocks.Kind.PARAGRAPH || terms.size() == MAX_TERMS) {
        continue;
      }
      Matcher m = DEFINITION.matcher(firstSentence(b.text()));
      if (m.find()) {
        terms.add(m.group(1));
      }
    }
    if (terms.isEmpty()) {
      return;
    }
    separate(out);
    out.append("Terms: ").append(String.join("; ", terms)).append('.');
  }

  /**
   * A long section's summary, {@code Path: lead. lead. ...}, or {@code null} when the section is
   * not over {@value #LONG_SECTION_TOKENS} tokens.
   */
  private static String sectionSummary(String text, Section section, TokenCounter counter) {
    int start = section.start();
    int end = section.end();
    if (!overTokenLimit(text, start, end, counter)) {
      return null;
    }
    List<String> leads = section.leads(MAX_LEADS);
    if (leads.isEmpty()) {
      return null;
    }
    String body = String.join(" ", leads);
    return section.path().isEmpty() ? body : String.join(" > ", section.path()) + ": " + body;
  }

  /**
   * Whether {@code [start, end)} is over {@value #LONG_SECTION_TOKENS} tokens. A token spans at
   * least one character and rarely more than eight, so only sections in between are counted: a huge
   * section costs no tokenizer pass.
   */
  private static boolean overTokenLimit(String text, int start, int end, TokenCounter counter) {
    int chars = end - start;
    if (chars <= LONG_SECTION_TOKENS) {
      return false;
    }
    return chars > 8 * LONG_SECTION_TOKENS
        || counter.count(text.substring(start, end)) > LONG_SECTION_TOKENS;
  }

  private static void separate(StringBuilder out) {
    if (!out.isEmpty()) {
      out.append("\n\n");
    }
  }

  /** The first sentence of one line of visible text, cut at a word if very long. */
  static String firstSentence(String line) {
    String s = line.strip();
    if (s.isEmpty()) {
      return s;
    }
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ROOT);
    it.setText(s);
    int end = it.next();
    String sentence = s.substring(0, end == BreakIterator.DONE ? s.length() : end).strip();
    if (sentence.length() <= MAX_SENTENCE_CHARS) {
      return sentence;
    }
    int cut = sentence.lastIndexOf(' ', MAX_SENTENCE_CHARS);
    return sentence.substring(0, cut > 0 ? cut : MAX_SENTENCE_CHARS).strip() + "…";
  }

  private static int wordCount(String s) {
    int words = 0;
    boolean inWord = false;
    for (int i = 0; i < s.length(); i++) {
      boolean space = Character.isWhitespace(s.charAt(i));
      if (!space && !inWord) {
        words++;
      }
      inWord = !space;
    }
    return words;
  }
}
