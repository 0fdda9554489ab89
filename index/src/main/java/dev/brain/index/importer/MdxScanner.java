package dev.brain.index.importer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/** Splits a line into text and JSX tags, without comments; code spans are text. */
final class MdxScanner {
  private final String s;
  private int i;
  private final List<Object> tokens = new ArrayList<>();
  private final StringBuilder text = new StringBuilder();

  private final boolean tagsMayContinue;

  private MdxScanner(String s, boolean tagsMayContinue) {
    this.s = s;
    this.tagsMayContinue = tagsMayContinue;
  }

  /**
   * The line's tokens (strings and tags), or null when a comment runs past its end, or a tag does
   * while {@code tagsMayContinue} (else the unclosed tag's '<' is text).
   */
  static List<Object> scan(String line, boolean tagsMayContinue) {
    var scanner = new MdxScanner(line, tagsMayContinue);
    return scanner.run() ? scanner.tokens : null;
  }

  private boolean run() {
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '`') {
        codeSpan();
      } else if (c == '{' && comment()) {
        continue;
      } else if (c == '{' && s.startsWith("/*", skipSpace(i + 1))) {
        return false; // a comment that closes on a later line
      } else if (c == '<' && tagStart(i)) {
        if (tagEnd() < 0) {
          if (tagsMayContinue) {
            return false;
          }
          text.append(c);
          i++;
        }
      } else {
        text.append(c);
        i++;
      }
    }
    if (!text.isEmpty() || tokens.isEmpty()) {
      tokens.add(text.toString());
    }
    return true;
  }

  /** A code span is text as it is; a backtick run without its closing run is literal. */
  private void codeSpan() {
    int run = i;
    while (run < s.length() && s.charAt(run) == '`') {
      run++;
    }
    String ticks = s.substring(i, run);
    int close = run;
    while ((close = s.indexOf(ticks, close)) >= 0) {
      int after = close + ticks.length();
      if (after >= s.length() || s.charAt(after) != '`') {
        text.append(s, i, after);
        i = after;
        return;
      }
      while (close < s.length() && s.charAt(close) == '`') {
        close++;
      }
    }
    text.append(ticks);
    i = run;
  }

  /** Drops a complete {@code {/* ... *&#47;}} at {@code i}; false if there is none. */
  private boolean comment() {
    int open = skipSpace(i + 1);
    if (!s.startsWith("/*", open)) {
      return false;
    }
    int end = s.indexOf("*/", open + 2);
    if (end < 0) {
      return false;
    }
    int brace = skipSpace(end + 2);
    if (brace >= s.length() || s.charAt(brace) != '}') {
      return false;
    }
    i = brace + 1;
    return true;
  }

  private int skipSpace(int from) {
    int j = from;
    while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
      j++;
    }
    return j;
  }

  /** {@code <Name}, {@code </Name}, {@code <>} or {@code </>}: a component, not HTML. */
  private boolean tagStart(int at) {
    int j = at + 1;
    if (j < s.length() && s.charAt(j) == '/') {
      j++;
    }
    return j < s.length() && (Character.isUpperCase(s.charAt(j)) || s.charAt(j) == '>');
  }

  /** Reads the tag at {@code i} into a token; -1 if it runs past the line. */
  private int tagEnd() {
    int j = i + 1;
    boolean closing = s.charAt(j) == '/';
    if (closing) {
      j++;
    }
    int nameStart = j;
    while (j < s.length() && isNamePart(s.charAt(j))) {
      j++;
    }
    String name = s.substring(nameStart, j);
    var attributes = new LinkedHashMap<String, String>();
    while (true) {
      j = skipSpace(j);
      if (j >= s.length()) {
        return -1;
      }
      char c = s.charAt(j);
      if (c == '>' || c == '/' && j + 1 < s.length() && s.charAt(j + 1) == '>') {
        MdxTag.Kind kind =
            closing ? MdxTag.Kind.CLOSE : c == '/' ? MdxTag.Kind.SELF_CLOSING : MdxTag.Kind.OPEN;
        if (!text.isEmpty()) {
          tokens.add(text.toString());
          text.setLength(0);
        }
        tokens.add(new MdxTag(name, kind, attributes));
        i = j + (c == '/' ? 2 : 1);
        return i;
      }
      if (c == '{') {
        j = balanced(j);
        if (j < 0) {
          return -1;
        }
        continue;
      }
      int keyStart = j;
      while (j < s.length() && isNamePart(s.charAt(j))) {
        j++;
      }
      if (j == keyStart) {
        j++; // a stray character: skipped, the tag still ends at its '>'
        continue;
      }
      String key = s.substring(keyStart, j);
      j = skipSpace(j);
      if (j >= s.length()) {
        return -1;
      }
      if (s.charAt(j) != '=') {
        continue; // a boolean attribute
      }
      j = skipSpace(j + 1);
      if (j >= s.length()) {
        return -1;
      }
      char q = s.charAt(j);
      if (q == '"' || q == '\'') {
        int end = s.indexOf(q, j + 1);
        if (end < 0) {
          return -1;
        }
        attributes.put(key, s.substring(j + 1, end).replaceAll("\\s+", " "));
        j = end + 1;
      } else if (q == '{') {
        j = balanced(j);
        if (j < 0) {
          return -1;
        }
      }
    }
  }

  /** The index after the brace block that opens at {@code from}, strings skipped; -1 if open. */
  private int balanced(int from) {
    int depth = 0;
    char quote = 0;
    for (int j = from; j < s.length(); j++) {
      char c = s.charAt(j);
      if (quote != 0) {
        if (c == '\\') {
          j++;
        } else if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'' || c == '`') {
        quote = c;
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return j + 1;
      }
    }
    return -1;
  }

  private static boolean isNamePart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.' || c == ':' || c == '$';
  }
}
