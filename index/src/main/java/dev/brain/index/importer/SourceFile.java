package dev.brain.index.importer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Locale;

/**
 * One file being imported, with the facts every importer needs: where it is relative to the import
 * root, when it was last modified, and its text read safely.
 *
 * @param file absolute, normalized path
 * @param root absolute, normalized import root (the file's folder when a single file is imported)
 * @param relativePath path below {@code root} with forward slashes
 * @param modified last modification time, to the second
 * @param collection the collection the file is read for; path-named keys carry it
 */
record SourceFile(Path file, Path root, String relativePath, Instant modified, String collection) {

  /** How many leading bytes are checked for NUL to tell binary files from text. */
  static final int SNIFF_BYTES = 8192;

  static SourceFile of(Path file, Path root, String collection) throws IOException {
    Path f = file.toAbsolutePath().normalize();
    Path r = root.toAbsolutePath().normalize();
    if (Files.isRegularFile(r) || f.equals(r) || !f.startsWith(r)) {
      r = f.getParent();
    }
    String relative = r.relativize(f).toString().replace('\\', '/');
    Instant modified = Files.getLastModifiedTime(f).toInstant().truncatedTo(ChronoUnit.SECONDS);
    return new SourceFile(f, r, relative, modified, collection);
  }

  /** The absolute, normalized path, as records' {@code origin}. */
  String origin() {
    return file.toString();
  }

  /** The file name without its extension, the fallback title. */
  String baseName() {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  /** The lower-case extension without the dot, or the empty string. */
  String extension() {
    return extensionOf(file.getFileName().toString());
  }

  static String extensionOf(String name) {
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
  }

  /** The first {@link #SNIFF_BYTES} bytes of the file. */
  byte[] head() throws ImportException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(SNIFF_BYTES);
    } catch (IOException e) {
      throw unreadable(e);
    }
  }

  /**
   * Fails as unsupported when the head holds two NUL bytes in a row (a binary file under a text
   * extension: binary formats pad with zeros), unless a UTF-16 byte-order mark says the NULs are
   * text. A stray NUL in a text file (a crashed editor, a bad copy) does not make it binary; {@link
   * #readText} drops it.
   */
  void requireText(byte[] head) throws ImportException {
    if (utf16(head) != null) {
      return;
    }
    for (int i = 1; i < head.length; i++) {
      if (head[i] == 0 && head[i - 1] == 0) {
        throw ImportException.unsupported(
            file,
            "binary content (NUL bytes) in a ."
                + extension()
                + " file; brain imports only text in this format");
      }
    }
    if (mostlyNotText(head)) {
      throw ImportException.unsupported(
          file,
          "binary content (mostly bytes that are not text) in a ."
              + extension()
              + " file; brain imports only text in this format");
    }
  }

  /**
   * Whether more than {@value #MAX_NON_TEXT_PERCENT}% of the head's characters are invalid UTF-8 or
   * control characters: binary data without NUL bytes. Text in another 8-bit encoding (a few
   * accented letters per line) stays well below that.
   */
  static boolean mostlyNotText(byte[] head) {
    if (head.length < 64) {
      return false;
    }
    String text = new String(head, StandardCharsets.UTF_8); // malformed bytes become U+FFFD
    long bad =
        text.chars()
            .filter(
                c ->
                    c == '\uFFFD'
                        || (Character.isISOControl(c)
                            && c != '\n'
                            && c != '\r'
                            && c != '\t'
                            && c != '\f'))
            .count();
    return bad * 100 > (long) text.length() * MAX_NON_TEXT_PERCENT;
  }

  /** See {@link #mostlyNotText}. */
  static final int MAX_NON_TEXT_PERCENT = 30;

  /**
   * The whole file as text: UTF-8 unless a byte-order mark says UTF-16, malformed bytes replaced,
   * NUL characters and the byte-order mark dropped, line endings kept.
   */
  String readText() throws ImportException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw unreadable(e);
    }
    requireText(bytes.length > SNIFF_BYTES ? Arrays.copyOf(bytes, SNIFF_BYTES) : bytes);
    Charset charset = utf16(bytes);
    int skip = 0;
    if (charset != null) {
      skip = 2;
    } else {
      charset = StandardCharsets.UTF_8;
      skip = hasUtf8Bom(bytes) ? 3 : 0;
    }
    try {
      return charset
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(bytes, skip, bytes.length - skip))
          .toString()
          .replace("\0", "");
    } catch (CharacterCodingException e) {
      throw ImportException.malformed(file, "cannot decode the text of " + file, e);
    }
  }

  /** Whether the file starts with a UTF-16 byte-order mark. */
  boolean hasUtf16Bom() throws ImportException {
    return utf16(head()) != null;
  }

  ImportException unreadable(IOException e) {
    return ImportException.malformed(file, "cannot read " + file + ": " + e.getMessage(), e);
  }

  private static Charset utf16(byte[] b) {
    if (b.length >= 2 && (b[0] & 0xff) == 0xFF && (b[1] & 0xff) == 0xFE) {
      return StandardCharsets.UTF_16LE;
    }
    if (b.length >= 2 && (b[0] & 0xff) == 0xFE && (b[1] & 0xff) == 0xFF) {
      return StandardCharsets.UTF_16BE;
    }
    return null;
  }

  private static boolean hasUtf8Bom(byte[] b) {
    return b.length >= 3 && (b[0] & 0xff) == 0xEF && (b[1] & 0xff) == 0xBB && (b[2] & 0xff) == 0xBF;
  }
}
