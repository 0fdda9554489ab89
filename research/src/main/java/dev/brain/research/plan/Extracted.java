package dev.brain.research.plan;

import dev.brain.index.importer.Tags;
import dev.brain.research.plan.Words.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Explicit pieces taken out of the question before its words are read. */
final class Extracted {
  private static final Pattern QUOTED = Pattern.compile("[\"“”]([^\"“”]{2,120})[\"“”]");
  private static final Pattern KEY =
      Pattern.compile(
          "\\b(?:note:[^\\]\\n]+?\\.(?:md|markdown|txt)|(?:src|bm|feed-entry|doc):[\\w./#-]+)");
  private static final Pattern URL = Pattern.compile("https?://\\S+");
  private static final Pattern TAGGED =
      Pattern.compile("\\btagged(?: with| as)?\\s+#?([\\p{L}\\p{N}][\\p{L}\\p{N}/_-]*)");

  final List<String> quoted = new ArrayList<>();
  final List<String> keys = new ArrayList<>();
  final List<String> urls = new ArrayList<>();
  final List<String> tags = new ArrayList<>();
  final String rest;

  Extracted(String core) {
    String text = core;
    text = take(KEY, text, keys);
    text = take(URL, text, urls);
    Matcher q = QUOTED.matcher(text);
    while (q.find()) {
      quoted.add(q.group(1).strip());
    }
    text = QUOTED.matcher(text).replaceAll(" ");
    Matcher t = TAGGED.matcher(text);
    while (t.find()) {
      addTag(t.group(1));
    }
    text = TAGGED.matcher(text).replaceAll(" ");
    for (Token token : Words.tokens(text)) {
      if (token.hashtag()) {
        addTag(token.text());
      }
    }
    rest = text.replaceAll("#[\\p{L}\\p{N}][\\p{L}\\p{N}/_-]*", " ");
  }

  private void addTag(String raw) {
    String tag = Tags.normalize(raw);
    if (!tag.isEmpty() && !tags.contains(tag)) {
      tags.add(tag);
    }
  }

  private static String take(Pattern p, String text, List<String> into) {
    Matcher m = p.matcher(text);
    while (m.find()) {
      into.add(m.group());
    }
    return p.matcher(text).replaceAll(" ");
  }

  boolean hasLookup() {
    return !keys.isEmpty() || !urls.isEmpty();
  }
}
