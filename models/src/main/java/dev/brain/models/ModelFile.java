package dev.brain.models;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
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
    Optional<Path> dir = directory();
    if (dir.isEmpty()) {
      return Optional.empty();
    }
    Path target =
        dir.get()
            .resolve(
                String.format(Locale.ROOT, "%d-%08x-%s", entry.getSize(), entry.getCrc(), name));
    try (InputStream in = connection.getInputStream()) {
      return copy(in, entry.getSize(), target) ? Optional.of(target) : Optional.empty();
    }
  }

  /**
   * {@code ${java.io.tmpdir}/brain-models-<user>}, created with owner-only permissions; empty when
   * it is no directory of this user (a copy in a directory someone else made is never trusted).
   */
  static Optional<Path> directory() throws IOException {
    Path dir =
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "brain-models-" + System.getProperty("user.name", "user"));
    createPrivateDirectory(dir);
    return Files.isDirectory(dir) && ownedByCurrentUser(dir) ? Optional.of(dir) : Optional.empty();
  }

  /**
   * Makes {@code target} a copy of the {@code size} bytes of {@code in}, unless a file of this user
   * with that size is already there (targets are named after their content, so it is that content).
   * The bytes go to a temporary file beside it, renamed into place atomically: a reader never sees
   * half a file, and two processes copying at once both end with a whole one.
   *
   * @return false when {@code in} did not hold {@code size} bytes
   */
  static boolean copy(InputStream in, long size, Path target) throws IOException {
    if (Files.isRegularFile(target) && ownedByCurrentUser(target) && Files.size(target) == size) {
      return true;
    }
    String name = target.getFileName().toString();
    Path partial = Files.createTempFile(target.getParent(), name, ".partial");
    try {
      Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
      if (Files.size(partial) != size) {
        return false;
      }
      Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      return true;
    } finally {
      Files.deleteIfExists(partial);
    }
  }

  static void createPrivateDirectory(Path dir) throws IOException {
    if (Files.exists(dir)) {
      return;
    }
    try {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      Files.createDirectories(dir);
    }
  }

  static boolean ownedByCurrentUser(Path path) throws IOException {
    String user = System.getProperty("user.name");
    return user == null || Files.getOwner(path).getName().equals(user);
  }
}
