package dev.brain.models;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Points ONNX Runtime at a stable extracted copy of its native libraries.
 *
 * <p>Left alone, ONNX Runtime copies its ~28 MB native library into a fresh temp directory on every
 * JVM start and leaves the directory behind. Setting {@code onnxruntime.native.path} to a directory
 * that already holds the libraries skips that copy. The directory is keyed by ONNX Runtime version,
 * platform and user, so an upgrade gets a fresh copy and users never share one. Files are written
 * under a temporary name and renamed atomically, so concurrent JVMs never load a half-written
 * library. When anything is unusual (property already set, unknown platform, no version in the jar
 * manifest, a directory owned by someone else) this does nothing and ONNX Runtime falls back to its
 * own extraction.
 */
final class OnnxNativeLibrary {

  static final String PATH_PROPERTY = "onnxruntime.native.path";
  private static final List<String> LIBRARIES = List.of("onnxruntime", "onnxruntime4j_jni");
  private static boolean prepared;

  private OnnxNativeLibrary() {}

  /** Sets {@code onnxruntime.native.path} once per JVM, before ONNX Runtime first loads. */
  static synchronized void prepare() {
    if (prepared) {
      return;
    }
    prepared = true;
    if (System.getProperty(PATH_PROPERTY) != null) {
      return;
    }
    stableDirectory().ifPresent(dir -> System.setProperty(PATH_PROPERTY, dir.toString()));
  }

  /** The extracted copy's directory, extracting it first if needed; empty to fall back. */
  static Optional<Path> stableDirectory() {
    String version = OrtEnvironment.class.getPackage().getImplementationVersion();
    Optional<String> platform = platform();
    if (version == null || platform.isEmpty()) {
      return Optional.empty();
    }
    Path dir =
        Path.of(
            System.getProperty("java.io.tmpdir"),
            "brain-onnxruntime-%s-%s-%s"
                .formatted(version, platform.get(), System.getProperty("user.name", "user")));
    try {
      return extractInto(dir, platform.get()) ? Optional.of(dir) : Optional.empty();
    } catch (IOException | UncheckedIOException e) {
      return Optional.empty();
    }
  }

  private static boolean extractInto(Path dir, String platform) throws IOException {
    createPrivateDirectory(dir);
    if (!Files.isDirectory(dir) || !ownedByCurrentUser(dir)) {
      return false;
    }
    for (String library : LIBRARIES) {
      String fileName = System.mapLibraryName(library);
      String resource = "/ai/onnxruntime/native/" + platform + "/" + fileName;
      Path target = dir.resolve(fileName);
      if (Files.isRegularFile(target)) {
        continue;
      }
      try (InputStream in = OrtEnvironment.class.getResourceAsStream(resource)) {
        if (in == null) {
          return false;
        }
        Path partial = Files.createTempFile(dir, fileName, ".partial");
        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      }
    }
    return true;
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

  static boolean ownedByCurrentUser(Path dir) throws IOException {
    String user = System.getProperty("user.name");
    return user == null || Files.getOwner(dir).getName().equals(user);
  }

  /** ONNX Runtime's resource folder name for this platform, e.g. {@code linux-x64}. */
  static Optional<String> platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String osPart =
        os.contains("mac") || os.contains("darwin")
            ? "osx"
            : os.contains("win") ? "win" : os.contains("nux") ? "linux" : null;
    String archPart =
        arch.startsWith("amd64") || arch.startsWith("x86_64")
            ? "x64"
            : arch.startsWith("aarch64") ? "aarch64" : null;
    if (osPart == null || archPart == null) {
      return Optional.empty();
    }
    return Optional.of(osPart + "-" + archPart);
  }
}
