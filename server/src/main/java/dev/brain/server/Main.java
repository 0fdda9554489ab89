package dev.brain.server;

import dev.brain.models.Embedder;
import dev.brain.server.cli.BrainCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Entry point of the {@code brain} command line: {@code bin/brain} runs this class. */
public final class Main {
  // Held strongly: java.util.logging keeps only weak references to configured loggers.
  private static final Logger LUCENE_LOG = Logger.getLogger("org.apache.lucene");

  // Its notice that the vector API is off (bin/brain runs short commands without C2) is not news.
  private static final Logger LUCENE_VECTOR_LOG =
      Logger.getLogger("org.apache.lucene.internal.vectorization");

  /** PDFBox and its font parser. */
  private static final java.util.List<String> PDF_LOGGERS =
      java.util.List.of("org.apache.pdfbox", "org.apache.fontbox");

  private Main() {}

  /** Option {@code bin/brain} uses to hand over long arguments in a file. */
  static final String ARGS_FILE = "--args-file";

  /** Runs the CLI and exits with its code: 0 ok, 1 error, 2 usage. */
  public static void main(String[] args) throws IOException {
    RealStderr.restore();
    quietLibraries();
    String[] expanded = expandArgsFile(args);
    BrainCommand.preloadBeforeParsing(expanded);
    int code = BrainCommand.run(expanded);
    // An embedding model still loading on another thread must not see the process exit under it.
    Embedder.awaitPreload();
    System.exit(code);
  }

  /**
   * {@code --args-file FILE} stands for the NUL-separated arguments in FILE, which is deleted. ONNX
   * Runtime 1.29 crashes (SIGSEGV) when the process command line exceeds about 4 KB, which a pasted
   * question can do; {@code bin/brain} therefore passes long arguments this way.
   */
  static String[] expandArgsFile(String[] args) throws IOException {
    if (args.length != 2 || !ARGS_FILE.equals(args[0])) {
      return args;
    }
    var file = Path.of(args[1]);
    var content = Files.readString(file);
    Files.deleteIfExists(file);
    if (content.isEmpty()) {
      return new String[0];
    }
    var parts = content.split("\0", -1);
    // printf '%s\0' ends every argument with NUL, so the last part is empty.
    return parts[parts.length - 1].isEmpty() ? Arrays.copyOf(parts, parts.length - 1) : parts;
  }

  /**
   * Library chatter (Lucene's vector-API notice, DJL's GPU probe, PDFBox font fallbacks) is not for
   * the user; real problems surface as brain's own errors. {@code --debug} does not change this;
   * set {@code -Dorg.slf4j.simpleLogger.defaultLogLevel=info} in BRAIN_JAVA_OPTS to see it. PDFBox
   * logs errors with stack traces about PDFs it reads anyway or that fail as brain's one line per
   * file (through commons-logging, which finds SLF4J): it is silent unless asked, with {@code
   * -Dorg.slf4j.simpleLogger.log.org.apache.pdfbox=warn}.
   */
  private static void quietLibraries() {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "error");
    }
    for (String pdf : PDF_LOGGERS) {
      if (System.getProperty("org.slf4j.simpleLogger.log." + pdf) == null) {
        System.setProperty("org.slf4j.simpleLogger.log." + pdf, "off");
      }
    }
    LUCENE_LOG.setLevel(Level.WARNING);
    LUCENE_VECTOR_LOG.setLevel(Level.SEVERE);
  }
}
