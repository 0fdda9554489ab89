package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.index.IndexMetadata;
import dev.brain.index.SyncReport;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code brain demo}: indexes the bundled sample vault into {@code <data>/demo} (incrementally, so
 * a second start is quick) and serves it. The README's first command.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Index the sample vault (samples/vault) into <data>/demo and serve the web Chat over it.",
      "Your own index in <data>/index is not touched. Re-running re-indexes only what changed."
    })
final class DemoCommand implements Callable<Integer> {

  /** The demo's folder inside the data directory. */
  static final String DEMO_DIR = "demo";

  @ParentCommand BrainCommand brain;

  @Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin ServeCommand.Listen listen = new ServeCommand.Listen();

  @Option(
      names = "--vault",
      paramLabel = "DIR",
      description = "Index this folder instead of the bundled samples/vault.")
  Path vault;

  @Option(names = "--no-progress", description = "Show no indexing progress.")
  boolean noProgress;

  @Option(
      names = "--index-only",
      description = "Index the sample vault and exit without serving (for scripts and CI).")
  boolean indexOnly;

  @Override
  public Integer call() throws Exception {
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    Path demoData = brain.dataDir().resolve(DEMO_DIR);
    var config = listen.apply(brain, spec.commandLine()).withDataDir(demoData);
    Path source = resolveVault();
    out.println("brain: indexing " + source + " into " + demoData.resolve("index"));
    out.flush();
    SyncReport report;
    IndexMetadata metadata;
    // The demo's own collection list, so `brain --data DEMO_DIR status` names its root.
    var collection = dev.brain.index.CollectionRoot.of(source);
    dev.brain.index.CollectionsFile.of(demoData).write(List.of(collection));
    try (var demo = Brain.open(config)) {
      try (var progress = SyncProgress.forCommand(!noProgress, err)) {
        report = demo.index(List.of(source), progress);
      }
      metadata = demo.stats().metadata();
    }
    SyncSummary.print(report, metadata, out);
    if (indexOnly) {
      return report.failed().isEmpty() ? 0 : BrainCommand.EXIT_ERROR;
    }
    ServeCommand.serve(config, out, err);
    return 0;
  }

  /** {@code --vault}, else {@code samples/vault} in the working directory or above the jar. */
  private Path resolveVault() {
    if (vault != null) {
      if (!Files.isDirectory(vault)) {
        throw new ParameterException(spec.commandLine(), "--vault: no such folder: " + vault);
      }
      return vault.toAbsolutePath().normalize();
    }
    return findSampleVault();
  }

  /**
   * The bundled {@code samples/vault}: in the working directory or one of its parents, or above the
   * jar ({@code server/target/brain.jar} in a checkout).
   *
   * @throws IllegalStateException naming the places looked at if there is none
   */
  static Path findSampleVault() {
    var looked = new ArrayList<Path>();
    for (Path root : candidateRoots()) {
      Path candidate = root.resolve("samples").resolve("vault").normalize();
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
      looked.add(candidate);
    }
    throw new IllegalStateException(
        "the sample vault was not found (looked in "
            + looked
            + "); run brain demo from the brain checkout, or pass --vault DIR");
  }

  /** The working directory and its parents, then the jar's folder and its parents. */
  private static List<Path> candidateRoots() {
    var roots = new ArrayList<Path>();
    addWithParents(roots, Path.of("").toAbsolutePath(), 2);
    try {
      var location = DemoCommand.class.getProtectionDomain().getCodeSource().getLocation();
      addWithParents(roots, Path.of(location.toURI()).getParent(), 4);
    } catch (URISyntaxException | RuntimeException e) {
      // no code source (unusual class loader): the working directory is all we can try
    }
    return roots;
  }

  private static void addWithParents(List<Path> roots, Path start, int levels) {
    Path p = start;
    for (int i = 0; i <= levels && p != null; i++, p = p.getParent()) {
      if (!roots.contains(p)) {
        roots.add(p);
      }
    }
  }
}
