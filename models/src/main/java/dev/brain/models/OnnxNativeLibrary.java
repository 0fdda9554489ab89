package dev.brain.models;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32;

/**
 * Loads ONNX Runtime so that a start leaves nothing new in the temp directory.
 *
 * <p>Left alone, ONNX Runtime 1.29 creates an {@code onnxruntime-java*} temp directory on every JVM
 * start, copies its ~28 MB native library into it, and only asks for both to be deleted at exit (in
 * an order that leaves the emptied directory behind; a killed JVM leaves the library too). So brain
 * extracts the native libraries once into {@code
 * ${java.io.tmpdir}/brain-models-<user>/onnxruntime-<platform>-<crc>} ({@link ModelFile}'s private
 * directory; named after the jar entries' sizes and CRCs, so another ONNX Runtime build gets a
 * fresh copy, also from a shaded jar without ONNX Runtime's manifest; files renamed into place
 * atomically, so JVMs starting at once never load half a file) and points {@code
 * onnxruntime.native.path} there; after loading it deletes the temp directory ONNX Runtime still
 * created, which is empty. When anything is unusual (the property already set, an unknown platform,
 * a directory owned by someone else) the extraction is left to ONNX Runtime.
 */
final class OnnxNativeLibrary {

  static final String PATH_PROPERTY = "onnxruntime.native.path";
  private static final List<String> LIBRARIES = List.of("onnxruntime", "onnxruntime4j_jni");
  private static boolean prepared;

  private OnnxNativeLibrary() {}

  /**
   * ONNX Runtime's environment, its native libraries loaded from the stable copy; the first call
   * loads them.
   */
  static synchronized OrtEnvironment environment() {
    prepare();
    OrtEnvironment environment = OrtEnvironment.getEnvironment();
    removeOwnTempDirectory();
    return environment;
  }

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
    Optional<String> platform = platform();
    if (platform.isEmpty()) {
      return Optional.empty();
    }
    try {
      var resources = new ArrayList<URL>();
      for (String library : LIBRARIES) {
        URL url = OrtEnvironment.class.getResource(resource(platform.get(), library));
        if (url == null) {
          return Optional.empty();
        }
        resources.add(url);
      }
      // Run from a folder of classes, the libraries already lie in one folder.
      if (resources.getFirst().getProtocol().equals("file")) {
        return Optional.of(Path.of(resources.getFirst().toURI()).getParent());
      }
      return extracted(platform.get(), resources);
    } catch (IOException | URISyntaxException | UncheckedIOException | ClassCastException e) {
      return Optional.empty();
    }
  }

  private static Optional<Path> extracted(String platform, List<URL> resources) throws IOException {
    var connections = new ArrayList<JarURLConnection>();
    var key = new CRC32();
    for (URL url : resources) {
      var connection = (JarURLConnection) url.openConnection();
      var entry = connection.getJarEntry();
      if (entry == null || entry.getSize() < 0 || entry.getCrc() < 0) {
        return Optional.empty();
      }
      key.update(
          (entry.getName() + ":" + entry.getSize() + ":" + entry.getCrc())
              .getBytes(StandardCharsets.UTF_8));
      connections.add(connection);
    }
    Optional<Path> base = ModelFile.directory();
    if (base.isEmpty()) {
      return Optional.empty();
    }
    Path dir =
        base.get()
            .resolve(String.format(Locale.ROOT, "onnxruntime-%s-%08x", platform, key.getValue()));
    ModelFile.createPrivateDirectory(dir);
    if (!Files.isDirectory(dir) || !ModelFile.ownedByCurrentUser(dir)) {
      return Optional.empty();
    }
    for (int i = 0; i < LIBRARIES.size(); i++) {
      var connection = connections.get(i);
      Path target = dir.resolve(System.mapLibraryName(LIBRARIES.get(i)));
      try (InputStream in = connection.getInputStream()) {
        if (!ModelFile.copy(in, connection.getJarEntry().getSize(), target)) {
          return Optional.empty();
        }
      }
    }
    return Optional.of(dir);
  }

  private static String resource(String platform, String library) {
    return "/ai/onnxruntime/native/" + platform + "/" + System.mapLibraryName(library);
  }

  /**
   * Deletes the temp directory ONNX Runtime made while loading when it is empty (it stays empty
   * when the libraries came from {@code onnxruntime.native.path}). ONNX Runtime keeps its path in a
   * private static field; if a later version has none, nothing is deleted.
   */
  private static void removeOwnTempDirectory() {
    try {
      var field = Class.forName("ai.onnxruntime.OnnxRuntime").getDeclaredField("tempDirectory");
      field.setAccessible(true);
      if (field.get(null) instanceof Path dir && Files.isDirectory(dir)) {
        Files.deleteIfExists(dir);
      }
    } catch (DirectoryNotEmptyException e) {
      // ONNX Runtime extracted into it itself: it deletes the files at exit.
    } catch (ReflectiveOperationException | IOException | RuntimeException e) {
      // Another ONNX Runtime: its directory stays, as without brain.
    }
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
