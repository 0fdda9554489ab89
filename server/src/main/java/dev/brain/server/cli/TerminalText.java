package dev.brain.server.cli;

import java.io.PrintWriter;
import java.io.Writer;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Text from the corpus (a note's title, file name or body), from a trace or from a server made safe
 * for a terminal: control characters are shown escaped, never sent raw, so a note cannot retitle
 * the terminal, clear it or hide lines ({@code ESC]0;...BEL}, {@code ESC[2J}, a carriage return).
 * ESC shows as {@code \e}, line breaks, tabs and carriage returns as {@code \n}, {@code \t}, {@code
 * \r}, other C0 controls as {@code \xHH}, and DEL, the C1 controls and the Unicode controls that
 * reorder or break lines (bidirectional overrides and isolates, line and paragraph separators) as a
 * backslash, {@code u} and four hex digits: in {@code --json} output the JSON escape of the same
 * character. Every CLI text output goes through {@link #writer}; fields that are one line of a
 * listing (keys, titles, paths) also through {@link #line}, which escapes line breaks and tabs too.
 */
final class TerminalText {
  private TerminalText() {}

  /** The command's standard output through {@link #writer}. */
  static PrintWriter out(CommandSpec spec) {
    return writer(spec.commandLine().getOut());
  }

  /** The command's standard error through {@link #writer}. */
  static PrintWriter err(CommandSpec spec) {
    return writer(spec.commandLine().getErr());
  }

  /** {@code s} as one line: every control character escaped; null stays null. */
  static String line(String s) {
    return escape(s, false);
  }

  /** {@code s} with its line breaks and tabs kept and every other control character escaped. */
  static String text(String s) {
    return escape(s, true);
  }

  /**
   * A writer that prints everything through {@link #text} to {@code out}; its {@code println}
   * flushes {@code out}, as the CLI's own writers do, so nothing waits in a buffer at exit.
   */
  static PrintWriter writer(PrintWriter out) {
    return new PrintWriter(
        new Writer() {
          @Override
          public void write(char[] buf, int off, int len) {
            out.write(text(new String(buf, off, len)));
          }

          @Override
          public void flush() {
            out.flush();
          }

          @Override
          public void close() {
            out.flush();
          }
        },
        true);
  }

  private static String escape(String s, boolean keepLayout) {
    if (s == null) {
      return null;
    }
    int first = 0;
    while (first < s.length() && !escaped(s.charAt(first), keepLayout)) {
      first++;
    }
    if (first == s.length()) {
      return s;
    }
    var out = new StringBuilder(s.length() + 16).append(s, 0, first);
    for (int i = first; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!escaped(c, keepLayout)) {
        out.append(c);
        continue;
      }
      switch (c) {
        case '\u001b' -> out.append("\\e");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        // From DEL up as a JSON escape, so --json output stays valid JSON (Jackson writes these
        // raw); C0 never reaches JSON raw.
        default -> out.append(String.format(c < 0x20 ? "\\x%02x" : "\\u%04x", (int) c));
      }
    }
    return out.toString();
  }

  private static boolean escaped(char c, boolean keepLayout) {
    if (keepLayout && (c == '\n' || c == '\t')) {
      return false;
    }
    return Character.getType(c) == Character.CONTROL // C0, DEL and C1
        || c == '\u061c'
        || c == '\u200e'
        || c == '\u200f'
        || (c >= '\u202a' && c <= '\u202e')
        || (c >= '\u2066' && c <= '\u2069')
        || c == '\u2028'
        || c == '\u2029';
  }
}
