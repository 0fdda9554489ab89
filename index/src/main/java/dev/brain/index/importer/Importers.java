package dev.brain.index.importer;

import dev.brain.index.CollectionRoot;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Reads files of every supported format into {@link dev.brain.index.CorpusRecord}s: Markdown vaults
 * and MDX docs, plain text, saved HTML pages, PDF, JSONL (including BEIR {@code corpus.jsonl}),
 * Netscape bookmark exports, RSS/Atom feeds and WebVTT/SRT transcripts. The format is chosen by
 * extension (and, for {@code .html} and {@code .xml}, by the file's start). Thread-safe.
 *
 * <p>Wikilinks name files, not paths, so resolving them needs the vault's file names: {@link #walk}
 * remembers them per root, and {@link #read} lists the root itself once if it was not walked. A
 * note read after files were added or renamed sees the names of the last walk.
 */
public final class Importers {

  /** Extensions {@link #read} handles, lower-case, without the dot. */
  public static final Set<String> EXTENSIONS =
      Set.of(
          "md",
          "markdown",
          "mdx",
          "txt",
          "html",
          "htm",
          "pdf",
          "jsonl",
          "ndjson",
          "xml",
          "rss",
          "atom",
          "vtt",
          "srt");

  /** Folders brain writes itself (traces, chat transcripts): never evidence, never imported. */
  private static final Set<String> OWN_FOLDERS = Set.of("research-runs", "chat-transcripts");

  private final Map<Path, NoteNames> namesByRoot = new ConcurrentHashMap<>();

  private Importers() {}

  /** The importers for every supported format. */
  public static Importers defaults() {
    return new Importers();
  }

  /**
   * Lists the files below {@code root} (or {@code root} itself if it is a file) that a sync should
   * consider, sorted by their path relative to {@code root}. Hidden files and folders ({@code
   * .obsidian}, {@code .git}, {@code .trash}, ...), brain's own data folders (a Lucene index,
   * {@code research-runs}, {@code chat-transcripts}) and symbolic links are left out. Files of
   * unsupported types are listed: {@link #read} reports them as skipped.
   */
  public List<Path> walk(Path root) throws IOException {
    return walk(root, List.of(), (file, reason) -> {});
  }

  /**
   * As {@link #walk(Path)}, telling {@code skipped} about each symbolic link and special file
   * (FIFO, socket, device) left out, with the reason in words: a link loop, a link out of the
   * folder, a broken link, a link inside it (brain reads files, not links to them).
   */
  public List<Path> walk(Path root, BiConsumer<Path, String> skipped) throws IOException {
    return walk(root, List.of(), skipped);
  }

  /**
   * {@link #walk(Path, BiConsumer)}, also leaving out what the exclude globs match (see {@code
   * dev.brain.index.CollectionRoot#excludes()} for their form). Wikilinks resolve only to files the
   * walk kept.
   */
  public List<Path> walk(Path root, List<String> excludes, BiConsumer<Path, String> skipped)
      throws IOException {
    Path r = root.toAbsolutePath().normalize();
    if (Files.isRegularFile(r)) {
      return List.of(r);
    }
    List<Path> files = list(r, Excludes.of(excludes), skipped);
    namesByRoot.put(r, NoteNames.of(files.stream().map(f -> relative(r, f)).toList()));
    return files;
  }

  private static List<Path> list(Path r, Excludes excludes, BiConsumer<Path, String> skipped)
      throws IOException {
    var files = new ArrayList<Path>();
    Files.walkFileTree(
        r,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            return dir.equals(r)
                    || !(skippedFolder(dir) || excludes.excludes(r.relativize(dir), true))
                ? FileVisitResult.CONTINUE
                : FileVisitResult.SKIP_SUBTREE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (hidden(file) || excludes.excludes(r.relativize(file), false)) {
              return FileVisitResult.CONTINUE;
            }
            if (attrs.isSymbolicLink()) {
              skipped.accept(file, linkReason(r, file));
            } else if (attrs.isOther()) {
              skipped.accept(
                  file, "a special file (FIFO, socket or device), not a regular file; not read");
            } else if (attrs.isRegularFile()) {
              files.add(file);
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (file.equals(r)) {
              throw e;
            }
            // An unreadable entry must not stop the sync, nor vanish from its report; what the
            // walk would have left out anyway stays unmentioned.
            boolean folder = Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS);
            if (!hidden(file)
                && !(folder && skippedFolder(file))
                && !excludes.excludes(r.relativize(file), folder)) {
              skipped.accept(file, unreadable(folder, e));
            }
            return FileVisitResult.CONTINUE;
          }
        });
    // Names that differ only in bytes that are not UTF-8 read alike: their bytes settle the order.
    // Each file's name is made once, not at every comparison (n log n relativizations on 10,000
    // files were an eighth of a no-change sync's time).
    var named = new ArrayList<Map.Entry<String, Path>>(files.size());
    for (Path f : files) {
      named.add(Map.entry(relative(r, f), f));
    }
    named.sort(
        Map.Entry.<String, Path>comparingByKey().thenComparing(Map.Entry.comparingByValue()));
    return named.stream().map(Map.Entry::getValue).toList();
  }

  /**
   * Reads one file into records, with warnings for parts of the file that were skipped.
   *
   * @param file the file to read
   * @param root the import root it was found under; note keys and paths are relative to it (a file
   *     outside {@code root}, or {@code root} itself, is taken relative to its own folder)
   * @throws ImportException if the file is unsupported (skipped) or malformed; bad input never
   *     raises anything else
   */
  public ImportResult read(Path file, Path root) throws ImportException {
    return read(file, root, CollectionRoot.defaultName(root));
  }

  /**
   * Reads one file of a collection: path-named keys carry the collection ({@code
   * note:<collection>/<path>}, {@code src:} of {@code file:<collection>/<path>}); wikilinks resolve
   * within the collection.
   *
   * @param collection the collection name (see {@link CollectionRoot#requireValidName})
   * @throws ImportException as for {@link #read(Path, Path)}
   */
  public ImportResult read(Path file, Path root, String collection) throws ImportException {
    if (!Files.isRegularFile(file)) {
      throw ImportException.malformed(file, "not a readable file: " + file, null);
    }
    SourceFile source;
    try {
      source = SourceFile.of(file, root, collection);
    } catch (IOException e) {
      throw ImportException.malformed(file, "cannot read " + file + ": " + e.getMessage(), e);
    }
    try {
      return dispatch(source);
    } catch (RuntimeException | StackOverflowError e) {
      // A parser bug on odd input must cost one file, not the sync.
      throw ImportException.malformed(
          source.file(),
          "could not parse " + source.file() + ": " + ImportException.plainReason(e),
          e);
    }
  }

  private ImportResult dispatch(SourceFile file) throws ImportException {
    return switch (file.extension()) {
      case "md", "markdown" -> MarkdownImporter.read(file, names(file.root(), file.collection()));
      case "mdx" -> MarkdownImporter.readMdx(file, names(file.root(), file.collection()));
      case "txt" -> PlainTextImporter.read(file);
      case "html", "htm" -> readHtml(file);
      case "pdf" -> PdfImporter.read(file);
      case "jsonl", "ndjson" -> JsonlImporter.read(file);
      case "xml", "rss", "atom" -> FeedImporter.read(file);
      case "vtt" -> TranscriptImporter.readVtt(file);
      case "srt" -> TranscriptImporter.readSrt(file);
      default ->
          throw ImportException.unsupported(
              file.file(),
              (file.extension().isEmpty()
                      ? "no file extension"
                      : "unsupported file type ." + file.extension())
                  + "; brain imports "
                  + String.join(", ", EXTENSIONS.stream().sorted().toList()));
    };
  }

  private static ImportResult readHtml(SourceFile file) throws ImportException {
    byte[] head = file.head();
    file.requireText(head);
    return BookmarksImporter.sniff(head) ? BookmarksImporter.read(file) : HtmlImporter.read(file);
  }

  private NoteNames names(Path root, String collection) {
    NoteNames names = namesByRoot.get(root);
    if (names == null) {
      try {
        names =
            NoteNames.of(
                list(root, Excludes.of(CollectionRoot.DEFAULT_EXCLUDES), (file, reason) -> {})
                    .stream()
                    .map(f -> relative(root, f))
                    .toList());
      } catch (IOException e) {
        names = NoteNames.of(List.of()); // links stay unresolved; the note itself still imports
      }
      NoteNames earlier = namesByRoot.putIfAbsent(root, names);
      names = earlier != null ? earlier : names;
    }
    return names.in(collection);
  }

  /** Why the walk could not enter a folder (or read a file's attributes), in words. */
  static String unreadable(boolean folder, IOException e) {
    String what = folder ? "a folder brain cannot enter" : "an entry brain cannot read";
    String why =
        e instanceof AccessDeniedException
            ? "permission denied"
            : e instanceof FileSystemException f ? f.getReason() : null;
    return what
        + (why == null ? "" : " (" + why + ")")
        + (folder ? "; nothing in it is indexed" : "; not read");
  }

  /** Why a symbolic link is not followed. */
  static String linkReason(Path root, Path link) {
    Path target;
    try {
      target = link.toRealPath();
    } catch (java.nio.file.NoSuchFileException e) {
      return "a broken symbolic link (its target does not exist); not followed";
    } catch (IOException e) {
      String why = e.getMessage() == null ? "" : e.getMessage();
      return why.contains("levels of symbolic links")
          ? "a symbolic link loop; not followed"
          : "a symbolic link that cannot be resolved; not followed";
    }
    try {
      if (!target.startsWith(root.toRealPath())) {
        return "a symbolic link to a path outside the synced folder; not followed";
      }
    } catch (IOException e) {
      return "a symbolic link that cannot be resolved; not followed";
    }
    return "a symbolic link; brain reads files, not links to them (sync the target itself)";
  }

  private static boolean skippedFolder(Path dir) {
    String name = dir.getFileName().toString();
    return name.startsWith(".")
        || OWN_FOLDERS.contains(name)
        || name.equals("node_modules")
        || Files.exists(dir.resolve("write.lock")); // a Lucene index
  }

  private static boolean hidden(Path file) {
    return file.getFileName().toString().startsWith(".");
  }

  private static String relative(Path root, Path file) {
    return root.relativize(file).toString().replace('\\', '/');
  }
}
