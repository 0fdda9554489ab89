package dev.brain.chunking;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.internal.HtmlBlockParser;
import org.commonmark.node.Block;
import org.commonmark.node.Document;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.Paragraph;
import org.commonmark.parser.SourceLine;
import org.commonmark.parser.block.AbstractBlockParser;
import org.commonmark.parser.block.AbstractBlockParserFactory;
import org.commonmark.parser.block.BlockContinue;
import org.commonmark.parser.block.BlockStart;
import org.commonmark.parser.block.MatchedBlockParser;
import org.commonmark.parser.block.ParserState;

/**
 * Top-level HTML blocks whose tables and lists hold blank lines, read whole. CommonMark ends an
 * HTML block such as {@code <div>} or {@code <table>} at the first blank line, but kramdown, Jekyll
 * and many sites write blank lines inside an element ({@code <td><p>}, a blank line, then its text
 * indented ten spaces): commonmark would split the element, reading the text between as an indented
 * code block or a stray paragraph, and an answer would quote half a table as code. Here a blank
 * line inside an element that holds HTML content ({@code <table>}, {@code <dl>}, {@code <ul>},
 * {@code <ol>}) does not end the block: the block runs on to the first blank line outside them, as
 * commonmark's own rule would without those blank lines. Only when the element's closing tag
 * (same-tag nesting counted) comes later and no line up to it opens a Markdown block at column 0 (a
 * heading, a fence, a list item, a quote): Markdown inside an element stays Markdown, and an
 * unclosed {@code <table>} does not swallow the rest of the text. Wrappers ({@code <div>}, {@code
 * <figure>}, {@code <details>}, a book's {@code <Listing>}) hold Markdown between blank lines, so
 * they keep commonmark's rule.
 *
 * <p>A factory reads one text: it looks ahead in it, which commonmark's parser state does not
 * offer. Lines are split as commonmark splits them; the parser must record source spans.
 */
final class HtmlContainers extends AbstractBlockParserFactory {

  /** An opening or closing tag of an element that holds HTML content. */
  private static final Pattern TAG =
      Pattern.compile("<(/?)(table|dl|ul|ol)(?=[\\s/>])", Pattern.CASE_INSENSITIVE);

  /** A line (at column 0) that opens a Markdown block: a heading, fence, list item or quote. */
  private static final Pattern MARKDOWN_BLOCK =
      Pattern.compile(
          "(?:#{1,6}(?:[ \\t]|$)|```|~~~|[-+*](?:[ \\t]|$)|\\d{1,9}[.)](?:[ \\t]|$)|>)");

  /** HTML blocks that end at a closing pattern, not at a blank line (CommonMark kinds 1-5). */
  private static final Pattern CLOSED_KINDS =
      Pattern.compile(
          "<(?:[!?]|(?:script|pre|style|textarea)(?:\\s|>|$))", Pattern.CASE_INSENSITIVE);

  private final String text;
  private final HtmlBlockParser.Factory commonmark = new HtmlBlockParser.Factory();
  private Lines lines;

  HtmlContainers(String text) {
    this.text = text;
  }

  /** Whether {@code text} holds a tag of such an element: else commonmark's own parser will do. */
  static boolean mayHold(String text) {
    return TAG.matcher(text).find();
  }

  @Override
  public BlockStart tryStart(ParserState state, MatchedBlockParser matched) {
    CharSequence line = state.getLine().getContent();
    int at = state.getNextNonSpaceIndex();
    if (state.getIndent() >= 4
        || at >= line.length()
        || line.charAt(at) != '<'
        || state.getLine().getSourceSpan() == null
        || !topLevel(matched.getMatchedBlockParser().getBlock())
        || CLOSED_KINDS.matcher(line).region(at, line.length()).lookingAt()
        || commonmark.tryStart(state, matched) == BlockStart.none()) {
      return BlockStart.none();
    }
    if (lines == null) {
      lines = new Lines(text);
    }
    int first = lines.lineOf(state.getLine().getSourceSpan().getInputIndex());
    int last = lines.end(first);
    return last == lines.blockEnd(first)
        ? BlockStart.none() // commonmark's own rule reads it the same
        : BlockStart.of(new Parser(last - first + 1)).atIndex(state.getIndex());
  }

  private static boolean topLevel(Block b) {
    return b instanceof Document || (b instanceof Paragraph && b.getParent() instanceof Document);
  }

