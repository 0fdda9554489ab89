package dev.brain.chunking;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Markdown as the text a reader sees, on one line: retrieval cuts excerpts from it, so no Markdown
 * syntax reaches an excerpt. It is the text of {@link MarkdownBlocks}, block after block: headings
 * and callout titles, paragraphs, list items, table rows read as statements, code blocks' contents
 * without their fences, the captions of HTML blocks; links and wikilinks as their visible text,
 * images, the rest of HTML and emphasis markers as nothing.
 */
public final class MarkdownText {

  private MarkdownText() {}

  /** Source types whose stored text is plain text (a PDF's text layer, a transcript). */
  private static final Set<String> PLAIN_TEXT_TYPES = Set.of("pdf", "transcript");

  /**
   * Whether a record of {@code sourceType} stores Markdown (notes, and text converted from HTML or
   * feeds) rather than plain text with hard line breaks (PDFs, transcripts).
   */
  public static boolean isMarkdown(String sourceType) {
    return !PLAIN_TEXT_TYPES.contains(sourceType);
  }

  /**
   * The text a reader sees in {@code text}, on one line: with {@code markdown}, its blocks' text
   * joined by spaces; otherwise the plain text with whitespace runs collapsed, without the {@code
   * #} marks of headings when it marks them ({@link MarkdownBlocks#ofPlainText}).
   */
  public static String visibleText(String text, boolean markdown) {
    if (text == null) {
      return "";
    }
    if (!markdown && text.indexOf('#') < 0) {
      return strip(text);
    }
    var parts = new ArrayList<String>();
    for (MarkdownBlocks.Block block : MarkdownBlocks.of(text, markdown)) {
      if (!block.title().isEmpty()) {
        parts.add(block.title());
      }
      block.units().forEach(u -> parts.add(strip(u.text())));
    }
    return String.join(" ", parts);
  }

  /**
   * The path a link destination names: without its {@code #anchor} or {@code ?query},
   * percent-decoded ({@code Plantar%20fasciitis.md} names {@code Plantar fasciitis.md}; a {@code +}
   * stays a plus); a {@code %} that is no escape is kept as written.
   */
  public static String linkPath(String destination) {
    String path = destination.split("[#?]", 2)[0];
    try {
      return URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return path; // a literal "%" in a file name
    }
  }

  /** One attribute of an attribute list: {@code #id}, {@code .class} or {@code key=value}. */
  private static final String ATTRIBUTE =
      "(?:[#.][\\w-]++|[\\w-]++=(?:\"[^\"]*+\"|'[^']*+'|[^\\s}\"'][^\\s}]*+))";

  /** An attribute list: {@code {#id .class key=value}}, kramdown's {@code {: #id .class}}. */
  private static final String ATTRIBUTES =
      "\\{:?[ \\t]*+" + ATTRIBUTE + "(?:[ \\t]++" + ATTRIBUTE + ")*+[ \\t]*+}";

  /**
   * An attribute list closing a heading's Markdown, as kramdown, Pandoc, PHP Markdown Extra and
   * Python-Markdown write it: {@code ## Type layout {#type-layout}}. Not one in a code span: the
   * Markdown keeps its backticks ({@code ## Pretty hex `{:#x}`}).
   */
  private static final Pattern HEADING_ATTRIBUTES =
      Pattern.compile("[ \\t]++" + ATTRIBUTES + "[ \\t]*+$");

  /** A kramdown block attribute list, a line of its own: {@code {: .note .info}}. */
  private static final Pattern BLOCK_ATTRIBUTES =
      Pattern.compile("[ \\t]*+" + ATTRIBUTES + "[ \\t]*+");

  /** Longest line read for an attribute list: they are short, and a long line stays text. */
  private static final int MAX_ATTRIBUTES_LINE = 400;

  /**
   * The length of the attribute list (with the white space before it) closing {@code markdown}, a
   * heading's Markdown; 0 when there is none, or when it is all the heading is ({@code {#each
   * ...}}, a Svelte block).
   */
  static int headingAttributes(String markdown) {
    if (markdown.indexOf('{') < 0 || markdown.length() > MAX_ATTRIBUTES_LINE) {
      return 0;
    }
    Matcher m = HEADING_ATTRIBUTES.matcher(markdown);
    return m.find() && !markdown.substring(0, m.start()).isBlank()
        ? markdown.length() - m.start()
        : 0;
  }

  /**
   * Whether {@code line} is a kramdown block attribute list alone ({@code {: .note .info}} on the
   * line above or below a paragraph, which the site turns into a class and does not show).
   */
  static boolean blockAttributes(String line) {
    return line.startsWith("{:")
        && line.length() <= MAX_ATTRIBUTES_LINE
        && BLOCK_ATTRIBUTES.matcher(line).matches();
  }

  /** Whitespace runs as one space, trimmed. */
  static String strip(String s) {
    // Called for every rendered unit, often on text that is stripped already (a row's excerpt
    // strips units the block parser stripped): such text is returned as it is, after one scan.
    if (isStripped(s)) {
      return s;
    }
    var out = new StringBuilder(s.length());
    boolean space = false;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (isSpace(ch)) {
        space = !out.isEmpty();
      } else {
        if (space) {
          out.append(' ');
          space = false;
        }
        out.append(ch);
      }
    }
    return out.toString();
  }

  /** Whether {@link #strip} would return {@code s} unchanged. */
  private static boolean isStripped(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char ch = s.charAt(i);
      if (isSpace(ch) && (ch != ' ' || i == 0 || i == n - 1 || s.charAt(i + 1) == ' ')) {
        return false;
      }
    }
    return true;
  }

  private static boolean isSpace(char ch) {
    return Character.isWhitespace(ch) || ch == '\u00A0';
  }
}
