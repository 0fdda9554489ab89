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
import java.util.Locale;

/**
 * ONNX Runtime's graph optimizations of a model file, done once and kept on disk: the first session
 * of a model saves its optimized graph beside the extracted model, and later sessions load that
 * copy, which skips most of the optimization work (about 60 ms of CPU and 10 MB of peak memory per
 * process for bge-small, on the path of every CLI search).
 *
 * <p>The copy is saved at {@link OrtSession.SessionOptions.OptLevel#EXTENDED_OPT}, whose result
 * ONNX Runtime documents as portable between machines (the hardware-specific layout transformations
 * of the highest level are applied again, cheaply, when the copy is loaded). It is named after the
 * model file's name, size and modification time and the ONNX Runtime version, so a changed model or
 * another ONNX Runtime gets a fresh copy, and renamed into place atomically, so processes starting
 * at once never load half a file. A copy that fails to load is reported on standard error, deleted
 * and made again from the model.
 */
final class OptimizedModel {

  /** The suffix of the optimized copies. */
  static final String SUFFIX = ".optimized.onnx";

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
    if (Files.isRegularFile(copy) && ModelFile.ownedByCurrentUser(copy)) {
      try (OrtSession.SessionOptions settings = options.create()) {
        return environment.createSession(copy.toString(), settings);
      } catch (OrtException e) {
        err.printf(
            Locale.ROOT,
            "warning: the optimized copy of the embedding model at %s could not be loaded (%s);"
                + " it is made again from %s%n",
            copy,
            firstLine(e.getMessage()),
            model);
        Files.deleteIfExists(copy);
      }
    }
    return saving(environment, model, copy, options);
  }

  /** A session from the model itself that saves its optimized graph to {@code copy}. */
  private static OrtSession saving(
      OrtEnvironment environment, Path model, Path copy, OptionsFactory options)
      throws OrtException, IOException {
    String name = copy.getFileName().toString();
    Path partial = Files.createTempFile(copy.getParent(), name, ".partial");
    try (OrtSession.SessionOptions settings = options.create()) {
      settings.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.EXTENDED_OPT);
      settings.setOptimizedModelFilePath(partial.toString());
      OrtSession session = environment.createSession(model.toString(), settings);
      try {
        if (Files.size(partial) > 0) {
          Files.move(partial, copy, StandardCopyOption.ATOMIC_MOVE);
          removeOlderCopies(model, copy);
        }
      } catch (IOException e) {
        // The session is fine; the next process tries to save the copy again.
      }
      return session;
    } finally {
      Files.deleteIfExists(partial);
    }
  }

  /**
   * The copy's file name: the model file's name, size and modification time (a changed model gets a
   * new copy) and the ONNX Runtime version (whose graph format and optimizations may change).
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

  /** Deletes this user's copies of the same model file made for an older model or runtime. */
  private static void removeOlderCopies(Path model, Path keep) throws IOException {
    String file = model.getFileName().toString();
    String base = file.endsWith(".onnx") ? file.substring(0, file.length() - 5) : file;
    try (DirectoryStream<Path> copies =
        Files.newDirectoryStream(keep.getParent(), base + ".*" + SUFFIX)) {
      for (Path old : copies) {
        if (!old.equals(keep) && ModelFile.ownedByCurrentUser(old)) {
          Files.deleteIfExists(old);
        }
      }
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "no reason given";
    }
    int end = message.indexOf('\n');
    return (end < 0 ? message : message.substring(0, end)).strip();
  }

  /** Makes a fresh set of session settings for each session created. */
  @FunctionalInterface
  interface OptionsFactory {
    OrtSession.SessionOptions create() throws OrtException;
  }
}
