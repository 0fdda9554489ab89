package dev.brain.index;

import dev.brain.index.importer.Keys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.QueryBuilder;

/**
 * Resolves stored links against the records an index holds, when they are read. An importer keys a
 * link from one file alone, so two kinds of link can name a key no record has:
 *
 * <ul>
 *   <li>a web address: a note's link to {@code https://...} is the {@code src:} key of the page,
 *       but the only record of that address may be its bookmark ({@code bm:}) or feed entry ({@code
 *       feed-entry:}), keyed by the same hash of the canonical URL. The link reaches that record: a
 *       saved page first, then the bookmark, then the feed entry;
 *   <li>a wikilink to a note its collection does not hold ({@code [[Kafka migration]]} in {@code
 *       papers} is keyed {@code note:papers/Kafka migration.md}, the note Obsidian would create).
 *       It reaches a note of that file name or title: in its own collection first, then in the
 *       others; the shortest path wins, as in Obsidian.
 * </ul>
 *
 * Resolving when read, not when synced, keeps a link right whichever collection syncs first and
 * when the note it names appears later, without re-reading the note that links.
 */
final class LinkResolver {
  private static final QueryBuilder TITLES = new QueryBuilder(new TextAnalyzer());

  /** Prefixes of the records of one web address, in the order a link to it prefers them. */
  private static final List<String> ADDRESS_PREFIXES = List.of("src:", "bm:", "feed-entry:");

  private static final Pattern URL = Pattern.compile("https?://[^\\s<>()\\[\\]\"'`]+");

  /** Punctuation that ends a sentence after an address, not the address. */
  private static final Pattern TRAILING_PUNCTUATION = Pattern.compile("[.,;:!?*_]+$");

  private static final Pattern HASH = Pattern.compile("[0-9a-f]{12}");

  private static final List<String> NOTE_EXTENSIONS = List.of(".md", ".markdown", ".mdx", ".txt");

  private final IndexSearcher searcher;

  LinkResolver(IndexSearcher searcher) {
    this.searcher = searcher;
  }

  /** Whether a record with this key exists. */
  boolean exists(String key) throws IOException {
    return searcher.count(byKey(key)) > 0;
  }

  /**
   * Each of {@code record}'s links with the record it reaches, or why it reaches none; a link that
   * reaches the record itself (a bookmark's own address when no page of it is saved) is left out.
   */
  List<RecordDetail.Link> links(CorpusRecord record) throws IOException {
    var out = new ArrayList<RecordDetail.Link>();
    Map<String, String> addresses = null;
    for (String link : record.links()) {
      String target = resolve(link);
      if (record.key().equals(target)) {
        continue;
      }
      if (target != null) {
        out.add(new RecordDetail.Link(link, target, null, null));
        continue;
      }
      if (addresses == null && link.startsWith("src:")) {
        addresses = addresses(record);
      }
      out.add(new RecordDetail.Link(link, null, text(link, addresses), why(link)));
    }
    return out;
  }

  /** The key of the record a stored link reaches, or null when the index holds none. */
  String resolve(String link) throws IOException {
    if (exists(link)) {
      return link;
    }
    String hash = addressHash(link);
    if (hash != null) {
      for (String prefix : ADDRESS_PREFIXES) {
        if (exists(prefix + hash)) {
          return prefix + hash;
        }
      }
      return null;
    }
    if (link.startsWith("note:") && link.indexOf('/') > 0) {
      List<String> found = named(collectionOf(link), pathOf(link), true);
      return found.isEmpty() ? null : found.get(0);
    }
    return null;
  }

