package dev.brain.index;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code collections:} section of {@code <data>/brain.yaml}: reads it, and rewrites that
 * section alone, keeping every other byte of the file (other sections, comments, order) as it was.
 * The file is replaced atomically, so a crash leaves the old or the new file, never half of one.
 *
 * <pre>
 * collections:
 *   - name: "notes"
 *     root: "/home/me/notes"
 *     excludes: ["drafts/", "*.tmp.md"]
 *     max_file_mb: 64
 * </pre>
 *
 * {@code excludes} and {@code max_file_mb} are optional (defaults: none beyond {@link
 * CollectionRoot#DEFAULT_EXCLUDES}, {@link CollectionRoot#DEFAULT_MAX_FILE_BYTES}).
 */
public final class CollectionsFile {

  /** The file name inside the data directory. */
  public static final String FILE_NAME = "brain.yaml";

  private static final Pattern SECTION = Pattern.compile("^collections\\s*:.*$");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;

  private CollectionsFile(Path file) {
    this.file = file;
  }

  /** The collections file of a data directory: {@code dataDir/brain.yaml}. */
  public static CollectionsFile of(Path dataDir) {
    return new CollectionsFile(dataDir.resolve(FILE_NAME));
  }

  /** The YAML file this reads and writes. */
  public Path path() {
    return file;
  }

  /**
   * The collections in the file, in file order; empty when the file or the section is absent.
   *
   * @throws IllegalArgumentException naming the file and the entry when the section is malformed
   */
  public List<CollectionRoot> read() throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return List.of();
    }
    JsonNode root;
    try {
      root = YAML.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          file + " is not valid YAML: " + e.getOriginalMessage() + "; fix or remove it", e);
    }
    JsonNode section = root == null ? null : root.get("collections");
    if (section == null || section.isNull()) {
      return List.of();
    }
    if (!section.isArray()) {
      throw new IllegalArgumentException(
          file + ": 'collections' must be a list of {name, root, excludes}");
    }
    var out = new ArrayList<CollectionRoot>();
    for (int i = 0; i < section.size(); i++) {
      out.add(entry(section.get(i), i + 1));
    }
    return List.copyOf(out);
  }

  private CollectionRoot entry(JsonNode node, int position) {
    String where = file + ": collection " + position;
    if (!node.isObject() || !node.path("name").isTextual() || !node.path("root").isTextual()) {
      throw new IllegalArgumentException(where + " needs a 'name' and a 'root'");
    }
    var excludes = new ArrayList<String>();
    JsonNode ex = node.path("excludes");
    if (ex.isTextual()) {
      excludes.add(ex.asText());
    } else {
      ex.forEach(e -> excludes.add(e.asText()));
    }
    long maxBytes = CollectionRoot.DEFAULT_MAX_FILE_BYTES;
    if (node.has("max_file_mb")) {
      maxBytes = (long) (node.path("max_file_mb").asDouble() * (1 << 20));
    }
    try {
      return new CollectionRoot(
          node.get("name").asText(), Path.of(node.get("root").asText()), excludes, maxBytes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  /**
   * Replaces the {@code collections:} section with {@code collections} (appending the section if
   * the file has none, creating the file if there is none); every other line stays as it was.
   */
  public void write(List<CollectionRoot> collections) throws IOException {
    String text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    String updated = replaceSection(text, render(collections));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
    Files.writeString(tmp, updated, StandardCharsets.UTF_8);
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /**
   * {@code text} with its top-level {@code collections:} section (the key line and every following
   * line that is blank, indented or a {@code -} list item, up to the next top-level line; trailing
   * blank lines stay outside) replaced by {@code section}.
   */
  static String replaceSection(String text, String section) {
    List<String> lines = text.isEmpty() ? List.of() : List.of(text.split("\n", -1));
    int start = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (SECTION.matcher(lines.get(i)).matches()) {
        start = i;
        break;
      }
    }
    if (start < 0) {
      String sep = text.isEmpty() || text.endsWith("\n") ? "" : "\n";
      return text + sep + section;
    }
    int end = start + 1;
    while (end < lines.size() && insideSection(lines.get(end))) {
      end++;
    }
    while (end > start + 1 && lines.get(end - 1).isBlank()) {
      end--;
    }
    var out = new StringBuilder();
    for (int i = 0; i < start; i++) {
      out.append(lines.get(i)).append('\n');
    }
    out.append(section);
    for (int i = end; i < lines.size(); i++) {
      out.append(lines.get(i));
      if (i < lines.size() - 1) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  private static boolean insideSection(String line) {
    return line.isBlank() || line.startsWith(" ") || line.startsWith("\t") || line.startsWith("-");
  }

  /** The section as YAML, each scalar a double-quoted (JSON) string; ends with a newline. */
  static String render(List<CollectionRoot> collections) {
    if (collections.isEmpty()) {
      return "collections: []\n";
    }
    var out = new StringBuilder("collections:\n");
    for (CollectionRoot c : collections) {
      out.append("  - name: ").append(quote(c.name())).append('\n');
      out.append("    root: ").append(quote(c.root().toString())).append('\n');
      if (!c.excludes().isEmpty()) {
        out.append("    excludes: [");
        for (int i = 0; i < c.excludes().size(); i++) {
          out.append(i == 0 ? "" : ", ").append(quote(c.excludes().get(i)));
        }
        out.append("]\n");
      }
      if (c.maxFileBytes() != CollectionRoot.DEFAULT_MAX_FILE_BYTES) {
        out.append("    max_file_mb: ").append(c.maxFileBytes() / (double) (1 << 20)).append('\n');
      }
    }
    return out.toString();
  }

  private static String quote(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
