package dev.brain.index.importer;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The one normalization of user tags, shared by the importers and by anything that matches tags
 * (the exact-tag lane): lower-case, without a leading {@code #}, words joined by hyphens ({@code
 * "Home Espresso"}, {@code home_espresso} and {@code #home-espresso} are all {@code
 * home-espresso}). Obsidian's nested tags keep their slash ({@code coffee/espresso}).
 */
public final class Tags {

  private static final Pattern SEPARATORS = Pattern.compile("[\\s_\\-]+");
  private static final Pattern SLASH_SPACES = Pattern.compile("-?/-?");

  private Tags() {}

  /** The normalized tag, or the empty string when nothing is left of it. */
  public static String normalize(String tag) {
    String t = tag.strip();
    while (t.startsWith("#")) {
      t = t.substring(1);
    }
    t = SEPARATORS.matcher(t.toLowerCase(Locale.ROOT)).replaceAll("-");
    t = SLASH_SPACES.matcher(t).replaceAll("/");
    return trim(t, "-/");
  }

  /** Normalizes every tag, drops empty ones and duplicates, keeps first-seen order. */
  public static List<String> normalizeAll(Collection<String> tags) {
    var out = new LinkedHashSet<String>();
    for (String tag : tags) {
      String t = normalize(tag);
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return List.copyOf(out);
  }

  private static String trim(String s, String chars) {
    int start = 0;
    int end = s.length();
    while (start < end && chars.indexOf(s.charAt(start)) >= 0) {
      start++;
    }
    while (end > start && chars.indexOf(s.charAt(end - 1)) >= 0) {
      end--;
    }
    return s.substring(start, end);
  }
}
