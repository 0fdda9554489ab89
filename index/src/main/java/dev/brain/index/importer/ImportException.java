package dev.brain.index.importer;

import java.nio.file.Path;

/**
 * A file could not be imported. {@link #skipped()} files are of a type brain does not read (binary,
 * unknown extension); the others are malformed. Either way the sync goes on.
 */
public final class ImportException extends Exception {
  private static final long serialVersionUID = 1L;

  private final Path file;
  private final boolean skipped;

  private ImportException(Path file, String reason, boolean skipped, Throwable cause) {
    super(reason, cause);
    this.file = file;
    this.skipped = skipped;
  }

  /** The file is not of a supported type; {@code reason} says why, for the sync report. */
  public static ImportException unsupported(Path file, String reason) {
    return new ImportException(file, reason, true, null);
  }

  /** The file has a supported type but could not be parsed. */
  public static ImportException malformed(Path file, String reason, Throwable cause) {
    return new ImportException(file, reason, false, cause);
  }

  /**
   * Why a reader failed unexpectedly, in words a user can read: never a Java class name. A stack
   * overflow means input nested deeper than the reader could follow.
   */
  public static String plainReason(Throwable e) {
    if (e instanceof StackOverflowError) {
      return "its content is nested too deeply to read";
    }
    String message = e.getMessage();
    // A library's own bug (a null pointer, an index out of bounds) speaks of its classes.
    boolean forUsers =
        message != null
            && !message.isBlank()
            && !(e instanceof NullPointerException
                || e instanceof IndexOutOfBoundsException
                || e instanceof ClassCastException
                || e instanceof ArithmeticException)
            && !JAVA_NAME.matcher(message).find();
    return forUsers
        ? message.strip()
        : "brain's reader failed on its content (a bug worth reporting, with the file if you can)";
  }

  /** A qualified Java class name, such as {@code org.apache.fontbox.type1.Token}. */
  private static final java.util.regex.Pattern JAVA_NAME =
      java.util.regex.Pattern.compile(
          "\\b(?:java|javax|jdk|sun|com|org|dev|io)\\.[a-z0-9_.]*[A-Z]");

  /** The file that failed. */
  public Path file() {
    return file;
  }

  /** True when the file was skipped as unsupported rather than failed as malformed. */
  public boolean skipped() {
    return skipped;
  }
}
