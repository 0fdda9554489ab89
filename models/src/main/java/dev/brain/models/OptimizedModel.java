package dev.brain.models;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * ONNX Runtime's graph optimizations of a model file, done once and kept on disk: the first session
 * of a model saves its optimized graph beside the extracted model, and later sessions load that
 * copy, which skips most of the optimization work (about 130 -> 50 ms of CPU for bge-small, on the
 * path of every CLI search). The copy keeps the weights in a data file of their own, which ONNX
 * Runtime maps into memory instead of reading the whole model into the heap and copying the weights
 * out of it (about 15 MB less peak memory).
 *
 * <p>The copy is saved at {@link OrtSession.SessionOptions.OptLevel#EXTENDED_OPT}, whose result
 * ONNX Runtime documents as portable between machines (the hardware-specific layout transformations
 * of the highest level are applied again, cheaply, when the copy is loaded). It is a directory
 * ({@value #GRAPH} and {@value #WEIGHTS}) named after the model file's name, size and modification
 * time and the ONNX Runtime version, so a changed model or another ONNX Runtime gets a fresh copy.
 * It is written under a temporary name and renamed into place whole, and never changed after:
 * processes starting at once never load half a copy, and a file another process has mapped is never
 * rewritten under it. A copy that fails to load is reported on standard error, deleted and made
 * again from the model.
 */
final class OptimizedModel {

  /** The suffix of the optimized copies' directories. */
  static final String SUFFIX = ".optimized";

  /** The graph in a copy's directory. */
  static final String GRAPH = "model.onnx";

  /** The weights in a copy's directory, which the graph names. */
  static final String WEIGHTS = "model.weights";

  /** Weights at least this large go to the weights file (all of a BERT model's matrices). */
  private static final String MIN_EXTERNAL_BYTES = "1024";

  private OptimizedModel() {}

  /**
   * A session for the model file {@code model}: from its optimized copy in {@code dir} when there
   * is one, else from the model itself, saving the copy on the way.
   *
   * @param options the session settings; the optimization level is set here
   * @param err where a copy that could not be loaded is reported
   */
  static OrtSession session(
      OrtEnvironment environment, Path model, Path dir, OptionsFactory options, PrintStream err)
      throws OrtException, IOException {
    Path copy = dir.resolve(name(model, environment.getVersion()));
    if (Files.isDirectory(copy) && ModelFile.ownedByCurrentUser(copy)) {
      try (OrtSession.SessionOptions settings = options.create()) {
        return environment.createSession(copy.resolve(GRAPH).toString(), settings);
      } catch (OrtException e) {
        err.printf(
            Locale.ROOT,
            "warning: the optimized copy of the embedding model at %s could not be loaded (%s);"
                + " it is made again from %s%n",
            copy,
            firstLine(e.getMessage()),
            model);
        deleteTree(copy);
      }
    }
    return saving(environment, model, copy, options);
  }

  /** A session from the model itself that saves its optimized graph as {@code copy}. */
  private static OrtSession saving(
      OrtEnvironment environment, Path model, Path copy, OptionsFactory options)
      throws OrtException, IOException {
    Path partial = Files.createTempDirectory(copy.getParent(), copy.getFileName() + ".partial-");
    try (OrtSession.SessionOptions settings = options.create()) {
      settings.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.EXTENDED_OPT);
      settings.setOptimizedModelFilePath(partial.resolve(GRAPH).toString());
      settings.addConfigEntry("session.optimized_model_external_initializers_file_name", WEIGHTS);
      settings.addConfigEntry(
          "session.optimized_model_external_initializers_min_size_in_bytes", MIN_EXTERNAL_BYTES);
      OrtSession session = environment.createSession(model.toString(), settings);
      try {
        if (Files.size(partial.resolve(GRAPH)) > 0
            && Files.isRegularFile(partial.resolve(WEIGHTS))) {
          // Fails when another process put its copy in place first; then that one stays.
          Files.move(partial, copy, StandardCopyOption.ATOMIC_MOVE);
          removeOlderCopies(model, copy);
        }
      } catch (IOException e) {
        // The session is fine; a later process saves the copy.
      }
      return session;
    } finally {
      try {
        deleteTree(partial);
      } catch (IOException e) {
        // A leftover temporary directory; it holds no copy any process loads.
      }
    }
  }

  /**
   * The copy's directory name: the model file's name, size and modification time (a changed model
   * gets a new copy) and the ONNX Runtime version (whose graph format and optimizations may
   * change).
   */
  static String name(Path model, String ortVersion) throws IOException {
    String file = model.getFileName().toString();
    String base = file.endsWith(".onnx") ? file.substring(0, file.length() - 5) : file;
    return String.format(
        Locale.ROOT,
        "%s.%d-%d.ort-%s%s",
        base,
        Files.size(model),
        Files.getLastModifiedTime(model).toMillis(),
        ortVersion.replaceAll("[^A-Za-z0-9.]", "_"),
        SUFFIX);
  }

  /** Deletes {@code path} and, when it is a directory, all it holds; quietly when it is gone. */
  static void deleteTree(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> all = Files.walk(path)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Deletes this user's copies of the same model file made for an older model or runtime. */
  private static void removeOlderCopies(Path model, Path keep) throws IOException {
    String file = model.getFileName().toString();
    String base = file.endsWith(".onnx") ? file.substring(0, file.length() - 5) : file;
    try (DirectoryStream<Path> copies =
        Files.newDirectoryStream(keep.getParent(), base + ".*" + SUFFIX)) {
      for (Path old : copies) {
        if (!old.equals(keep) && ModelFile.ownedByCurrentUser(old)) {
          deleteTree(old);
        }
      }
    }
  }

  /** ONNX Runtime's reason, its first line, without the "Error code - X - message: " lead. */
  static String firstLine(String message) {
    if (message == null) {
      return "no reason given";
    }
    int end = message.indexOf('\n');
    String line = (end < 0 ? message : message.substring(0, end)).strip();
    int lead = line.indexOf(" - message: ");
    return lead < 0 ? line : line.substring(lead + " - message: ".length()).strip();
  }

  /** Makes a fresh set of session settings for each session created. */
  @FunctionalInterface
  interface OptionsFactory {
    OrtSession.SessionOptions create() throws OrtException;
  }
}
