package dev.brain.chunking;

import dev.brain.chunking.MarkdownBlocks.Unit;
import java.util.ArrayList;
import java.util.List;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableBody;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.node.Node;

/**
 * GFM tables read row by row, each row one statement: every cell after its column's header ({@code
 * Plan: Plus, Price: 8}), or in a table without header names the row's first cell before the rest
 * ({@code Dose: 18 g}).
 */
final class MarkdownTables {
  private MarkdownTables() {}

  /** The body rows of {@code table}, one unit each; rows with nothing in them are left out. */
  static List<Unit> rows(TableBlock table) {
    var out = new ArrayList<Unit>();
    List<Inline> header = new ArrayList<>();
    for (Node section = table.getFirstChild(); section != null; section = section.getNext()) {
      for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
        if (!(row instanceof TableRow)) {
          continue;
        }
        List<Inline> cells = new ArrayList<>();
        for (Node cell = row.getFirstChild(); cell != null; cell = cell.getNext()) {
          if (cell instanceof TableCell) {
            cells.add(Inline.of(cell));
          }
        }
        if (section instanceof TableHead) {
          header = cells;
        } else if (section instanceof TableBody) {
          Unit unit = row(header, cells);
          if (unit != null) {
            out.add(unit);
          }
        }
      }
    }
    return out;
  }

  private static Unit row(List<Inline> header, List<Inline> cells) {
    var links = new ArrayList<String>();
    var targets = new ArrayList<String>();
    for (Inline cell : cells) {
      links.addAll(cell.links());
      targets.addAll(cell.targets());
    }
    String text = statement(names(header, false), texts(cells, false));
    String markdown = statement(names(header, false), texts(cells, true));
    return text.isEmpty() ? null : new Unit(text, markdown, links, targets, 0, false);
  }

  private static List<String> names(List<Inline> header, boolean markdown) {
    return texts(header, markdown);
  }

  private static List<String> texts(List<Inline> cells, boolean markdown) {
    return cells.stream().map(c -> MarkdownText.strip(markdown ? c.markdown() : c.text())).toList();
  }

  /**
   * A row as one statement: each cell after its column's header ({@code Plan: Plus, Price: 8}), or
   * in a table without header names the row's first cell before the rest ({@code Dose: 18 g});
   * ending with one full stop.
   */
  static String statement(List<String> header, List<String> cells) {
    if (header.stream().allMatch(String::isBlank) && cells.size() > 1 && !cells.get(0).isBlank()) {
      String rest =
          String.join(
              ", ", cells.subList(1, cells.size()).stream().filter(c -> !c.isBlank()).toList());
      return stop(rest.isEmpty() ? cells.get(0) : cells.get(0) + ": " + rest);
    }
    var parts = new ArrayList<String>();
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      if (cell.isBlank()) {
        continue;
      }
      String name = i < header.size() ? header.get(i) : "";
      parts.add(name.isBlank() ? cell : name + ": " + cell);
    }
    return parts.isEmpty() ? "" : stop(String.join(", ", parts));
  }

  /** A statement ends with one full stop: a cell that ends a sentence has its own. */
  private static String stop(String statement) {
    return statement.endsWith(".") || statement.endsWith("!") || statement.endsWith("?")
        ? statement
        : statement + ".";
  }
}
