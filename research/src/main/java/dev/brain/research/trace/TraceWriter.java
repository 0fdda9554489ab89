package dev.brain.research.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Writes one trace directory: every file redacted and private to the user, built in a temporary
 * sibling and renamed into place atomically after its completion marker. The texts are redacted,
 * not the serialized files: {@code run.json}'s (and a JSON sidecar's) string values, {@code run.md}
 * and the other sidecars, all as one document ({@link RedactedTexts}).
 */
final class TraceWriter {
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  private static final Set<PosixFilePermission> DIR_PERMS =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE_PERMS =
      PosixFilePermissions.fromString("rw-------");

  private final Path root;
  private final Redactor redactor;
  private final ObjectMapper json;

  TraceWriter(Path root, Redactor redactor, ObjectMapper json) {
    this.root = root;
    this.redactor = redactor;
    this.json = json;
  }

  TraceStore.Written write(ResearchTrace trace, String markdown, Map<String, String> sidecars)
      throws IOException {
    return write(
        trace.run().runId(),
        trace.withMetrics(trace.metrics().withArtifactBytes(0)),
        markdown,
        sidecars);
  }

  /**
   * Writes the trace of any run whose {@code run.json} is {@code document} serialized; it must hold
   * {@code "artifact_bytes": 0} once (in its metrics), which becomes the directory's size.
   */
  TraceStore.Written write(
      String runId, Object document, String markdown, Map<String, String> sidecars)
      throws IOException {
    createPrivateDirectories(root);
    Path target = root.resolve(runId);
    Path temporary = root.resolve(TraceStore.TEMPORARY_PREFIX + runId);
    createPrivateDirectory(temporary);
    try {
      var files = new LinkedHashMap<String, byte[]>();
      var texts = new RedactedTexts();
      var sidecarTexts = new LinkedHashMap<String, Integer>();
      var sidecarTrees = new LinkedHashMap<String, JsonNode>();
      sidecars.forEach(
          (name, text) -> {
            JsonNode tree = name.endsWith(".json") ? parse(text) : null;
            if (tree != null) {
              sidecarTrees.put(name, tree);
              texts.addTree(tree);
            } else {
              sidecarTexts.put(name, texts.add(text));
            }
          });
      int md = texts.add(markdown);
      ObjectNode doc = json.valueToTree(document);
      doc.set("redaction", json.valueToTree(redactor.rules()));
      texts.addTree(doc);
      // Every text of every file redacted at once, before any of it is serialized: a secret found
      // in the question goes from the evidence's terms too, and no JSON escape ("\n") hides a
      // credential at a line's start from a pattern.
      texts.redact(redactor);
      // Visible in the record: pieces where a gitleaks rule ran away and was skipped.
      ((ObjectNode) doc.get("redaction")).put("runaway", texts.runaway());
      sidecars.forEach(
          (name, text) ->
              files.put(
                  name,
                  sidecarTrees.containsKey(name)
                      ? utf8(serialize(runId, sidecarTrees.get(name)))
                      : utf8(texts.get(sidecarTexts.get(name)))));
      files.put(TraceStore.RUN_MD, utf8(texts.get(md)));
      byte[] marker = (Instant.now() + "\n").getBytes(StandardCharsets.UTF_8);
      long others = marker.length;
      for (byte[] b : files.values()) {
        others += b.length;
      }
      byte[] json = runJson(runId, doc, others);
      files.put(TraceStore.RUN_JSON, json);
      for (var file : files.entrySet()) {
        writePrivate(temporary.resolve(file.getKey()), file.getValue());
      }
      writePrivate(temporary.resolve(TraceStore.COMPLETE), marker);
      move(temporary, target);
      return new TraceStore.Written(target, others + json.length);
    } catch (IOException | RuntimeException e) {
      deleteTree(temporary);
      throw e;
    }
  }

  /**
   * {@code run.json}, with {@code metrics.artifact_bytes} equal to the directory's final size.
   * Serialized once (its texts already redacted); the byte count is then written into the text (it
   * occurs once, in {@code metrics}) until the count and the text's length agree.
   */
  private byte[] runJson(String runId, JsonNode document, long others) {
    String template = serialize(runId, document);
    String field = "\"artifact_bytes\" : 0";
    int at = template.indexOf(field);
    if (at < 0) {
      throw new IllegalStateException("run.json of run " + runId + " has no artifact_bytes");
    }
    long total = others + utf8Length(template);
    String json = template;
    for (int i = 0; i < 4; i++) {
      json =
          template.substring(0, at)
              + "\"artifact_bytes\" : "
              + total
              + template.substring(at + field.length());
      long size = others + utf8Length(json);
      if (size == total) {
        break;
      }
      total = size;
    }
    return json.getBytes(StandardCharsets.UTF_8);
  }

  private static long utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private String serialize(String runId, Object document) {
    try {
      return json.writeValueAsString(document) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the trace of run " + runId, e);
    }
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A JSON sidecar's tree, or {@code null} when it is no JSON (a model's raw output may not be).
   */
  private JsonNode parse(String text) {
    try {
      JsonNode tree = json.readTree(text);
      return tree != null && tree.isContainerNode() ? tree : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static void move(Path temporary, Path target) throws IOException {
    try {
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException(
          "cannot rename "
              + temporary
              + " into place atomically; keep the data directory on a"
              + " local file system",
          e);
    }
  }

  private static void createPrivateDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    Files.createDirectories(dir.getParent());
    try {
      createPrivateDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      // Another run created it first.
    }
  }

  private static void createPrivateDirectory(Path dir) throws IOException {
    if (POSIX) {
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIR_PERMS));
      Files.setPosixFilePermissions(dir, DIR_PERMS);
    } else {
      Files.createDirectory(dir);
    }
  }

  private static void writePrivate(Path file, byte[] content) throws IOException {
    FileAttribute<?>[] attrs =
        POSIX
            ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE_PERMS)}
            : new FileAttribute<?>[0];
    Files.createFile(file, attrs);
    Files.write(file, content, StandardOpenOption.TRUNCATE_EXISTING);
    if (POSIX) {
      Files.setPosixFilePermissions(file, FILE_PERMS);
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (UncheckedIOException e) {
      if (!(e.getCause() instanceof NoSuchFileException)) {
        throw e.getCause();
      }
      // Deleted concurrently by another pruner.
    } catch (NoSuchFileException e) {
      // Deleted concurrently by another pruner.
    }
  }
}
