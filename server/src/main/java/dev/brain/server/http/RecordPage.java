package dev.brain.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.Brain;
import dev.brain.index.CollectionRoot;
import dev.brain.index.RecordDetail;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What the record page needs beyond the record: its text rendered as the note reads in Obsidian
 * ({@link NoteHtml}), the titles of the records it links to and that link to it, and the images it
 * embeds ({@code GET /api/asset}: an image file inside a collection, nothing else).
 */
final class RecordPage {
  /** Image types an embed may show, with their media types. */
  private static final Map<String, String> IMAGE_TYPES =
      Map.of(
          "png", "image/png",
          "jpg", "image/jpeg",
          "jpeg", "image/jpeg",
          "gif", "image/gif",
          "webp", "image/webp",
          "avif", "image/avif",
          "bmp", "image/bmp");

  /** The largest image served. */
  static final long MAX_IMAGE_BYTES = 25L << 20;

  private final Brain brain;

  RecordPage(Brain brain) {
    this.brain = brain;
  }

  /** Adds {@code text_html} and {@code titles} (of links and backlinks) to a record's JSON. */
  void addTo(ObjectNode out, RecordDetail detail) throws IOException {
    var record = detail.record();
    Optional<CollectionRoot> collection = collectionOf(record.key());
    Path folder =
        collection.isPresent() && record.path() != null
            ? collection.get().root().resolve(record.path()).getParent()
            : null;
    out.put(
        "text_html",
        NoteHtml.render(
            record.text(),
            target -> note(target, record.key(), detail.links()),
            name -> image(collection, folder, name)));
    Map<String, String> titles = new LinkedHashMap<>();
    for (String key : concat(detail.linkedKeys(), detail.backlinks())) {
      brain.get(key).ifPresent(d -> titles.put(key, d.record().title()));
    }
    out.set("titles", HttpJson.MAPPER.valueToTree(titles));
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).distinct().toList();
  }

  /**
   * The key of the note a wikilink names, among the record's links (the note itself included): by
   * note name, or by the end of its path when the link gives one ({@code Plugins/Templates}); the
   * record the link resolves to, which may be in another collection. Empty when it resolves to
   * none.
   */
  private static Optional<String> note(String target, String self, List<RecordDetail.Link> links) {
    String wanted = strip(target).toLowerCase(Locale.ROOT);
    Optional<String> byPath = Optional.empty();
    var candidates = new java.util.ArrayList<RecordDetail.Link>(links);
    candidates.add(new RecordDetail.Link(self, self, null, null));
    for (RecordDetail.Link link : candidates) {
      String key = link.key();
      if (!key.startsWith("note:")) {
        continue;
      }
      String path = strip(key.substring(key.indexOf('/') + 1)).toLowerCase(Locale.ROOT);
      if (path.equals(wanted) || path.endsWith("/" + wanted)) {
        Optional<String> reached = Optional.ofNullable(link.target());
        if (wanted.contains("/") || path.substring(path.lastIndexOf('/') + 1).equals(wanted)) {
          return reached;
        }
        byPath = reached;
      }
    }
    return byPath;
  }

  /** A note path without its extension. */
  private static String strip(String path) {
    String p = path.strip();
    for (String ext : List.of(".md", ".markdown", ".mdx", ".txt")) {
      if (p.toLowerCase(Locale.ROOT).endsWith(ext)) {
        return p.substring(0, p.length() - ext.length());
      }
    }
    return p;
  }

  /** The URL of an embedded image found in the note's collection (its folder first). */
  private Optional<String> image(Optional<CollectionRoot> collection, Path folder, String name) {
    if (collection.isEmpty() || name.contains("..")) {
      return Optional.empty();
    }
    Path root = collection.get().root();
    Optional<Path> file = find(root, folder, name);
    return file.map(
        f ->
            "/api/asset?collection="
                + URLEncoder.encode(collection.get().name(), StandardCharsets.UTF_8)
                + "&path="
                + URLEncoder.encode(root.relativize(f).toString(), StandardCharsets.UTF_8));
  }

  /** A file named {@code name} in {@code folder}, else anywhere under {@code root}. */
  private static Optional<Path> find(Path root, Path folder, String name) {
    if (folder != null && Files.isRegularFile(folder.resolve(name))) {
      return Optional.of(folder.resolve(name));
    }
    if (Files.isRegularFile(root.resolve(name))) {
      return Optional.of(root.resolve(name));
    }
    String fileName = Path.of(name).getFileName().toString();
    try (var found =
        Files.find(
            root,
            24,
            (p, attrs) ->
                attrs.isRegularFile()
                    && p.getFileName().toString().equals(fileName)
                    && p.toString().endsWith(name),
            new FileVisitOption[0])) {
      return found.findFirst();
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty();
    }
  }

  private Optional<CollectionRoot> collectionOf(String key) throws IOException {
    if (!key.startsWith("note:")) {
      return Optional.empty();
    }
    String name = key.substring("note:".length(), key.indexOf('/') < 0 ? 5 : key.indexOf('/'));
    return collections().stream().filter(c -> c.name().equals(name)).findFirst();
  }

  private List<CollectionRoot> collections() throws IOException {
    return brain.collections();
  }

  /**
   * {@code GET /api/asset?collection=NAME&path=PATH}: an image file inside a collection, for the
   * images a note embeds; {@code name=FILE} instead of {@code path} finds it by name, as an embed
   * in a Chat answer names it. Anything else (another type, a path leaving the collection through
   * {@code ..} or a symlink, a file over {@link #MAX_IMAGE_BYTES}) is refused.
   */
  void asset(ServerRequest req, ServerResponse res) throws IOException {
    SearchService.rejectUnknown(req.query(), java.util.Set.of("collection", "path", "name"));
    String name = req.query().first("collection").orElse("");
    String fileName = req.query().first("name").orElse("");
    String path = req.query().first("path").orElse(fileName);
    CollectionRoot collection =
        collections().stream()
            .filter(c -> c.name().equals(name))
            .findFirst()
            .orElseThrow(
                () -> ApiException.notFound("no collection named '" + name + "'", "collection"));
    String type = IMAGE_TYPES.get(extension(path));
    if (type == null) {
      throw ApiException.invalidOption(
          "only images ("
              + String.join(", ", IMAGE_TYPES.keySet().stream().sorted().toList())
              + ") are served from a collection",
          "path");
    }
    Path root = collection.root().toRealPath();
    if (req.query().first("path").isEmpty() && !fileName.isEmpty()) {
      path =
          fileName.contains("..")
              ? ""
              : find(root, null, fileName).map(f -> root.relativize(f).toString()).orElse("");
    }
    Path file;
    try {
      file = root.resolve(path).toRealPath();
    } catch (IOException | java.nio.file.InvalidPathException e) {
      throw ApiException.notFound("no such file in collection '" + name + "'", "path");
    }
    if (!file.startsWith(root) || !Files.isRegularFile(file)) {
      throw ApiException.notFound("no such file in collection '" + name + "'", "path");
    }
    if (Files.size(file) > MAX_IMAGE_BYTES) {
      throw new ApiException(
          Status.REQUEST_ENTITY_TOO_LARGE_413,
          "too_large",
          "the image is larger than " + (MAX_IMAGE_BYTES >> 20) + " MB",
          "path");
    }
    res.header(HeaderNames.CONTENT_TYPE, type);
    res.header(HeaderNames.CACHE_CONTROL, "private, max-age=300");
    res.send(Files.readAllBytes(file));
  }

  private static String extension(String path) {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? "" : path.substring(dot + 1).toLowerCase(Locale.ROOT);
  }
}
