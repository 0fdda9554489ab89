package dev.brain.models;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * A bundled model's ONNX graph as a file that ONNX Runtime reads itself, instead of bytes inflated
 * from the application jar on every start (about half a second for a 34 MB graph, on the path of
 * every CLI search). Inside a jar the graph is extracted once into a private directory under the
 * temp directory, named after the entry's size and CRC so a changed model gets a fresh copy, and
 * renamed into place atomically so concurrent processes never read half a file. When anything is
 * unusual (no such resource, another kind of URL, a directory owned by someone else, an I/O error)
 * this is empty and the caller reads the bytes as before.
 */
final class ModelFile {

  private ModelFile() {}

  /** The graph of {@code model} as a readable file; empty to fall back to the resource bytes. */
  static Optional<Path> of(EmbeddingModel model) {
    URL url = ModelFile.class.getResource(model.onnxResource());
    if (url == null) {
      return Optional.empty();
    }
    try {
      return switch (url.getProtocol()) {
        case "file" -> Optional.of(Path.of(url.toURI())).filter(Files::isRegularFile);
        case "jar" -> extracted(model, (JarURLConnection) url.openConnection());
        default -> Optional.empty();
      };
    } catch (IOException | URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<Path> extracted(EmbeddingModel model, JarURLConnection connection)
      throws IOException {
    var entry = connection.getJarEntry();
    if (entry == null || entry.getSize() < 0 || entry.getCrc() < 0) {
      return Optional.empty();
    }
    String resource = model.onnxResource();
    String name = resource.substring(resource.lastIndexOf('/') + 1);
    Path dir =
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "brain-models-" + System.getProperty("user.name", "user"));
    Path target =
        dir.resolve(
            String.format(Locale.ROOT, "%d-%08x-%s", entry.getSize(), entry.getCrc(), name));
    // Ownership first: a copy in a directory someone else made is never trusted or reused.
    OnnxNativeLibrary.createPrivateDirectory(dir);
    if (!Files.isDirectory(dir) || !OnnxNativeLibrary.ownedByCurrentUser(dir)) {
      return Optional.empty();
    }
    if (Files.isRegularFile(target)
        && OnnxNativeLibrary.ownedByCurrentUser(target)
        && Files.size(target) == entry.getSize()) {
      return Optional.of(target);
    }
    Path partial = Files.createTempFile(dir, name, ".partial");
    try (InputStream in = connection.getInputStream()) {
      Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
      if (Files.size(partial) != entry.getSize()) {
        return Optional.empty();
      }
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(partial);
    }
    return Optional.of(target);
  }
}
