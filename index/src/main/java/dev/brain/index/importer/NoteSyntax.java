package dev.brain.index.importer;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The note syntax that Markdown itself does not know: Obsidian {@code #tags}, {@code [[wikilinks]]}
 * and bare URLs. Callers pass text with code and link destinations already blanked out, so what
 * these patterns see is prose.
 */
final class NoteSyntax {

  /**
   * A tag starts at the beginning of a line or after whitespace, so URL fragments ({@code
   * page#part}), {@code C#} and Markdown anchors {@code (#part)} are not tags; headings need a
   * space after {@code #} and so never match.
   */
  private static final Pattern TAG =
      Pattern.compile("(?<![^\\s])#([\\p{L}\\p{N}_][\\p{L}\\p{N}_/\\-]*)");

  private static final Pattern ALL_DIGITS = Pattern.compile("[0-9/\\-]+");

  /**
   * {@code [[target]]}, {@code [[target|alias]]}, {@code [[target#heading]]}, {@code ![[embed]]}.
   */
  private static final Pattern WIKILINK = Pattern.compile("!?\\[\\[([^\\[\\]\\n]+?)]]");

  private static final Pattern URL = Pattern.compile("https?://[^\\s<>\\[\\]()\"'`{}|\\\\^]+");

  private static final Pattern OBSIDIAN_COMMENT = Pattern.compile("%%.*?%%", Pattern.DOTALL);

  private NoteSyntax() {}

  /** The raw inline tags in order of appearance (not yet normalized). */
  static List<String> inlineTags(CharSequence text) {
    var tags = new ArrayList<String>();
    Matcher m = TAG.matcher(text);
    while (m.find()) {
      String tag = m.group(1);
      // Obsidian: a tag needs at least one character that is not a digit.
      if (!ALL_DIGITS.matcher(tag).matches()) {
        tags.add(tag);
      }
    }
    return tags;
  }

  /**
   * The targets of the wikilinks, without alias, heading or block reference ({@code [[Note#Part|
   * shown]]} gives {@code Note}); links to a heading of the same note are left out.
   */
  static List<String> wikilinkTargets(CharSequence text) {
    var targets = new ArrayList<String>();
    Matcher m = WIKILINK.matcher(text);
    while (m.find()) {
      String target = m.group(1);
      target = cut(target, '|');
      // Inside tables Obsidian writes the alias bar escaped: [[Note\|alias]].
      if (target.endsWith("\\")) {
        target = target.substring(0, target.length() - 1);
      }
      target = cut(cut(target, '#'), '^').strip();
      if (!target.isEmpty()) {
        targets.add(target);
      }
    }
    return targets;
  }

  /** Bare http(s) URLs, without trailing sentence punctuation. */
  static List<String> bareUrls(CharSequence text) {
    var urls = new ArrayList<String>();
    Matcher m = URL.matcher(text);
    while (m.find()) {
      String url = m.group();
      int end = url.length();
      while (end > 0 && ".,;:!?*_~".indexOf(url.charAt(end - 1)) >= 0) {
        end--;
      }
      urls.add(url.substring(0, end));
    }
    return urls;
  }

  /** Blanks out Obsidian {@code %%comments%%}, keeping offsets. */
  static void blankComments(StringBuilder text) {
    Matcher m = OBSIDIAN_COMMENT.matcher(text);
    while (m.find()) {
      blank(text, m.start(), m.end());
    }
  }

  /** Replaces a range with spaces, keeping newlines so line starts stay line starts. */
  static void blank(StringBuilder text, int start, int end) {
    for (int i = Math.max(0, start); i < Math.min(end, text.length()); i++) {
      if (text.charAt(i) != '\n') {
        text.setCharAt(i, ' ');
      }
    }
  }

  private static String cut(String s, char at) {
    int i = s.indexOf(at);
    return i >= 0 ? s.substring(0, i) : s;
  }
}
