package dev.brain.research.synthesis;

import dev.brain.research.pack.ResearchPack;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.SourceSpan;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * Reads the citations of an answer: bracketed record keys such as {@code [note:coffee/Niche
 * Zero.md]} or {@code [src:ada2743d1b19]}, several in one bracket separated by {@code ;} or {@code
 * ,}. URLs in brackets, {@code [[wikilinks]]} and brackets inside code (a quoted {@code
 * #[tauri::command]} attribute, an array in an example) are not citations.
 */
final class Citations {
  private Citations() {}

  private static final Pattern BRACKET = Pattern.compile("\\[([^\\[\\]\\n]{1,400})]");

  /** A prefix, one colon and the rest: {@code note:…}, never a path such as {@code std::fmt}. */
  private static final Pattern KEY_LIKE = Pattern.compile("^[a-z][a-z0-9_-]{0,20}:[^\\s:].*");

  private static final Pattern SEPARATOR =
      Pattern.compile("\\s*;\\s*|\\s*,\\s*(?=[a-z][a-z0-9_-]{0,20}:)");
  private static final Set<String> NOT_KEYS = Set.of("http", "https", "mailto", "ftp", "file");
  private static final Parser MARKDOWN =
      Parser.builder().includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES).build();

  /** The citations of an answer: every cited key, with the pack row's details when it has one. */
  static List<Citation> of(ResearchPack pack, String answer) {
    var out = new ArrayList<Citation>();
    for (String key : keys(answer)) {
      out.add(pack.find(key).map(Citation::of).orElseGet(() -> Citation.unknown(key)));
    }
    return out;
  }

  /** The keys cited in {@code answer}, in order of first citation, without duplicates. */
  static List<String> keys(String answer) {
    var keys = new LinkedHashSet<String>();
    for (String inner : brackets(answer)) {
      for (String part : SEPARATOR.split(inner)) {
        String key = part.strip();
        if (isKey(key)) {
          keys.add(key);
        }
      }
    }
    return List.copyOf(keys);
  }

  /** Bracketed texts that are not keys (for spotting keys cited without their prefix). */
  static List<String> nonKeys(String answer) {
    var out = new ArrayList<String>();
    for (String inner : brackets(answer)) {
      for (String part : SEPARATOR.split(inner)) {
        String s = part.strip();
        if (!s.isEmpty() && !isKey(s)) {
          out.add(s);
        }
      }
    }
    return out;
  }

  private static List<String> brackets(String answer) {
    var out = new ArrayList<String>();
    if (answer == null) {
      return out;
    }
    List<SourceSpan> code = code(answer);
    Matcher m = BRACKET.matcher(answer);
    while (m.find()) {
      if (inside(code, m.start())) {
        continue;
      }
      boolean wikilink =
          m.start() > 0 && answer.charAt(m.start() - 1) == '['
              || m.end() < answer.length() && answer.charAt(m.end()) == ']';
      boolean markdownLink = m.end() < answer.length() && answer.charAt(m.end()) == '(';
      if (!wikilink && !markdownLink) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  /** Where the answer's code blocks and code spans are, as commonmark reads the Markdown. */
  private static List<SourceSpan> code(String answer) {
    if (answer.indexOf('`') < 0 && answer.indexOf("    ") < 0 && answer.indexOf('~') < 0) {
      return List.of();
    }
    var spans = new ArrayList<SourceSpan>();
    MARKDOWN
        .parse(answer)
        .accept(
            new AbstractVisitor() {
              @Override
              public void visit(FencedCodeBlock block) {
                spans.addAll(block.getSourceSpans());
              }

              @Override
              public void visit(IndentedCodeBlock block) {
                spans.addAll(block.getSourceSpans());
              }

              @Override
              public void visit(Code code) {
                spans.addAll(code.getSourceSpans());
              }
            });
    return spans;
  }

  private static boolean inside(List<SourceSpan> spans, int index) {
    for (SourceSpan span : spans) {
      if (index >= span.getInputIndex() && index < span.getInputIndex() + span.getLength()) {
        return true;
      }
    }
    return false;
  }

  private static boolean isKey(String s) {
    if (!KEY_LIKE.matcher(s).matches()) {
      return false;
    }
    String prefix = s.substring(0, s.indexOf(':')).toLowerCase(Locale.ROOT);
    return !NOT_KEYS.contains(prefix);
  }
}
