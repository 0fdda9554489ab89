package dev.brain.research.note;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import org.jsoup.Jsoup;

/**
 * The web, only through a configured SearxNG-compatible JSON endpoint ({@code
 * URL?q=...&format=json} answering {@code {"results": [{"url", "title", "content"}]}}), and the
 * pages it returns, read as text with jsoup. Failures are exceptions with a short message; callers
 * skip and report them.
 */
final class WebSearch {

  /** Results kept per search. */
  static final int MAX_RESULTS = 5;

  /** Characters kept of one fetched page. */
  static final int MAX_PAGE_CHARS = 50_000;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI endpoint;
  private final Duration pageTimeout;
  private final HttpClient http;

  WebSearch(URI endpoint, Duration pageTimeout) {
    this.endpoint = endpoint;
    this.pageTimeout = pageTimeout;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(pageTimeout)
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
  }

  /** A search result. */
  record Hit(String url, String title, String snippet) {}

  /** The first results of {@code query} with an http(s) URL, duplicates dropped. */
  List<Hit> search(String query) throws IOException, InterruptedException {
    String sep = endpoint.getRawQuery() == null ? "?" : "&";
    URI uri =
        URI.create(
            endpoint
                + sep
                + "q="
                + URLEncoder.encode(query, StandardCharsets.UTF_8)
                + "&format=json");
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri)
                .timeout(pageTimeout)
                .header("Accept", "application/json")
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("web search answered HTTP " + response.statusCode());
    }
    JsonNode results;
    try {
      results = JSON.readTree(response.body()).path("results");
    } catch (IOException e) {
      throw new IOException("web search answered no JSON");
    }
    var out = new ArrayList<Hit>();
    var seen = new LinkedHashSet<String>();
    for (JsonNode r : results) {
      String url = r.path("url").asText("").strip();
      String scheme = url.toLowerCase(Locale.ROOT);
      if (!(scheme.startsWith("http://") || scheme.startsWith("https://")) || !seen.add(url)) {
        continue;
      }
      if (url.matches(".*[\\s()<>\\[\\]].*")) {
        continue; // not citable as a Markdown link as it stands
      }
      String title = Sanitize.line(r.path("title").asText(url), 200);
      out.add(
          new Hit(
              url,
              title.isEmpty() ? url : title,
              Sanitize.line(r.path("content").asText(""), 500)));
      if (out.size() == MAX_RESULTS) {
        break;
      }
    }
    return out;
  }

  /** The text of a page: HTML through jsoup, plain text as it is; at most 50,000 characters. */
  String page(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(pageTimeout).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("HTTP " + response.statusCode());
    }
    String type = response.headers().firstValue("Content-Type").orElse("text/html");
    String text =
        type.contains("html") ? Jsoup.parse(response.body(), url).text() : response.body();
    text = text.strip();
    return text.length() <= MAX_PAGE_CHARS ? text : text.substring(0, MAX_PAGE_CHARS);
  }
}
