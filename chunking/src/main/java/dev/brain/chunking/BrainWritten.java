package dev.brain.chunking;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.node.Code;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.Node;
import org.commonmark.node.SourceSpan;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * The {@code ## Research} section that {@code brain note research} writes into a note, as the index
 * finds it: brain's derived text, never the user's notes. The section is the heading, the line
 * {@code <!-- brain:research v1 sha256=<hex> -->} (the SHA-256 of the body, line endings read as
 * LF), the body and the line {@code <!-- /brain:research -->}. Only a section whose body still has
 * the marker's hash counts: one the user edited since is the user's text. The research module
 * writes these markers with the same strings; this module is the lowest one both see.
 */
public final class BrainWritten {
  private BrainWritten() {}

  /** How brain's start marker begins; the hash and {@code " -->"} follow. */
  public static final String MARKER_PREFIX = "<!-- brain:research v1 sha256=";

  /** The line that ends brain's section. */
  public static final String END_MARKER = "<!-- /brain:research -->";

  private static final Pattern MARKER =
      Pattern.compile(Pattern.quote(MARKER_PREFIX) + "([0-9a-f]{64}) -->");

  /** Thread-safe: commonmark uses fresh state for every parse; depth-capped like every reader. */
  private static final Parser PARSER =
      MarkdownNesting.parser().includeSourceSpans(IncludeSourceSpans.BLOCKS).build();

  /**
   * Where brain's unchanged research section sits in {@code text} (heading to the end of its end
   * marker, character offsets {@code [start, end)}), or {@code null} when there is none. Found with
   * commonmark, so markers inside a code fence, a list or a block quote are not brain's section.
   */
  public static int[] span(String text) {
    if (!text.contains(END_MARKER)) {
      return null; // the common case, without a parse
    }
    int offset = markdownStart(text);
    String body = text.substring(offset);
    Node first = PARSER.parse(body).getFirstChild();
    for (Node node = first; node != null; node = node.getNext()) {
      if (!isResearchHeading(node)
          || !(node.getNext() instanceof HtmlBlock html)
          || html.getSourceSpans().isEmpty()) {
        continue;
      }
      String hash = markerHash(html.getLiteral());
      if (hash == null) {
        continue;
      }
      int bodyFrom = nextLineStart(body, end(html));
      for (Node n = html.getNext(); n != null; n = n.getNext()) {
        if (n instanceof Heading h && h.getLevel() <= 2) {
          break;
        }
        if (n instanceof HtmlBlock endBlock
            && !endBlock.getSourceSpans().isEmpty()
            && endBlock.getLiteral().strip().equals(END_MARKER)) {
          int bodyTo = lineStart(body, start(endBlock));
          String sectionBody = body.substring(Math.min(bodyFrom, bodyTo), bodyTo);
          if (bodyHash(sectionBody).equals(hash)) {
            return new int[] {offset + lineStart(body, start(node)), offset + end(endBlock)};
          }
          break;
        }
      }
    }
    return null;
  }

  /**
   * The hash a start marker carries ({@code <!-- brain:research v1 sha256=<hex> -->}, the HTML
   * block's literal), or {@code null} when {@code htmlLiteral} is no start marker.
   */
  public static String markerHash(String htmlLiteral) {
    Matcher marker = MARKER.matcher(htmlLiteral.strip());
    return marker.matches() ? marker.group(1) : null;
  }

  /** The hash a start marker gives for a section body: SHA-256 of it, line endings read as LF. */
  public static String bodyHash(String body) {
    return sha256(body.replace("\r\n", "\n"));
  }

  /** Whether {@code node} is a level-2 heading reading "Research" (any case, code spans too). */
  public static boolean isResearchHeading(Node node) {
    return node instanceof Heading h
        && h.getLevel() == 2
        && !h.getSourceSpans().isEmpty()
        && headingText(h).strip().equalsIgnoreCase("research");
  }

  private static String headingText(Node node) {
    var out = new StringBuilder();
    for (Node c = node.getFirstChild(); c != null; c = c.getNext()) {
      if (c instanceof Text t) {
        out.append(t.getLiteral());
      } else if (c instanceof Code code) {
        out.append(code.getLiteral());
      } else {
        out.append(headingText(c));
      }
    }
    return out.toString();
  }

  private static int start(Node node) {
    return node.getSourceSpans().getFirst().getInputIndex();
  }

  private static int end(Node node) {
    SourceSpan last = node.getSourceSpans().getLast();
    return last.getInputIndex() + last.getLength();
  }

  private static int lineStart(String text, int index) {
    int i = index;
    while (i > 0 && text.charAt(i - 1) != '\n' && text.charAt(i - 1) != '\r') {
      i--;
    }
    return i;
  }

  private static int nextLineStart(String text, int index) {
    int nl = text.indexOf('\n', index);
    return nl < 0 ? text.length() : nl + 1;
  }

  /** Where Markdown starts: after a byte order mark and a YAML front matter block. */
  public static int markdownStart(String text) {
    int start = text.startsWith("\uFEFF") ? 1 : 0;
    if (!firstLine(text, start).equals("---")) {
      return start;
    }
    int pos = nextLineStart(text, start);
    while (pos < text.length()) {
      String line = firstLine(text, pos);
      if (line.equals("---") || line.equals("...")) {
        return nextLineStart(text, pos);
      }
      pos = nextLineStart(text, pos);
    }
    return start;
  }

  private static String firstLine(String text, int from) {
    int nl = text.indexOf('\n', from);
    return text.substring(from, nl < 0 ? text.length() : nl).strip();
  }

  private static String sha256(String body) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }
}
