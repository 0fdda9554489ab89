package dev.brain.research.synthesis;

import dev.brain.chunking.MarkdownBlocks;
import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.chunking.MarkdownBlocks.Unit;
import java.util.ArrayList;
import java.util.List;

/**
 * How {@link Passages} shows a block other than a paragraph: a list, table or callout as Markdown
 * lines (a window around the pick when it is long), and a block a lead-in introduces, whole or not
 * at all.
 */
final class BlockLines {
  private BlockLines() {}

  /** Most lines of an introduced code block; a longer one is left out, never cut. */
  static final int CODE_LINES = 40;

  /** Most characters of an introduced code block. */
  static final int CODE_CHARS = 2400;

  /** Most items of a list (or rows of a table) shown; a longer one shows those around the pick. */
  static final int LIST_UNITS = 15;

  /** Most characters of a list shown. */
  static final int LIST_CHARS = 1500;

  /** A block introduced by a lead-in, whole, or null when it is too long to show whole. */
  static String introduced(Block block) {
    return switch (block.kind()) {
      case CODE -> {
        String code = block.units().getFirst().markdown();
        long lines = code.lines().count();
        // A listing the site includes from elsewhere ({{#include file.rs}}) shows no code here.
        yield lines <= CODE_LINES + 2
                && code.length() <= CODE_CHARS
                && !MarkdownBlocks.includes(block.units().getFirst().text())
            ? code
            : null;
      }
      case LIST, TABLE, QUOTE ->
          block.units().size() <= LIST_UNITS && chars(block) <= LIST_CHARS
              ? emptyAsNull(units(block, 0))
              : null;
      case PARAGRAPH -> {
        String text = block.units().getFirst().markdown();
        yield text.length() <= Passages.PARAGRAPH_CHARS ? text : null;
      }
      case HEADING -> null;
    };
  }

  /** Most lines of a code example shown under a paragraph without a lead-in. */
  static final int EXAMPLE_LINES = 12;

  /** Most characters of such an example. */
  static final int EXAMPLE_CHARS = 600;

  /**
   * A code block short enough to show as the example of the paragraph above it (no lead-in needed),
   * or null: a longer one, or one whose lines only stand for text kept elsewhere ({@code {{#include
   * file.rs}}}), says nothing the reader can use there.
   */
  static String example(Block block) {
    if (block.kind() != Kind.CODE) {
      return null;
    }
    Unit unit = block.units().getFirst();
    List<String> lines = unit.text().lines().filter(l -> !l.isBlank()).toList();
    return lines.isEmpty()
            || MarkdownBlocks.directives(unit.text())
            || lines.size() > EXAMPLE_LINES
            || unit.markdown().length() > EXAMPLE_CHARS
        ? null
        : unit.markdown();
  }

  /** {@code s}, or null when it is empty. */
  static String emptyAsNull(String s) {
    return s.isEmpty() ? null : s;
  }

  private static int chars(Block block) {
    return block.units().stream().mapToInt(u -> u.markdown().length()).sum();
  }

  /**
   * The units of a list, table or callout as Markdown lines: all of them when they fit, else a
   * window around unit {@code at}, marked with "…" where units were left out.
   */
  static String units(Block block, int at) {
    List<Unit> units = block.units();
    int from = 0;
    int to = units.size();
    if (units.size() > LIST_UNITS || chars(block) > LIST_CHARS) {
      // The pick and the units around it: one after, one before (at most a third of the window),
      // in turn while they fit, so that long items leave the pick's neighbours on both sides.
      from = at;
      to = at + 1;
      int used = units.get(at).markdown().length();
      boolean grew = true;
      while (grew && to - from < LIST_UNITS) {
        grew = false;
        if (to < units.size() && used + units.get(to).markdown().length() <= LIST_CHARS) {
          used += units.get(to).markdown().length();
          to++;
          grew = true;
        }
        if (from > 0
            && at - from < LIST_UNITS / 3
            && to - from < LIST_UNITS
            && used + units.get(from - 1).markdown().length() <= LIST_CHARS) {
          from--;
          used += units.get(from).markdown().length();
          grew = true;
        }
      }
    }
    var lines = new ArrayList<String>();
    if (block.kind() == Kind.QUOTE && !block.title().isEmpty()) {
      lines.add(block.title() + ":");
    }
    if (from > 0) {
      lines.add("…");
    }
    int number = block.firstNumber() + from;
    int shown = 0;
    for (int i = from; i < to; i++) {
      Unit u = units.get(i);
      int n = u.depth() == 0 ? number++ : 0;
      // An item that only points to another note ("Gear: Running shoes") says nothing here.
      if (u.code() || !Sentences.pointsElsewhere(u.text(), u.links())) {
        lines.add(line(block, u, n));
        shown++;
      }
    }
    if (shown == 0) {
      return "";
    }
    if (to < units.size()) {
      lines.add("…");
    }
    // A callout's paragraphs stay paragraphs; list items and table rows are lines.
    return String.join(block.kind() == Kind.QUOTE ? "\n\n" : "\n", lines);
  }

  /** One unit as a Markdown line: a list item with its marker, a table row as an item. */
  private static String line(Block block, Unit u, int number) {
    if (u.code()) {
      return u.markdown();
    }
    String indent = "  ".repeat(u.depth());
    return switch (block.kind()) {
      case LIST ->
          indent + (block.ordered() && u.depth() == 0 ? number + ". " : "- ") + u.markdown();
      case TABLE -> "- " + u.markdown();
      default -> u.markdown();
    };
  }
}
