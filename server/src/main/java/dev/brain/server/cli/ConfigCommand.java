package dev.brain.server.cli;

import dev.brain.BrainConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code brain config}: the effective configuration and where each value came from. */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = {
      "Show the effective configuration and where each value came from: the default,"
          + " <data>/brain.yaml (with its line), an environment variable or a flag.",
      "Environment variables override brain.yaml; flags of a command override both."
    })
final class ConfigCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Print the configuration as JSON.")
  boolean json;

  /**
   * The printed configuration.
   *
   * @param dataDir the data directory
   * @param dataDirSource where it came from
   * @param file the configuration file, whether present or not
   * @param filePresent whether the file exists
   * @param settings every value with its source and overriding environment variable
   */
  record Shown(
      Path dataDir,
      String dataDirSource,
      Path file,
      boolean filePresent,
      List<BrainConfig.Setting> settings) {}

  @Override
  public Integer call() {
    BrainConfig config = brain.config();
    Path file = config.dataDir().resolve(BrainConfig.FILE);
    var shown =
        new Shown(
            config.dataDir(),
            brain.dataDirSource(),
            file,
            Files.isRegularFile(file),
            config.settings());
    var out = spec.commandLine().getOut();
    if (json) {
      out.println(PrettyJson.pretty(shown));
      return 0;
    }
    out.println("data dir  " + shown.dataDir() + "  (" + shown.dataDirSource() + ")");
    out.println("file      " + file + (shown.filePresent() ? "" : "  (none: defaults apply)"));
    out.println();
    int keyWidth = width(shown.settings(), true);
    int valueWidth = width(shown.settings(), false);
    String row = "%-" + keyWidth + "s  %-" + valueWidth + "s  %s%n";
    out.printf(Locale.ROOT, row, "KEY", "VALUE", "FROM");
    for (var s : shown.settings()) {
      String from = s.source() + (s.env() == null ? "" : "  [env " + s.env() + "]");
      if (s.source().startsWith("env ")) {
        from = s.source();
      }
      out.printf(Locale.ROOT, row, s.key(), s.value(), from);
    }
    return 0;
  }

  private static int width(List<BrainConfig.Setting> settings, boolean key) {
    int w = 5;
    for (var s : settings) {
      w = Math.max(w, (key ? s.key() : s.value()).length());
    }
    return Math.min(w, 40);
  }
}
