package dev.brain.research.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * sibling and renamed into place atomically after its completion marker.
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
      sidecars.forEach((name, text) -> files.put(name, bytes(text)));
      files.put(TraceStore.RUN_MD, bytes(markdown));
      byte[] marker = (Instant.now() + "\n").getBytes(StandardCharsets.UTF_8);
      long others = marker.length;
      for (byte[] b : files.values()) {
        others += b.length;
      }
      byte[] json = runJson(runId, document, others);
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
   * Serialized and redacted once; the byte count is then written into the text (it occurs once, in
   * {@code metrics}) until the count and the text's length agree.
   */
  private byte[] runJson(String runId, Object document, long others) {
    String template = redactor.redact(serialize(runId, document));
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

  private byte[] bytes(String text) {
    return redactor.redact(text).getBytes(StandardCharsets.UTF_8);
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
