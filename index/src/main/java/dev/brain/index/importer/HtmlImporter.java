package dev.brain.index.importer;

import dev.brain.index.CorpusRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Comment;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Reads a saved web page into one {@code src:} record: the main text (the {@code <article>} or
 * {@code <main>} when the page has one, without navigation, headers, footers and asides), the
 * title, and the canonical URL the key is hashed from. A page that names no URL is keyed by its
 * path.
 */
final class HtmlImporter {

  /** Chrome/IE "saved from" and SingleFile comments, the URL of pages saved without a canonical. */
  private static final Pattern SAVED_FROM =
      Pattern.compile("(?:saved from url=\\(\\d+\\)|\\burl:\\s*)(https?://\\S+)");

  private static final String CHROME = "nav, header, footer, aside, [role=navigation]";

  private HtmlImporter() {}

  static ImportResult read(SourceFile file) throws ImportException {
    Document doc = parse(file);
    doc.select(HtmlText.NOISE).remove();
    String url = pageUrl(doc);
    String title = title(doc, file);
    String author = meta(doc, "meta[name=author]", "meta[property=article:author]");
    Instant published =
        Dates.parse(
            meta(
                doc,
                "meta[property=article:published_time]",
                "meta[itemprop=datePublished]",
                "meta[name=date]",
                "meta[name=dc.date]"));
    if (published == null) {
      Element time = doc.selectFirst("article time[datetime], main time[datetime]");
      published = time == null ? null : Dates.parse(time.attr("datetime"));
    }
    Element main = mainContent(doc);
    main.select(CHROME).remove();
    String text = HtmlText.of(main);
    var warnings = new ArrayList<String>();
    if (text.isEmpty()) {
      warnings.add(file.relativePath() + ": the page has no readable text; only its title is kept");
      text = title;
    }
    var record =
        CorpusRecord.builder(
                url != null
                    ? Keys.source(url)
                    : Keys.sourceFile(file.collection(), file.relativePath()),
                CorpusRecord.KIND_SOURCE,
                "web",
                text)
            .title(title)
            .url(url != null ? Keys.canonicalUrl(url) : null)
            .author(author)
            .createdAt(file.modified())
            .publishedAt(published)
            .origin(file.origin())
            .updatedAt(file.modified())
            .dateSource(CorpusRecord.DATE_FILE_TIME)
            .build();
    return new ImportResult(List.of(record), warnings);
  }

  /**
   * The file as a jsoup document, decoded as browsers do: by its byte-order mark, else by the
   * charset its {@code <meta>} declares, else as UTF-8. A page that declares UTF-16 without a
   * UTF-16 byte-order mark is read as UTF-8, as the HTML standard says: its declaration was
   * readable as ASCII, so it is no UTF-16 (jsoup alone would decode its bytes in pairs, to
   * gibberish).
   */
  static Document parse(SourceFile file) throws ImportException {
    try {
      Document doc = Jsoup.parse(file.file().toFile(), null);
      if (doc.charset().name().startsWith("UTF-16") && !file.hasUtf16Bom()) {
        doc = Jsoup.parse(file.file().toFile(), StandardCharsets.UTF_8.name());
      }
      return doc;
    } catch (IOException e) {
      throw file.unreadable(e);
    }
  }

  /** The page's own URL: canonical link, then og:url, then the saver's comment; only http(s). */
  private static String pageUrl(Document doc) {
    for (String candidate :
        List.of(
            doc.select("link[rel=canonical]").attr("href"),
            doc.select("meta[property=og:url]").attr("content"))) {
      if (Keys.isWebUrl(candidate)) {
        return candidate.strip();
      }
    }
    return doc.nodeStream(Comment.class)
        .map(comment -> SAVED_FROM.matcher(comment.getData()))
        .filter(Matcher::find)
        .map(m -> m.group(1))
        .findFirst()
        .orElse(null);
  }

  private static String title(Document doc, SourceFile file) {
    String title = doc.title();
    if (title.isBlank()) {
      title = doc.select("meta[property=og:title]").attr("content");
    }
    if (title.isBlank()) {
      Element h1 = doc.selectFirst("h1");
      title = h1 == null ? "" : h1.text();
    }
    return title.isBlank() ? file.baseName() : title.strip();
  }

  private static Element mainContent(Document doc) {
    Element best = null;
    for (Element article : doc.select("article")) {
      if (best == null || article.text().length() > best.text().length()) {
        best = article;
      }
    }
    if (best == null) {
      best = doc.selectFirst("main, [role=main]");
    }
    return best != null ? best : doc.body();
  }

  private static String meta(Document doc, String... selectors) {
    for (String selector : selectors) {
      String value = doc.select(selector).attr("content");
      if (!value.isBlank()) {
        return value.strip();
      }
    }
    return null;
  }
}
