package dev.brain.index.importer;

import dev.brain.index.CorpusRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Reads a Netscape bookmark export (what every browser and Pinboard-like service writes) into one
 * {@code bm:} record per bookmark. The folder path is written into the text ({@code Folder: A / B})
 * rather than the tags: folders such as "Bookmarks bar" are places, not the user's tags.
 */
final class BookmarksImporter {

  private static final String DOCTYPE = "<!doctype netscape-bookmark-file-1>";

  private BookmarksImporter() {}

  /** True when the file starts with the Netscape bookmark doctype. */
  static boolean sniff(byte[] head) {
    String start = new String(head, StandardCharsets.UTF_8).stripLeading();
    if (start.startsWith("\uFEFF")) {
      start = start.substring(1).stripLeading();
    }
    return start.toLowerCase(Locale.ROOT).startsWith(DOCTYPE);
  }

  static ImportResult read(SourceFile file) throws ImportException {
    Document doc = HtmlImporter.parse(file);
    var records = new ArrayList<CorpusRecord>();
    var warnings = new ArrayList<String>();
    var seen = new HashSet<String>();
    int position = 0;
    for (Element a : doc.select("a")) {
      position++;
      String where = file.relativePath() + ": bookmark " + position;
      String href = a.attr("href").strip();
      String title = a.text().strip();
      if (!Keys.isWebUrl(href)) {
        warnings.add(where + " (" + describe(title, href) + ") skipped: not an http(s) URL");
        continue;
      }
      String key = Keys.bookmark(href);
      if (!seen.add(key)) {
        warnings.add(where + " (" + describe(title, href) + ") skipped: the same URL again");
        continue;
      }
      records.add(record(a, href, title, file));
    }
    return new ImportResult(records, warnings);
  }

  private static CorpusRecord record(Element a, String href, String title, SourceFile file) {
    String url = Keys.canonicalUrl(href);
    String shown = title.isEmpty() ? url : title;
    var text = new StringBuilder(shown);
    String description = description(a);
    if (!description.isEmpty()) {
      text.append("\n\n").append(description);
    }
    List<String> folders = folders(a);
    if (!folders.isEmpty()) {
      text.append("\n\nFolder: ").append(String.join(" / ", folders));
    }
    text.append("\n\n").append(url);
    return CorpusRecord.builder(
            Keys.bookmark(href), CorpusRecord.KIND_ITEM, "bookmark", text.toString())
        .title(shown)
        .url(url)
        .tags(Tags.normalizeAll(Arrays.asList(a.attr("tags").split(","))))
        // never the file's mtime: it would touch every record
        .createdAt(Dates.fromEpoch(a.attr("add_date")))
        .links(List.of(Keys.source(href)))
        .origin(file.origin())
        .build();
  }

  /** The {@code <DD>} after the bookmark's {@code <DT>}, if any. */
  private static String description(Element a) {
    Element dt = a.parent();
    if (dt == null || !dt.nameIs("dt")) {
      return "";
    }
    Element next = dt.nextElementSibling();
    return next != null && next.nameIs("dd") ? next.ownText().strip() : "";
  }

  /** The names of the folders around the bookmark, outermost first. */
  private static List<String> folders(Element a) {
    var names = new ArrayList<String>();
    for (Element ancestor : a.parents()) {
      Element dt = ancestor.nameIs("dl") ? ancestor.parent() : null;
      Element h3 = dt != null && dt.nameIs("dt") ? dt.selectFirst("> h3") : null;
      if (h3 != null && !h3.text().isBlank()) {
        names.add(0, h3.text().strip());
      }
    }
    return names;
  }

  private static String describe(String title, String href) {
    String s = title.isEmpty() ? href : title;
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }
}
