package dev.brain.research.note;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Topics of a note without a model, in a fixed order: section headings, questions the note asks,
 * key phrases (bold text), the notes it links to, then its tags. Duplicates (ignoring case) are
 * dropped; the same note always gives the same topics.
 */
final class TopicExtractor {
  private TopicExtractor() {}

  private static final Pattern HEADING =
      Pattern.compile("(?m)^ {0,3}(#{1,6})[ \\t]+(.+?)[ \\t#]*$");
  private static final Pattern BOLD = Pattern.compile("\\*\\*([^*\\n]{3,80})\\*\\*");
  private static final Pattern WIKILINK =
      Pattern.compile("\\[\\[([^\\]|#\\n]+)(?:[#|][^\\]\\n]*)?]]");
  private static final Pattern MD_LINK =
      Pattern.compile("(?<!!)\\[([^\\]\\n]{3,80})]\\([^)\\s]+\\)");
  private static final Pattern TAG =
      Pattern.compile("(?<![\\w#/&])#([\\p{L}][\\p{L}\\p{N}_/-]{1,40})");
  private static final Pattern QUESTION =
      Pattern.compile("(?m)^[ \\t>*-]*([^\\n#]{8,200}\\?)[ \\t]*$");
  private static final Pattern FRONT_MATTER =
      Pattern.compile("\\A---\\r?\\n(.*?)\\r?\\n---\\r?\\n", Pattern.DOTALL);
  private static final Pattern FM_TAGS =
      Pattern.compile("(?m)^tags:[ \\t]*(?:\\[([^\\]]*)]|(.*))$((?:\\r?\\n[ \\t]*-[ \\t]*.+)*)");
  private static final Pattern FM_TITLE =
      Pattern.compile("(?m)^title:[ \\t]*[\"']?(.+?)[\"']?[ \\t]*$");
  private static final Pattern FENCED =
      Pattern.compile("(?ms)^ {0,3}(```|~~~).*?^ {0,3}\\1[^\\n]*$");

  /** Every topic found, in order, before any cap. */
  static List<Topic> extract(String note, String fallbackTitle) {
    String text = ResearchSection.without(note);
    String frontMatter = "";
    Matcher fm = FRONT_MATTER.matcher(text);
    if (fm.find()) {
      frontMatter = fm.group(1);
      text = text.substring(fm.end());
    }
    text = FENCED.matcher(text).replaceAll("");
    String title = title(frontMatter, text, fallbackTitle);
    var topics = new LinkedHashMap<String, Topic>();
    headings(text, title, topics);
    matches(QUESTION, text, topics, "question", text);
    matches(BOLD, text, topics, "claim", text);
    matches(WIKILINK, text, topics, "concept", text);
    matches(MD_LINK, text, topics, "concept", text);
    String said = TAG.matcher(text).replaceAll(" ").toLowerCase(Locale.ROOT);
    for (String tag : tags(frontMatter, text)) {
      String label = tag.replace('-', ' ').replace('/', ' ').replace('_', ' ');
      if (namesTopic(label, said)) {
        add(topics, label, "tagged #" + tag, "concept");
      }
    }
    if (topics.isEmpty() && !title.isBlank()) {
      add(topics, title, firstSentence(text), "concept");
    }
    return List.copyOf(topics.values());
  }

