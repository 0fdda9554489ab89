package dev.brain.index.importer;

import dev.brain.index.CorpusRecord;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Set;

/**
 * Builds the stable, prefixed record keys every module shares, and the canonical form of URLs they
 * are hashed from. The same URL saved as a page, a bookmark and a note link yields the same {@code
 * src:} key, so the records meet in the link graph.
 *
 * <p>Canonical URL: scheme {@code http} becomes {@code https}, host lower-case without {@code
 * www.}, no default port, no fragment, no {@code utm_*} or click-tracking parameters ({@code
 * fbclid}, {@code gclid}, {@code ref}, {@code mc_cid}, {@code mc_eid}, ...), no trailing slash on a
 * non-root path, an empty path becomes {@code /}. Path case and the order of the remaining query
 * parameters are kept (both can matter to the server).
 */
public final class Keys {

  private static final Set<String> TRACKING_PARAMS =
      Set.of(
          "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "igshid", "ref",
          "ref_src", "mc_cid", "mc_eid", "_hsenc", "_hsmi", "mkt_tok");

  private Keys() {}

  /**
   * {@code note:<collection>/<path>} for a note at a path (forward slashes) relative to the root of
   * a collection. An empty collection gives {@code note:<path>} (only for reading a file outside
   * any collection).
   */
  public static String note(String collection, String relativePath) {
    return "note:" + inCollection(collection, relativePath);
  }

  /** {@code src:<12 hex>} of the canonical form of a web URL. */
  public static String source(String url) {
    return "src:" + hash12(canonicalUrl(url));
  }

  /**
   * {@code src:<12 hex>} of {@code file:<collection>/<path>}, for a source known only by its file
   * (a PDF, a transcript, a saved page without a URL): unique across collections like note keys.
   */
  public static String sourceFile(String collection, String relativePath) {
    return "src:" + hash12("file:" + inCollection(collection, relativePath));
  }

  private static String inCollection(String collection, String relativePath) {
    return collection == null || collection.isEmpty()
        ? relativePath
        : collection + "/" + relativePath;
  }

  /** {@code bm:<12 hex>} of the canonical bookmarked URL. */
  public static String bookmark(String url) {
    return "bm:" + hash12(canonicalUrl(url));
  }

  /**
   * {@code feed-entry:<12 hex>} of the entry's canonical link, or of its guid as written when the
   * guid is not a web URL.
   */
  public static String feedEntry(String linkOrGuid) {
    String id = isWebUrl(linkOrGuid) ? canonicalUrl(linkOrGuid) : linkOrGuid.strip();
    return "feed-entry:" + hash12(id);
  }

  /** {@code doc:<id>} for a generic JSONL or BEIR record. */
  public static String doc(String id) {
    return "doc:" + id;
  }

  /** True for an absolute {@code http} or {@code https} URL. */
  public static boolean isWebUrl(String s) {
    if (s == null) {
      return false;
    }
    String t = s.strip().toLowerCase(Locale.ROOT);
    return t.startsWith("http://") || t.startsWith("https://");
  }

  /**
   * The canonical form of a web URL (see the class comment). Input that does not parse as a URL is
   * returned stripped of surrounding whitespace, so keys stay stable for it too.
   */
  public static String canonicalUrl(String url) {
    String s = url.strip();
    URI uri = parse(s);
    if (uri == null || uri.getRawAuthority() == null || !isWebUrl(s)) {
      return s;
    }
    var out = new StringBuilder("https://").append(canonicalAuthority(uri));
    out.append(canonicalPath(uri.getRawPath()));
    String query = canonicalQuery(uri.getRawQuery());
    if (!query.isEmpty()) {
      out.append('?').append(query);
    }
    return out.toString();
  }

  private static URI parse(String s) {
    try {
      return new URI(s);
    } catch (URISyntaxException e) {
      try {
        // Pasted URLs often hold spaces or other characters that must be escaped.
        return new URI(s.replace(" ", "%20").replace("|", "%7C").replace("\"", "%22"));
      } catch (URISyntaxException again) {
        return null;
      }
    }
  }

  private static String canonicalAuthority(URI uri) {
    // Without a server-based authority (a host with "_", say) the raw authority is all there is.
    String host = uri.getHost() != null ? uri.getHost() : uri.getRawAuthority();
    host = host.toLowerCase(Locale.ROOT);
    if (host.startsWith("www.")) {
      host = host.substring(4);
    }
    if (uri.getHost() == null) {
      return host;
    }
    String userInfo = uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo() + "@";
    int port = uri.getPort();
    return userInfo + host + (port == -1 || port == 80 || port == 443 ? "" : ":" + port);
  }

  private static String canonicalPath(String rawPath) {
    if (rawPath == null || rawPath.isEmpty()) {
      return "/";
    }
    String path = rawPath;
    while (path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path;
  }

  private static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    var kept = new ArrayList<String>();
    for (String param : rawQuery.split("&")) {
      String name = param.split("=", 2)[0].toLowerCase(Locale.ROOT);
      if (!param.isEmpty() && !name.startsWith("utm_") && !TRACKING_PARAMS.contains(name)) {
        kept.add(param);
      }
    }
    return String.join("&", kept);
  }

  /** The first 12 hex digits of the sha-256 of a string. */
  static String hash12(String s) {
    return CorpusRecord.sha256(s).substring(0, 12);
  }
}
