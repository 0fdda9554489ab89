package dev.brain.evals;

import dev.brain.Brain;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.SyncListener;
import dev.brain.research.note.NoteRequest;
import dev.brain.research.note.NoteResearchException;
import dev.brain.research.note.NoteResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The note-research rubric on a vault: a copy of the vault (and of any other folders, as
 * collections beside it) is indexed into the evaluation's own data directory, then each note (or an
 * even sample) is researched twice as a user would run it, each run writing its section into the
 * copy and re-indexing it. The first section is scored by {@link NoteResearchRubric}; the second
 * must equal it. The user's vault is never written.
 */
public final class NoteResearchEvaluation {

  /**
   * What to evaluate.
   *
   * @param vault the vault whose notes are researched
   * @param others folders indexed beside it as collections of their own (their notes are sources,
   *     never link targets)
   * @param maxNotes notes researched, evenly spread over the vault in path order; 0 for all
   */
  public record Options(Path vault, List<Path> others, int maxNotes) {
    public Options {
      others = List.copyOf(others);
      if (maxNotes < 0) {
        throw new IllegalArgumentException("maxNotes must be 0 or more");
      }
    }
  }

  private final Options options;

  public NoteResearchEvaluation(Options options) {
    this.options = options;
  }

  /**
   * Runs the evaluation on {@code brain}, an evaluation brain of its own data directory (see {@code
   * BrainConfig.forEvaluation}) configured without a chat model, so that runs are repeatable.
   *
   * @param log receives one line per researched note
   * @throws EvalException if the vault is no folder or holds no note
   */
  public NoteResearchReport run(Brain brain, SyncListener sync, Consumer<String> log)
      throws IOException, InterruptedException {
    if (!Files.isDirectory(options.vault())) {
      throw new EvalException("not a folder: " + options.vault());
    }
    Path copies = brain.config().dataDir().resolve("vaults");
    var collections = new ArrayList<CollectionRoot>();
    var names = new java.util.HashSet<String>();
    var folders = new ArrayList<Path>();
    folders.add(options.vault());
    folders.addAll(options.others());
    for (Path folder : folders) {
      if (!Files.isDirectory(folder)) {
        throw new EvalException("not a folder: " + folder);
      }
      String base = CollectionRoot.defaultName(folder.toAbsolutePath().normalize());
      String name = base;
      for (int n = 2; !names.add(name); n++) {
        name = base + "-" + n;
      }
      Path copy = copies.resolve(name);
      replaceWithCopy(folder, copy);
      collections.add(CollectionRoot.of(name, copy));
    }
    CollectionsFile.of(brain.config().dataDir()).write(collections);
    brain.sync(collections, sync);
    CollectionRoot vault = collections.getFirst();
    List<Path> notes = sample(notes(vault.root()), options.maxNotes());
    var files = new FileVault(vault.root());
    var results = new ArrayList<NoteResearchReport.Note>();
    for (Path note : notes) {
      String rel = vault.root().relativize(note).toString().replace('\\', '/');
      NoteResearchReport.Note result;
      try {
        NoteResult first = brain.researchNote(NoteRequest.of(note));
        NoteResult second = brain.researchNote(NoteRequest.of(note));
        var score = NoteResearchRubric.score(first.section(), files);
        result =
            new NoteResearchReport.Note(
                rel,
                null,
                first.topics().size(),
                score.bullets(),
                score.duplicates(),
                score.excerpts(),
                score.cut(),
                score.links(),
                score.foreign(),
                score.filler(),
                first.section().equals(second.section()),
                score.findings(),
                first.section());
      } catch (NoteResearchException e) {
        result =
            new NoteResearchReport.Note(
                rel, e.getMessage(), 0, 0, 0, 0, 0, 0, 0, 0, false, List.of(), null);
      }
      results.add(result);
      log.accept(result.line());
    }
    return NoteResearchReport.of(
        options.vault().toString(),
        options.others().stream().map(Path::toString).toList(),
        Instant.now().toString(),
        results);
  }

  /** The text notes of a folder, hidden folders ({@code .obsidian}, {@code .trash}) left out. */
  static List<Path> notes(Path root) throws IOException {
    var out = new ArrayList<Path>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            return !dir.equals(root) && dir.getFileName().toString().startsWith(".")
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
            if (attrs.isRegularFile()
                && (name.endsWith(".md") || name.endsWith(".markdown") || name.endsWith(".txt"))) {
              out.add(file);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    out.sort(null);
    return out;
  }

  /** {@code max} of {@code all}, evenly spread (every k-th), or all of them for 0. */
  static List<Path> sample(List<Path> all, int max) {
    if (max == 0 || all.size() <= max) {
      return all;
    }
    var out = new ArrayList<Path>();
    for (int i = 0; i < max; i++) {
      out.add(all.get((int) ((long) i * all.size() / max)));
    }
    return out;
  }

  /** {@code target} made an exact copy of {@code source}: files of an earlier run removed. */
  private static void replaceWithCopy(Path source, Path target) throws IOException {
    if (Files.exists(target)) {
      try (Stream<Path> walk = Files.walk(target)) {
        for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    try (Stream<Path> walk = Files.walk(source)) {
      walk.forEach(
          p -> {
            Path to = target.resolve(source.relativize(p).toString());
            try {
              if (Files.isDirectory(p)) {
                Files.createDirectories(to);
              } else {
                Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
              }
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** The vault's notes as the rubric reads them, from the files. */
  private static final class FileVault implements NoteResearchRubric.Vault {
    /** Paths without extension, in lower case, by lower-case file name without extension. */
    private final Map<String, List<Path>> byName = new HashMap<>();

    private final Path root;

    FileVault(Path root) throws IOException {
      this.root = root;
      for (Path p : notes(root)) {
        byName.computeIfAbsent(stem(p.getFileName().toString()), k -> new ArrayList<>()).add(p);
      }
    }

    private static String stem(String name) {
      int dot = name.lastIndexOf('.');
      return (dot > 0 ? name.substring(0, dot) : name).toLowerCase(Locale.ROOT);
    }

    private Path find(String target) {
      String t = target.strip().replace('\\', '/');
      String name = stem(t.substring(t.lastIndexOf('/') + 1) + ".md");
      String want = t.toLowerCase(Locale.ROOT);
      for (Path p : byName.getOrDefault(name, List.of())) {
        String rel = root.relativize(p).toString().replace('\\', '/').toLowerCase(Locale.ROOT);
        String stem = rel.substring(0, rel.lastIndexOf('.'));
        if (!t.contains("/") || stem.equals(want) || stem.endsWith("/" + want)) {
          return p;
        }
      }
      return null;
    }

    @Override
    public boolean holds(String target) {
      return find(target) != null;
    }

    @Override
    public List<String> blocks(String target) {
      Path p = find(target);
      if (p == null) {
        return null;
      }
      try {
        String text = Files.readString(p);
        int research = text.indexOf("\n## Research");
        return NoteResearchRubric.Vault.blocksOf(research < 0 ? text : text.substring(0, research));
      } catch (IOException e) {
        return null;
      }
    }
  }
}