  /** An HTML block of a known number of lines, blank lines among them. */
  private static final class Parser extends AbstractBlockParser {
    private final HtmlBlock block = new HtmlBlock();
    private final List<CharSequence> content = new ArrayList<>();
    private int remaining;

    Parser(int lines) {
      this.remaining = lines;
    }

    @Override
    public Block getBlock() {
      return block;
    }

    @Override
    public BlockContinue tryContinue(ParserState state) {
      return remaining > 0 ? BlockContinue.atIndex(state.getIndex()) : BlockContinue.none();
    }

    @Override
    public void addLine(SourceLine line) {
      content.add(line.getContent());
      remaining--;
    }

    @Override
    public void closeBlock() {
      block.setLiteral(String.join("\n", content)); // as commonmark joins an HTML block's lines
    }
  }

  /** The lines of a text, and its container elements' opening and closing lines. */
  private static final class Lines {
    private final int[] starts;
    private final boolean[] blank;

    /** How many lines before each line open a Markdown block at column 0. */
    private final int[] markdownBefore;

    /** Lines that open a container element closed later, in order, with their closing lines. */
    private final int[] opens;

    private final int[] closes;

    Lines(String text) {
      var startList = new ArrayList<Integer>();
      int start = 0;
      while (true) {
        startList.add(start);
        int br = -1;
        for (int i = start; i < text.length(); i++) {
          char c = text.charAt(i);
          if (c == '\n' || c == '\r') {
            br = i;
            break;
          }
        }
        if (br < 0) {
          break;
        }
        start = br + (text.startsWith("\r\n", br) ? 2 : 1);
      }
      int n = startList.size();
      starts = startList.stream().mapToInt(Integer::intValue).toArray();
      blank = new boolean[n];
      markdownBefore = new int[n + 1];
      Matcher markdown = MARKDOWN_BLOCK.matcher(text);
      for (int l = 0; l < n; l++) {
        int from = starts[l];
        int to = lineEnd(text, l);
        boolean empty = true;
        for (int i = from; i < to && empty; i++) {
          empty = text.charAt(i) == ' ' || text.charAt(i) == '\t';
        }
        blank[l] = empty;
        markdownBefore[l + 1] = markdownBefore[l] + (markdown.region(from, to).lookingAt() ? 1 : 0);
      }
      // Each closing tag closes the latest open element of its name: nesting counted.
      Map<String, ArrayDeque<Integer>> open = new HashMap<>();
      var pairs = new ArrayList<int[]>();
      Matcher m = TAG.matcher(text);
      while (m.find()) {
        var stack =
            open.computeIfAbsent(m.group(2).toLowerCase(Locale.ROOT), k -> new ArrayDeque<>());
        if (m.group(1).isEmpty()) {
          stack.push(m.start());
        } else if (!stack.isEmpty()) {
          pairs.add(new int[] {lineOf(stack.pop()), lineOf(m.start())});
        }
      }
      pairs.sort((a, b) -> Integer.compare(a[0], b[0]));
      opens = pairs.stream().mapToInt(p -> p[0]).toArray();
      closes = pairs.stream().mapToInt(p -> p[1]).toArray();
    }

    /** Where line {@code l} ends, before its line break. */
    private int lineEnd(String text, int l) {
      int end = l + 1 < starts.length ? starts[l + 1] : text.length();
      while (end > starts[l] && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
        end--;
      }
      return end;
    }

    int lineOf(int offset) {
      int i = Arrays.binarySearch(starts, offset);
      return i >= 0 ? i : -i - 2;
    }

    /** The last line of an HTML block from {@code first} by commonmark's rule: before a blank. */
    int blockEnd(int first) {
      int last = first;
      while (last + 1 < blank.length && !blank[last + 1]) {
        last++;
      }
      return last;
    }

    /**
     * The last line of an HTML block from {@code first} when blank lines inside a closed container
     * element do not end it.
     */
    int end(int first) {
      int from = first;
      int last = blockEnd(first);
      while (true) {
        int far = last;
        int i = Arrays.binarySearch(opens, from);
        i = i >= 0 ? firstOf(i) : -i - 1;
        for (; i < opens.length && opens[i] <= last; i++) {
          if (closes[i] > far && markdownBefore[closes[i] + 1] == markdownBefore[opens[i] + 1]) {
            far = closes[i];
          }
        }
        if (far == last) {
          return last;
        }
        from = last + 1;
        last = blockEnd(far);
      }
    }

    private int firstOf(int i) {
      while (i > 0 && opens[i - 1] == opens[i]) {
        i--;
      }
      return i;
    }
  }
}