  /**
   * The stored links, other than {@code record}'s key itself, that resolve to {@code record}: the
   * web address of a bookmark or feed entry, and wikilinks to a missing note that its file name or
   * title answers. Backlinks follow these as well as the links that name the key.
   */
  Set<String> linksResolvingTo(CorpusRecord record) throws IOException {
    var out = new LinkedHashSet<String>();
    String key = record.key();
    String hash = addressHash(key);
    if (hash != null && !key.startsWith("src:")) {
      String page = "src:" + hash;
      if (key.equals(resolve(page))) {
        out.add(page);
      }
    }
    if (!key.startsWith("note:") || record.path() == null) {
      return out;
    }
    String fileName = lower(fileName(record.path()));
    String title = record.title() == null ? "" : lower(record.title());
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Terms terms = leaf.reader().terms(IndexFields.LINKS);
      if (terms == null) {
        continue;
      }
      TermsEnum te = terms.iterator();
      if (te.seekCeil(new BytesRef("note:")) == TermsEnum.SeekStatus.END) {
        continue;
      }
      for (BytesRef term = te.term(); term != null; term = te.next()) {
        String link = term.utf8ToString();
        if (!link.startsWith("note:")) {
          break;
        }
        String name = lower(fileName(link));
        if (!link.equals(key)
            && (name.equals(fileName) || withoutExtension(name).equals(title))
            && key.equals(resolve(link))) {
          out.add(link);
        }
      }
    }
    return out;
  }

  /**
   * The keys a text that is not a key may mean, best first: a key of another kind for the same web
   * address, a note key for a path or title in another collection, the records of a URL, and the
   * records whose path ends with the text or whose title is the text.
   */
  List<String> keysFor(String text) throws IOException {
    String t = text.strip();
    var out = new LinkedHashSet<String>();
    String hash = Keys.isWebUrl(t) ? Keys.source(t).substring(4) : addressHash(t);
    if (hash != null) {
      for (String prefix : ADDRESS_PREFIXES) {
        if (exists(prefix + hash)) {
          out.add(prefix + hash);
        }
      }
    } else if (t.startsWith("note:") && t.indexOf('/') > 0) {
      out.addAll(named(collectionOf(t), pathOf(t), false));
    } else if (!t.isEmpty()) {
      out.addAll(named(null, t, false));
    }
    out.remove(t);
    return List.copyOf(out);
  }

  /**
   * Records named {@code name}: by the end of their path (with or without a note extension,
   * case-insensitive), then by title; those of {@code collection} first, then shorter paths.
   */
  private List<String> named(String collection, String name, boolean notesOnly) throws IOException {
    String wanted = lower(name.replace('\\', '/'));
    while (wanted.startsWith("/") || wanted.startsWith("./")) {
      wanted = wanted.substring(wanted.startsWith("/") ? 1 : 2);
    }
    if (wanted.isEmpty()) {
      return List.of();
    }
    var matches = new ArrayList<Match>();
    String bare = withoutExtension(wanted);
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Terms terms = leaf.reader().terms(IndexFields.PATH);
      if (terms == null) {
        continue;
      }
      TermsEnum te = terms.iterator();
      for (BytesRef term = te.next(); term != null; term = te.next()) {
        String path = term.utf8ToString();
        String p = lower(path);
        if (endsWithPath(p, wanted) || endsWithPath(withoutExtension(p), bare)) {
          for (String key : keysWhere(new TermQuery(new Term(IndexFields.PATH, path)))) {
            matches.add(new Match(key, path, 0, collection));
          }
        }
      }
    }
    if (!bare.contains("/")) {
      Query words = TITLES.createBooleanQuery(IndexFields.TITLE, bare, Occur.MUST);
      if (words != null) {
        for (ScoreDoc hit : searchRecords(words)) {
          var doc = searcher.storedFields().document(hit.doc);
          String title = doc.get(IndexFields.TITLE);
          if (title != null && lower(title.strip()).equals(bare)) {
            String path = doc.get(IndexFields.PATH);
            matches.add(
                new Match(doc.get(IndexFields.KEY), path == null ? "" : path, 1, collection));
          }
        }
      }
    }
    var keys = new LinkedHashSet<String>();
    matches.stream()
        .filter(m -> !notesOnly || m.key().startsWith("note:"))
        .sorted(Match.ORDER)
        .forEach(m -> keys.add(m.key()));
    return List.copyOf(keys);
  }

  /** A record found by name; {@code by} is 0 for its path, 1 for its title. */
  private record Match(String key, String path, int by, String preferred) {
    static final Comparator<Match> ORDER =
        Comparator.comparing((Match m) -> m.preferred() == null || !m.inPreferred())
            .thenComparingInt(Match::by)
            .thenComparingInt(m -> m.path().split("/").length)
            .thenComparingInt(m -> m.path().length())
            .thenComparing(Match::key);

    boolean inPreferred() {
      return key.startsWith("note:" + preferred + "/");
    }
  }

  private List<String> keysWhere(Query query) throws IOException {
    var keys = new ArrayList<String>();
    for (ScoreDoc hit : searchRecords(query)) {
      keys.add(searcher.storedFields().document(hit.doc, Set.of(IndexFields.KEY)).get("key"));
    }
    return keys;
  }

  private ScoreDoc[] searchRecords(Query query) throws IOException {
    Query q =
        new BooleanQuery.Builder()
            .add(IndexReads.recordsQuery(), Occur.FILTER)
            .add(query, Occur.FILTER)
            .build();
    return searcher.search(q, 50).scoreDocs;
  }

  private Query byKey(String key) {
    return new BooleanQuery.Builder()
        .add(IndexReads.recordsQuery(), Occur.FILTER)
        .add(new TermQuery(new Term(IndexFields.KEY, key)), Occur.FILTER)
        .build();
  }

  /**
   * What the note names for an unresolved link: the wikilink's name, or the web address ({@code
   * addresses}: the record's web addresses by their {@code src:} key).
   */
  private static String text(String link, Map<String, String> addresses) {
    if (link.startsWith("note:") && link.indexOf('/') > 0) {
      return withoutExtension(pathOf(link));
    }
    if (link.startsWith("src:") && addresses != null) {
      return addresses.getOrDefault(link, link);
    }
    return link;
  }

  /**
   * The web addresses a record's text writes, each by its {@code src:} key (the first one of a
   * key): read once per record, not once per link (a changelog links thousands of pull requests).
   */
  private static Map<String, String> addresses(CorpusRecord record) {
    var out = new HashMap<String, String>();
    if (record.text() == null) {
      return out;
    }
    Matcher m = URL.matcher(record.text());
    while (m.find()) {
      String url = TRAILING_PUNCTUATION.matcher(m.group()).replaceAll("");
      out.putIfAbsent(Keys.source(url), url);
    }
    return out;
  }

  private static String why(String link) {
    if (link.startsWith("note:")) {
      return "no note of this name in any collection";
    }
    if (addressHash(link) != null) {
      return "no saved page, bookmark or feed entry of this address in the index";
    }
    return "no record with this key";
  }

  /** The 12 hex digits of a web-address key ({@code src:}, {@code bm:}, {@code feed-entry:}). */
  private static String addressHash(String key) {
    for (String prefix : ADDRESS_PREFIXES) {
      if (key.startsWith(prefix)
          && HASH.matcher(key).region(prefix.length(), key.length()).matches()) {
        return key.substring(prefix.length());
      }
    }
    return null;
  }

  private static String collectionOf(String noteKey) {
    return noteKey.substring("note:".length(), noteKey.indexOf('/'));
  }

  private static String pathOf(String noteKey) {
    return noteKey.substring(noteKey.indexOf('/') + 1);
  }

  private static boolean endsWithPath(String path, String wanted) {
    return path.equals(wanted) || path.endsWith("/" + wanted);
  }

  private static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  private static String withoutExtension(String name) {
    for (String ext : NOTE_EXTENSIONS) {
      if (lower(name).endsWith(ext)) {
        return name.substring(0, name.length() - ext.length());
      }
    }
    return name;
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