  /**
   * Whether a tag names a topic of the note: each of its words of three letters or more occurs in
   * the note's own text (tags left out), as a word or its start ({@code book} in "books"). A tag
   * that files the note ({@code #daily}, {@code #moc}, {@code #book} on a project note) is no
   * topic: researched, it would quote lines that only share the word ("Dentist: book the
   * check-up").
   */
  static boolean namesTopic(String tag, String said) {
    var words = new ArrayList<String>();
    for (String w : tag.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (w.length() >= 3) {
        words.add(w);
      }
    }
    return !words.isEmpty()
        && words.stream()
            .allMatch(
                w ->
                    Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(w)).matcher(said).find());
  }

  /** The note's title: front matter, else its first level-1 heading, else the file name. */
  static String title(String frontMatter, String text, String fallback) {
    Matcher t = FM_TITLE.matcher(frontMatter);
    if (t.find()) {
      return t.group(1).strip();
    }
    Matcher h = HEADING.matcher(text);
    while (h.find()) {
      if (h.group(1).length() == 1) {
        return clean(h.group(2));
      }
    }
    return fallback;
  }

  private static void headings(String text, String title, Map<String, Topic> topics) {
    Matcher h = HEADING.matcher(text);
    while (h.find()) {
      String heading = clean(h.group(2));
      if (h.group(1).length() == 1 || heading.equalsIgnoreCase(title)) {
        continue;
      }
      String label =
          heading.toLowerCase(Locale.ROOT).contains(title.toLowerCase(Locale.ROOT))
              ? heading
              : title + ": " + heading;
      add(topics, label, firstSentence(text.substring(h.end())), "concept");
    }
  }

  private static void matches(
      Pattern p, String text, Map<String, Topic> topics, String type, String source) {
    Matcher m = p.matcher(text);
    while (m.find()) {
      add(topics, clean(m.group(1)), lineAround(source, m.start()), type);
    }
  }

  private static List<String> tags(String frontMatter, String text) {
    var out = new ArrayList<String>();
    Matcher fm = FM_TAGS.matcher(frontMatter);
    if (fm.find()) {
      String inline = fm.group(1) != null ? fm.group(1) : fm.group(2);
      String list = inline == null ? "" : inline;
      list += "," + fm.group(3).replaceAll("\\r?\\n[ \\t]*-[ \\t]*", ",");
      for (String t : list.split(",")) {
        String tag = t.strip().replaceAll("^[\"'#]+|[\"']+$", "");
        if (!tag.isEmpty()) {
          out.add(tag.toLowerCase(Locale.ROOT));
        }
      }
    }
    Matcher m = TAG.matcher(text);
    while (m.find()) {
      out.add(m.group(1).toLowerCase(Locale.ROOT));
    }
    return out;
  }

  private static void add(Map<String, Topic> topics, String label, String context, String type) {
    String topic = Sanitize.line(label, Sanitize.MAX_TOPIC_CHARS);
    if (topic.length() < 3 || !topic.matches(".*\\p{L}.*")) {
      return;
    }
    topics.putIfAbsent(
        topic.toLowerCase(Locale.ROOT),
        new Topic(topic, Sanitize.line(context, Sanitize.MAX_CONTEXT_CHARS), type));
  }

  private static String clean(String s) {
    return s.replaceAll("\\[\\[([^\\]|]+)\\|?([^\\]]*)]]", "$1").replaceAll("[*_`]", "").strip();
  }

  private static String firstSentence(String text) {
    for (String line : text.split("\\r?\\n")) {
      String l = line.strip();
      if (l.matches("#{1,6}(\\s.*)?")) {
        return "";
      }
      if (l.isEmpty()) {
        continue;
      }
      String s = clean(l.replaceFirst("^[-*>]\\s*", ""));
      int dot = s.indexOf(". ");
      return dot > 0 ? s.substring(0, dot + 1) : s;
    }
    return "";
  }

  private static String lineAround(String text, int at) {
    int start = text.lastIndexOf('\n', at) + 1;
    int end = text.indexOf('\n', at);
    return clean(
        text.substring(start, end < 0 ? text.length() : end).replaceFirst("^\\s*[-*>]\\s*", ""));
  }

  /** Words of {@code focus} worth matching: three letters or more, not filler. */
  static Set<String> focusWords(String focus) {
    var out = new java.util.LinkedHashSet<String>();
    for (String w : focus.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (w.length() >= 3 && !FILLER.contains(w)) {
        out.add(w);
      }
    }
    return out;
  }

  private static final Set<String> FILLER =
      Set.of("the", "and", "for", "with", "about", "what", "how", "why", "from", "that", "this");

  /**
   * Topics that share a word with {@code focus} (label or context); when none does, the focus
   * itself as the one topic.
   */
  static List<Topic> narrow(List<Topic> topics, String focus) {
    Set<String> words = focusWords(focus);
    var kept = new ArrayList<Topic>();
    for (Topic t : topics) {
      String hay = (t.topic() + " " + t.context()).toLowerCase(Locale.ROOT);
      if (words.stream().anyMatch(w -> hay.matches("(?s).*\\b" + Pattern.quote(w) + ".*"))) {
        kept.add(t);
      }
    }
    if (kept.isEmpty()) {
      kept.add(
          new Topic(
              Sanitize.line(focus, Sanitize.MAX_TOPIC_CHARS), "the focus asked for", "question"));
    }
    return kept;
  }
}
