package dev.brain.index.importer;

import com.rometools.rome.feed.synd.SyndCategory;
import com.rometools.rome.feed.synd.SyndContent;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.feed.synd.SyndLink;
import com.rometools.rome.io.FeedException;
import com.rometools.rome.io.SyndFeedInput;
import com.rometools.rome.io.XmlReader;
import dev.brain.index.CorpusRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;

/**
 * Reads an RSS (0.9x, 1.0, 2.0) or Atom feed file into one {@code feed-entry:} record per entry,
 * with Rome. An {@code .xml} file whose root is not a feed is skipped as unsupported. A DOCTYPE is
 * read (RSS 0.91 feeds have one) but no external DTD or entity is ever loaded, and a feed whose
 * DOCTYPE declares entities of its own (an internal subset) fails before Rome reads it.
 */
final class FeedImporter {

  private static final Set<String> FEED_ROOTS = Set.of("rss", "feed", "RDF");

  private static final XMLInputFactory XML = secureFactory();

  private FeedImporter() {}

  static ImportResult read(SourceFile file) throws ImportException {
    file.requireText(file.head());
    requireFeedRoot(file);
    SyndFeed feed;
    try (InputStream in = Files.newInputStream(file.file());
        XmlReader reader = new XmlReader(in)) {
      var input = new SyndFeedInput();
      // RSS 0.91 feeds carry Netscape's DOCTYPE. Rome reads a DOCTYPE without loading the DTD it
      // names or any external entity (its SAX features and entity resolver see to that); one with
      // an internal subset, whose entities Rome would expand, was refused by requireFeedRoot.
      input.setAllowDoctypes(true);
      feed = input.build(reader);
    } catch (FeedException | IllegalArgumentException e) {
      throw ImportException.malformed(
          file.file(), "not a valid RSS or Atom feed: " + file.file() + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw file.unreadable(e);
    }
    var records = new ArrayList<CorpusRecord>();
    var warnings = new ArrayList<String>();
    var seen = new HashSet<String>();
    int position = 0;
    for (SyndEntry entry : feed.getEntries()) {
      position++;
      String where = file.relativePath() + ": entry " + position;
      String link = link(entry);
      String id = link != null ? link : blankToNull(entry.getUri());
      if (id == null) {
        warnings.add(where + " skipped: it has neither a link nor a guid to key it by");
        continue;
      }
      CorpusRecord record = record(feed, entry, link, id, file);
      if (!seen.add(record.key())) {
        warnings.add(where + " skipped: the same entry again (" + id + ")");
        continue;
      }
      records.add(record);
    }
    return new ImportResult(records, warnings);
  }

  private static CorpusRecord record(
      SyndFeed feed, SyndEntry entry, String link, String id, SourceFile file) {
    String title = textOf(entry.getTitle());
    String body = body(entry);
    if (title.isEmpty()) {
      title = body.isEmpty() ? file.baseName() : firstWords(body);
    }
    var tags = new ArrayList<String>();
    for (SyndCategory category : entry.getCategories()) {
      if (category.getName() != null) {
        tags.add(category.getName());
      }
    }
    return CorpusRecord.builder(
            Keys.feedEntry(id), CorpusRecord.KIND_ITEM, "feed_entry", body.isEmpty() ? title : body)
        .title(title)
        .url(link != null ? Keys.canonicalUrl(link) : null)
        .author(author(feed, entry))
        .tags(Tags.normalizeAll(tags))
        // no createdAt: when the entry was saved is unknown; the feed file's mtime would touch
        // every entry
        .publishedAt(
            instant(
                entry.getPublishedDate() != null
                    ? entry.getPublishedDate()
                    : entry.getUpdatedDate()))
        .links(link != null ? List.of(Keys.source(link)) : List.of())
        .origin(file.origin())
        .build();
  }

  /** Fails unless the first element is {@code <rss>}, {@code <feed>} or {@code <rdf:RDF>}. */
  private static void requireFeedRoot(SourceFile file) throws ImportException {
    try (InputStream in = Files.newInputStream(file.file())) {
      XMLStreamReader reader = XML.createXMLStreamReader(in);
      try {
        while (reader.hasNext()) {
          int event = reader.next();
          if (event == XMLStreamConstants.DTD && hasInternalSubset(reader.getText())) {
            throw ImportException.malformed(
                file.file(),
                "not read: "
                    + file.file()
                    + " declares entities in its DOCTYPE (an internal subset in [ ]), which"
                    + " could expand without bound; a feed's DOCTYPE may only name its DTD",
                null);
          }
          if (event == XMLStreamConstants.START_ELEMENT) {
            String root = reader.getLocalName();
            if (FEED_ROOTS.contains(root)) {
              return;
            }
            throw ImportException.unsupported(
                file.file(),
                "XML root <"
                    + root
                    + "> is not an RSS or Atom feed; brain reads only feeds as XML");
          }
        }
      } finally {
        reader.close();
      }
      throw ImportException.malformed(file.file(), "no XML element in " + file.file(), null);
    } catch (XMLStreamException e) {
      throw ImportException.malformed(
          file.file(), "not well-formed XML: " + file.file() + ": " + e.getMessage(), e);
    } catch (IOException e) {
      throw file.unreadable(e);
    }
  }

  /**
   * Whether a DOCTYPE declaration has an internal subset: a {@code [} outside its quoted public and
   * system identifiers. Rome expands the entities declared there (billion laughs: ~100 MB of heap
   * within the JDK's default limits); RSS 0.91's Netscape DOCTYPE has none.
   */
  private static boolean hasInternalSubset(String doctype) {
    return doctype.replaceAll("\"[^\"]*\"|'[^']*'", "").indexOf('[') >= 0;
  }

  private static String link(SyndEntry entry) {
    if (Keys.isWebUrl(entry.getLink())) {
      return entry.getLink().strip();
    }
    for (SyndLink l : entry.getLinks()) {
      if (Keys.isWebUrl(l.getHref()) && (l.getRel() == null || l.getRel().equals("alternate"))) {
        return l.getHref().strip();
      }
    }
    return Keys.isWebUrl(entry.getUri()) ? entry.getUri().strip() : null;
  }

  /** The longer of the entry's content and description, as readable text. */
  private static String body(SyndEntry entry) {
    var html = new StringBuilder();
    for (SyndContent content : entry.getContents()) {
      if (content.getValue() != null) {
        html.append(content.getValue()).append('\n');
      }
    }
    String description = entry.getDescription() == null ? null : entry.getDescription().getValue();
    if (description != null && description.length() > html.length()) {
      return htmlToText(description);
    }
    return htmlToText(html.toString());
  }

  private static String author(SyndFeed feed, SyndEntry entry) {
    if (entry.getAuthor() != null && !entry.getAuthor().isBlank()) {
      return entry.getAuthor().strip();
    }
    if (!entry.getAuthors().isEmpty() && entry.getAuthors().get(0).getName() != null) {
      return entry.getAuthors().get(0).getName().strip();
    }
    if (feed.getAuthor() != null && !feed.getAuthor().isBlank()) {
      return feed.getAuthor().strip();
    }
    return feed.getAuthors().isEmpty() ? null : blankToNull(feed.getAuthors().get(0).getName());
  }

  static String htmlToText(String html) {
    Element body = Jsoup.parseBodyFragment(html).body();
    body.select(HtmlText.NOISE).remove();
    return HtmlText.of(body);
  }

  private static String textOf(String maybeHtml) {
    return maybeHtml == null ? "" : Jsoup.parseBodyFragment(maybeHtml).text().strip();
  }

  private static String firstWords(String text) {
    String line = text.lines().findFirst().orElse("");
    return line.length() > 80 ? line.substring(0, 80) + "..." : line;
  }

  private static Instant instant(Date date) {
    return date == null ? null : date.toInstant();
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }

  private static XMLInputFactory secureFactory() {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    return factory;
  }
}
