package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brain.yaml} refused before anything reads it: alias bombs, duplicates, bad collections.
 */
class ConfigFileTest {

  @TempDir Path data;

  private BrainConfig load(String yaml) throws IOException {
    Files.writeString(data.resolve(BrainConfig.FILE), yaml);
    return BrainConfig.load(data, Map.of(), List.of());
  }

  /** Nine levels of nine references each: 9^9 (387 million) strings once expanded. */
  private static String billionLaughs() {
    var out = new StringBuilder("server:\n  host: x\nlol0: &l0 [\"lol\",\"lol\",\"lol\"]\n");
    for (int level = 1; level <= 9; level++) {
      String previous = "*l" + (level - 1);
      out.append("lol").append(level).append(": &l").append(level).append(" [");
      out.append(String.join(",", java.util.Collections.nCopies(9, previous)));
      out.append("]\n");
    }
    return out.toString();
  }

  @Test
  void anAliasBombIsRefusedAtOnceAsTooManyAliases() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () ->
            assertThatThrownBy(() -> load(billionLaughs()))
                .isInstanceOf(BrainConfigException.class)
                .hasMessageContaining("brain.yaml: too many aliases (")
                .hasMessageNotContaining("snakeyaml"));
  }

  @Test
  void aFewAliasesThatExpandToMillionsAreRefusedToo() {
    var yaml = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x]\n");
    for (int level = 1; level <= 8; level++) {
      yaml.append("a").append(level).append(": &a").append(level);
      yaml.append(" [*a").append(level - 1).append(", *a").append(level - 1);
      yaml.append(", *a").append(level - 1).append(", *a").append(level - 1).append("]\n");
    }
    assertTimeoutPreemptively(
        Duration.ofSeconds(30),
        () ->
            assertThatThrownBy(() -> load(yaml.toString()))
                .hasMessageContaining("too many aliases (its aliases expand to more than 10000"));
  }

  @Test
  void aDuplicateKeyIsRefusedNamingKeyAndLinesWithNothingOnStderr() {
    PrintStream err = System.err;
    var captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertThatThrownBy(() -> load("server:\n  port: 9000\n  host: x\n  port: 9001\n"))
          .isInstanceOf(BrainConfigException.class)
          .hasMessageContaining("brain.yaml line 4: duplicate key 'server.port' (first on line 2)");
      assertThatThrownBy(() -> load("server:\n  port: 9000\nserver:\n  host: x\n"))
          .hasMessageContaining("brain.yaml line 3: duplicate key 'server' (first on line 1)");
    } finally {
      System.setErr(err);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void aCollectionWithAnUnknownFieldIsRefusedListingTheFields() {
    assertThatThrownBy(
            () ->
                load(
                    "collections:\n  - name: notes\n    root: /tmp/notes\n"
                        + "    exclude: [\"drafts/\"]\n"))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml line 4: unknown field 'exclude' in a collection")
        .hasMessageContaining("name, root, excludes, max_file_mb");
  }

  @Test
  void twoCollectionsOfOneNameAreRefused() {
    assertThatThrownBy(
            () ->
                load(
                    "collections:\n  - name: notes\n    root: /tmp/a\n"
                        + "  - name: notes\n    root: /tmp/b\n"))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining(
            "brain.yaml line 4: a second collection named 'notes' (the first is on line 2)");
  }

  @Test
  void aDurationBeyondItsRangeIsRefusedAtLoad() {
    assertThatThrownBy(() -> load("research:\n  deadline: 110000d\n"))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml line 2: research.deadline = '110000d' is too long")
        .hasMessageContaining("a duration from 1s to 1d");
    assertThatThrownBy(() -> load("traces:\n  max-age: 99999999999999999999d\n"))
        .hasMessageContaining("traces.max-age = '99999999999999999999d' is too long")
        .hasMessageContaining("to 3650d");
    assertThatThrownBy(() -> load("server:\n  idle-exit: 1000000d\n"))
        .hasMessageContaining("server.idle-exit = '1000000d' is too long");
  }

  @Test
  void durationsWithinRangeStillLoad() throws IOException {
    BrainConfig config = load("research:\n  deadline: 24h\ntraces:\n  max-age: 3650d\n");
    assertThat(config.research().budgets().deadline()).isEqualTo(Duration.ofHours(24));
    assertThat(config.traces().maxAge()).isEqualTo(Duration.ofDays(3650));
  }

  @Test
  void aFileOfCollectionsAloneLoadsAsOneWithSettingsDoesAndSkipsHelidon() throws IOException {
    String collections =
        "collections:\n"
            + "  - name: \"notes\"\n"
            + "    root: \"/srv/notes\"\n"
            + "    excludes: [\"drafts/**\", \"*.tmp\"]\n"
            + "    max_file_mb: 2.0\n";
    BrainConfig alone = load(collections);
    BrainConfig withSetting = load(collections + "server:\n  port: 8765\n");

    assertThat(alone.collections()).isEqualTo(withSetting.collections());
    assertThat(alone.settings())
        .isEqualTo(
            withSetting.settings().stream()
                .map(s -> s.key().equals("server.port") ? alonePort(alone) : s)
                .toList());
    assertThat(ConfigFile.open(data.resolve(BrainConfig.FILE)).node("collections"))
        .as("with a setting: read by Helidon")
        .isNotNull();
    Files.writeString(data.resolve(BrainConfig.FILE), collections);
    assertThat(ConfigFile.open(data.resolve(BrainConfig.FILE)).node("collections"))
        .as("collections alone: Helidon not built")
        .isNull();
  }

  private static BrainConfig.Setting alonePort(BrainConfig alone) {
    return alone.settings().stream()
        .filter(s -> s.key().equals("server.port"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aCollectionsValueSnakeYamlCannotConstructFailsAsThroughHelidon() throws IOException {
    Files.writeString(
        data.resolve(BrainConfig.FILE),
        "collections:\n  - name: !!int notes\n    root: \"/srv/notes\"\n");
    assertThatThrownBy(() -> BrainConfig.load(data, Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml: cannot be read: ");
  }

  /** Loads the configuration of the data directory {@code args[0]} in a JVM of its own. */
  static final class LoadInFreshJvm {
    public static void main(String[] args) {
      BrainConfig.load(Path.of(args[0]), Map.of(), List.of());
    }
  }

  @Test
  void aFileOfCollectionsAloneLoadsNoHelidonClass() throws Exception {
    Files.writeString(
        data.resolve(BrainConfig.FILE),
        "collections:\n  - name: \"notes\"\n    root: \"/srv/notes\"\n");
    Path log = data.resolve("classes.txt");
    var javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    var process =
        new ProcessBuilder(
                javaBin,
                "-Xlog:class+load=info:file=" + log,
                "-cp",
                System.getProperty("java.class.path"),
                LoadInFreshJvm.class.getName(),
                data.toString())
            .redirectErrorStream(true)
            .redirectOutput(data.resolve("out.txt").toFile())
            .start();
    if (!process.waitFor(2, java.util.concurrent.TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError("the JVM loading the configuration did not end");
    }
    assertThat(process.exitValue()).as(Files.readString(data.resolve("out.txt"))).isZero();
    String classes = Files.readString(log);
    // Its interface and exception types may load (the verifier checks the methods naming them);
    // nothing that builds or parses.
    assertThat(classes)
        .contains("dev.brain.ConfigFile ")
        .doesNotContain("io.helidon.config.BuilderImpl")
        .doesNotContain("io.helidon.config.EmptyConfig")
        .doesNotContain("io.helidon.config.yaml.");
  }
}
