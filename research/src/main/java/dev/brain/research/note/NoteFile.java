package dev.brain.research.note;

import dev.brain.index.CollectionRoot;
import dev.brain.research.note.NoteResearchException.Reason;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A note as read for research: where it really is, which collection holds it, its exact bytes and
 * text. Only text notes inside a collection (after resolving symlinks) are accepted; the write goes
 * back to the same real file, atomically, and only if the bytes on disk are still the ones read.
 *
 * @param path the real path (symlinks resolved)
 * @param collection the collection that holds it
 * @param key {@code note:<collection>/<path in the collection>}
 * @param bytes the file's bytes when read
 * @param text the file's text (UTF-8)
 */
record NoteFile(Path path, CollectionRoot collection, String key, byte[] bytes, String text) {

  static final List<String> EXTENSIONS = List.of(".md", ".markdown", ".mdx", ".txt");

  /** Largest note file accepted: far above any note; the topic input is capped separately. */
  static final long MAX_FILE_BYTES = 16L << 20;

  /**
   * Reads {@code input} if it is a text note inside one of {@code collections}.
   *
   * @throws NoteResearchException with a message naming the path and what to do
   */
  static NoteFile read(Path input, List<CollectionRoot> collections) throws IOException {
    String name = input.getFileName() == null ? "" : input.getFileName().toString();
    requireTextExtension(input, name);
    Path real;
    try {
      real = input.toAbsolutePath().toRealPath();
    } catch (NoSuchFileException e) {
      throw new NoteResearchException(Reason.NOT_FOUND, "no such note: " + input, "path");
    }
    requireTextExtension(input, real.getFileName().toString());
    if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoteResearchException(Reason.INVALID_INPUT, input + " is not a file", "path");
    }
    if (collections.isEmpty()) {
      throw new NoteResearchException(
          Reason.INVALID_INPUT,
          "no collections are configured; add the note's folder with 'brain add FOLDER' first",
          "path");
    }
    for (CollectionRoot c : collections) {
      Path root;
      try {
        root = c.root().toRealPath();
      } catch (NoSuchFileException e) {
        continue;
      }
      if (real.startsWith(root) && !real.equals(root)) {
        return load(real, c, root.relativize(real));
      }
      if (real.equals(root)) {
        return load(real, c, real.getFileName());
      }
    }
    throw new NoteResearchException(
        Reason.INVALID_INPUT,
        input
            + " is not inside a configured collection (symlinks resolved: "
            + real
            + "); note research writes only into collections ('brain collections' lists them)",
        "path");
  }

  private static void requireTextExtension(Path input, String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (EXTENSIONS.stream().noneMatch(lower::endsWith)) {
      throw new NoteResearchException(
          Reason.INVALID_INPUT,
          input
              + " is not a text note; note research reads only .md, .markdown, .mdx and .txt files",
          "path");
    }
  }

  private static NoteFile load(Path real, CollectionRoot c, Path relative) throws IOException {
    if (Files.size(real) > MAX_FILE_BYTES) {
      throw new NoteResearchException(
          Reason.INVALID_INPUT,
          real + " is larger than " + (MAX_FILE_BYTES >> 20) + " MiB; that is no note",
          "path");
    }
    byte[] bytes = Files.readAllBytes(real);
    String text = decode(real, bytes);
    String rel = relative.toString().replace('\\', '/');
    return new NoteFile(real, c, "note:" + c.name() + "/" + rel, bytes, text);
  }

  private static String decode(Path real, byte[] bytes) {
    String binary = real + " looks binary (not UTF-8 text); note research reads only text notes";
    for (byte b : bytes) {
      if (b == 0) {
        throw new NoteResearchException(Reason.INVALID_INPUT, binary, "path");
      }
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new NoteResearchException(Reason.INVALID_INPUT, binary, "path");
    }
  }

  /**
   * Replaces the file with {@code newText}: written to a temporary sibling, forced to disk, renamed
   * over the file. Refused when the file's bytes are no longer the ones read (someone edited it).
   */
  void write(String newText) throws IOException {
    requireUnchanged();
    Path dir = path.getParent();
    Path temp = dir.resolve("." + path.getFileName() + ".brain-" + UUID.randomUUID() + ".tmp");
    try {
      try (FileChannel ch =
          FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(newText.getBytes(StandardCharsets.UTF_8));
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      copyPermissions(temp);
      requireUnchanged();
      Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("cannot replace " + path + " atomically; nothing was written", e);
    } finally {
      Files.deleteIfExists(temp);
    }
    forceDirectory(dir);
  }

  /** Throws {@link Reason#CONFLICT} when the file on disk is no longer what was read. */
  void requireUnchanged() throws IOException {
    byte[] now;
    try {
      now = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw new NoteResearchException(
          Reason.CONFLICT, path + " was removed during research; nothing was written", "path");
    }
    if (!Arrays.equals(now, bytes)) {
      throw new NoteResearchException(
          Reason.CONFLICT,
          path
              + " changed while it was being researched; nothing was written, so no edit is lost"
              + " (run it again)",
          "path");
    }
  }

  private void copyPermissions(Path temp) throws IOException {
    var view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
    if (view != null) {
      Files.setPosixFilePermissions(temp, view.readAttributes().permissions());
    }
  }

  private static void forceDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Some file systems cannot sync a directory; the rename itself is done.
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NoteFile other && other.path.equals(path) && other.key.equals(key);
  }

  @Override
  public int hashCode() {
    return path.hashCode() * 31 + key.hashCode();
  }

  @Override
  public String toString() {
    return "NoteFile[" + key + "]";
  }
}
