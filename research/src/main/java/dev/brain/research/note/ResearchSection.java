package dev.brain.research.note;

import dev.brain.chunking.BrainWritten;
import dev.brain.chunking.MarkdownNesting;
import dev.brain.research.note.NoteResearchException.Reason;
import java.util.ArrayList;
import java.util.List;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.Node;
import org.commonmark.node.SourceSpan;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * The {@code ## Research} section brain writes into a note, and how brain knows it wrote one.
 *
 * <p>Brain's section is marked: the line under its heading is {@code <!-- brain:research v1
 * sha256=<hex> -->} (the SHA-256 of the section's body, line endings read as LF) and the section
 * ends with the line {@code <!-- /brain:research -->}; HTML comments are hidden in Obsidian's
 * reading view. Headings and the markers are found with commonmark, so a {@code ## Research} inside
 * an HTML comment, a code fence, a list or a block quote is no heading. Brain replaces only a
 * marked section whose body still has its hash; any other {@code ## Research} section (written by
 * hand, by a brain without markers, or brain's but edited since) is replaced only when asked to, so
 * a user's text is never lost without a word. Every character outside the replaced span is kept.
 */
final class ResearchSection {
  private ResearchSection() {}

  static final String HEADING = "## Research";

  /**
   * How brain's start marker begins; the hash and {@code " -->"} follow. The index reads the same
   * string ({@link BrainWritten}) to keep brain's section out of the user's evidence.
   */
  static final String MARKER_PREFIX = BrainWritten.MARKER_PREFIX;

  /** The line that ends brain's section. */
  static final String END_MARKER = BrainWritten.END_MARKER;

  /**
   * Thread-safe: commonmark uses fresh state for every parse. Depth-capped like every Markdown
   * parser of brain, so a deeply nested note cannot overflow the stack.
   */
  private static final Parser PARSER =
      MarkdownNesting.parser().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();

  /** Start and end (exclusive) character offsets of the section, heading included. */
  record Span(int start, int end) {}

  /** Who a found section belongs to. */
  enum Owner {
    /** Marked by brain, body unchanged: brain may replace it. */
    BRAIN,
    /** Marked by brain, but the body no longer has the marker's hash: the user edited it. */
    EDITED,
    /** No marker: written by hand or by a brain that did not mark its sections. */
    UNMARKED
  }

  /**
   * A research section of a note.
   *
   * @param span what would be replaced: for a marked section up to the end of its end marker (the
   *     line break after it is kept); else up to the next heading of level 1 or 2 or the end
   * @param owner who wrote it
   * @param closed whether the span ends at an end marker
   */
  record Found(Span span, Owner owner, boolean closed) {}

  /**
   * Whether {@code note} holds a research section brain wrote and nobody changed since: the
   * heading, its marker with the body's hash, the body, the end marker. Such text is brain's
   * derived output, not the user's evidence.
   */
  static boolean isBrainWritten(String note) {
    Found found = find(note);
    return found != null && found.owner == Owner.BRAIN;
  }

  /**
   * The span of brain's own unchanged research section in {@code note} (heading to end marker, as
   * character offsets {@code [start, end)}), or {@code null} when there is none.
   */
  static int[] brainWrittenSpan(String note) {
    Found found = find(note);
    return found == null || found.owner != Owner.BRAIN
        ? null
        : new int[] {found.span.start, found.span.end};
  }

  /**
   * The research section of {@code text}: brain's own if there is one, else the first {@code
   * Research} heading of level 2 at the top level; {@code null} when there is none.
   */
  static Found find(String text) {
    int offset = BrainWritten.markdownStart(text);
    List<Node> top = children(PARSER.parse(text.substring(offset)));
    Found other = null;
    for (int i = 0; i < top.size(); i++) {
      if (!BrainWritten.isResearchHeading(top.get(i))) {
        continue;
      }
      Found found = at(text, offset, top, i);
      if (found.owner == Owner.BRAIN) {
        return found;
      }
      other = other == null ? found : other;
    }
    return other;
  }

  /** The note without its research section (for topic extraction: not the section replaced). */
  static String without(String text) {
    Found found = find(text);
    return found == null
        ? text
        : text.substring(0, found.span.start) + text.substring(found.span.end);
  }

  /**
   * The section brain writes for {@code content} (what goes under the heading): heading, marker
   * with the hash, content, end marker, and a final line break; lines end with LF.
   */
  static String compose(String content) {
    String body = "\n" + content.replace("\r\n", "\n").strip() + "\n\n";
    return HEADING
        + "\n"
        + MARKER_PREFIX
        + BrainWritten.bodyHash(body)
        + " -->\n"
        + body
        + END_MARKER
        + "\n";
  }

  /**
   * Refuses, naming what would be removed, when {@code text} has a research section brain may not
   * replace and {@code replace} was not asked for.
   *
   * @param note how to name the note in the message
   * @throws NoteResearchException of {@link Reason#CONFLICT}
   */
  static void requireReplaceable(String text, boolean replace, String note) {
    Found found = find(text);
    if (found == null || found.owner == Owner.BRAIN || replace) {
      return;
    }
    String old = text.substring(found.span.start, found.span.end);
    List<String> lines = old.lines().toList();
    String whose =
        found.owner == Owner.EDITED
            ? "a '## Research' section that brain wrote but that was edited since (its text no"
                + " longer matches brain's marker)"
            : "a '## Research' section that brain did not write (it has no brain marker: written"
                + " by hand, or by a brain version that did not mark its sections)";
    String first =
        String.join(
            " / ",
            lines.stream()
                .skip(1)
                .filter(l -> !l.isBlank())
                .limit(3)
                .map(l -> Sanitize.line(l, 80))
                .toList());
    throw new NoteResearchException(
        Reason.CONFLICT,
        note
            + " already has "
            + whose
            + "; writing would remove its "
            + lines.size()
            + (lines.size() == 1 ? " line" : " lines")
            + (first.isEmpty() ? "" : ", starting: " + first)
            + ". Nothing was written. Rename or move that heading to keep it, or run again with"
            + " --replace (\"replace\": true over HTTP and MCP) to replace it.",
        "replace");
  }

  /**
   * The note with {@code section} (from {@link #compose}) in place of the research section, or
   * appended after a blank line when there is none. Line breaks follow the note's.
   *
   * @throws NoteResearchException when the section is not brain's and {@code replace} is false, or
   *     when the section would not stand on its own in the note (for one, after an unclosed code
   *     fence or HTML comment)
   */
  static String replace(String text, String section, boolean replace, String note) {
    requireReplaceable(text, replace, note);
    String eol = text.contains("\r\n") ? "\r\n" : "\n";
    String block = section.replace("\r\n", "\n").stripTrailing().replace("\n", eol);
    Found found = find(text);
    String out;
    int start;
    if (found == null) {
      String before = text.isEmpty() || text.endsWith("\n") ? text : text + eol;
      before = before.isEmpty() ? before : before + eol;
      start = before.length();
      out = before + block + eol;
    } else {
      start = found.span.start;
      boolean more = found.span.end < text.length();
      String after = found.closed ? "" : eol + (more ? eol : "");
      out = text.substring(0, start) + block + after + text.substring(found.span.end);
    }
    Found written = find(out);
    if (written == null
        || written.owner != Owner.BRAIN
        || written.span.start != start
        || written.span.end != start + block.length()) {
      throw new NoteResearchException(
          Reason.INVALID_INPUT,
          "the research section would not stand on its own in "
              + note
              + " (does the note end inside an unclosed code fence or HTML comment, or does the"
              + " section hold brain's markers?); nothing was written",
          "path");
    }
    return out;
  }

  /**
   * {@code body} with every top-level heading of level 1 or 2 made level 3 (an ATX one keeps its
   * text, a setext one becomes ATX), so that nothing inside the section can end it.
   */
  static String demoteHeadings(String body) {
    var out = new StringBuilder();
    int pos = 0;
    for (Node node : children(PARSER.parse(body))) {
      if (!(node instanceof Heading h) || h.getLevel() > 2 || h.getSourceSpans().isEmpty()) {
        continue;
      }
      int start = lineStart(body, 0, h.getSourceSpans().getFirst().getInputIndex());
      SourceSpan last = h.getSourceSpans().getLast();
      int end = last.getInputIndex() + last.getLength();
      String raw = body.substring(start, end);
      List<String> lines = raw.lines().toList();
      String demoted =
          raw.stripLeading().startsWith("#")
              ? raw.replaceFirst("#{1,2}", "###")
              : "### " + String.join(" ", lines.subList(0, lines.size() - 1)).strip();
      out.append(body, pos, start).append(demoted);
      pos = end;
    }
    return out.append(body.substring(pos)).toString();
  }

  private static Found at(String text, int offset, List<Node> top, int i) {
    int start = lineStart(text, offset, first(top.get(i)));
    int sectionEnd = text.length();
    for (int j = i + 1; j < top.size(); j++) {
      if (top.get(j) instanceof Heading h && h.getLevel() <= 2) {
        sectionEnd = lineStart(text, offset, first(h));
        break;
      }
    }
    String hash =
        i + 1 < top.size() && top.get(i + 1) instanceof HtmlBlock html
            ? BrainWritten.markerHash(html.getLiteral())
            : null;
    if (hash == null) {
      return new Found(new Span(start, sectionEnd), Owner.UNMARKED, false);
    }
    int bodyStart = nextLineStart(text, offset + end(top.get(i + 1)));
    for (int j = i + 2; j < top.size(); j++) {
      Node node = top.get(j);
      if (node instanceof Heading h && h.getLevel() <= 2) {
        break;
      }
      if (node instanceof HtmlBlock html && html.getLiteral().strip().equals(END_MARKER)) {
        int bodyEnd = lineStart(text, offset, first(node));
        String body = text.substring(Math.min(bodyStart, bodyEnd), bodyEnd);
        boolean same = BrainWritten.bodyHash(body).equals(hash);
        return new Found(
            new Span(start, offset + end(node)), same ? Owner.BRAIN : Owner.EDITED, true);
      }
    }
    return new Found(new Span(start, sectionEnd), Owner.EDITED, false);
  }

  private static List<Node> children(Node parent) {
    var out = new ArrayList<Node>();
    for (Node c = parent.getFirstChild(); c != null; c = c.getNext()) {
      out.add(c);
    }
    return out;
  }

  private static int first(Node node) {
    return node.getSourceSpans().getFirst().getInputIndex();
  }

  private static int end(Node node) {
    SourceSpan last = node.getSourceSpans().getLast();
    return last.getInputIndex() + last.getLength();
  }

  /** The start of the line of {@code text} at {@code offset + index}, not before {@code offset}. */
  private static int lineStart(String text, int offset, int index) {
    int i = offset + index;
    while (i > offset && text.charAt(i - 1) != '\n' && text.charAt(i - 1) != '\r') {
      i--;
    }
    return i;
  }

  private static int nextLineStart(String text, int index) {
    int nl = text.indexOf('\n', index);
    return nl < 0 ? text.length() : nl + 1;
  }
}
