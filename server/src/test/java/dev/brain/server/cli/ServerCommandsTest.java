package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.server.http.CliRunner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands a server runs reuse their picocli command lines: each request must print exactly
 * what a command line built for it alone prints, whatever the requests before it or beside it set.
 */
class ServerCommandsTest {

  @TempDir static Path tmp;

  private static Path data;
  private static Brain brain;

  @BeforeAll
  static void index() throws Exception {
    Path vault = Files.createDirectories(tmp.resolve("vault"));
    Files.writeString(
        vault.resolve("kettle.md"),
        "---\ntags: [coffee, tools]\n---\n# Gooseneck kettle\n\nThe gooseneck kettle pours slowly.");
    Files.writeString(
        vault.resolve("grinder.md"),
        "---\ntags: [coffee]\n---\n# Burr grinder\n\nA burr grinder sets the grind size of a kettle"
            + " brew. See [[kettle]].");
    Files.writeString(
        vault.resolve("tea.md"), "# Green tea\n\nGreen tea wants a kettle below boiling.");
    data = tmp.resolve("data");
    var index = inProcess("--data", data.toString(), "index", vault.toString());
    assertThat(index.exitCode()).as(index.stderr()).isZero();
    brain = Brain.openReadOnly(BrainConfig.load(data));
  }

  @AfterAll
  static void close() throws Exception {
    if (brain != null) {
      brain.close();
    }
  }

  /** Requests whose options differ in every kind of value: flags, lists, numbers, positionals. */
  private static final List<List<String>> REQUESTS =
      List.of(
          List.of("search", "--json", "--limit", "1", "--tag", "tools", "kettle"),
          List.of("search", "kettle"),
          List.of("search", "--lanes", "bm25", "--tag", "coffee", "--source-type", "note", "grind"),
          List.of("search", "--lanes", "bm25", "kettle", "brew"),
          List.of("search", "--kind", "item", "--no-semantic", "green", "tea"),
          List.of("get", "--json", "note:vault/tea.md"),
          List.of("get", "note:vault/kettle.md"),
          List.of("status", "--json"),
          List.of("status"));

  @Test
  void eachRequestPrintsWhatACommandLineOfItsOwnPrintsWhateverRanBefore() {
    var commands = new ServerCommands();
    var expected = REQUESTS.stream().map(ServerCommandsTest::alone).toList();
    // Each prints something else, so an option left over from another request would show.
    assertThat(new java.util.HashSet<>(expected)).hasSize(REQUESTS.size());
    // Twice through, then backwards: every request follows ones that set other options.
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < REQUESTS.size(); i++) {
        int at = round == 2 ? REQUESTS.size() - 1 - i : i;
        var output = commands.run(brain, REQUESTS.get(at));
        assertThat(masked(output)).as(REQUESTS.get(at).toString()).isEqualTo(expected.get(at));
      }
    }
    assertThat(commands.idle("search")).isEqualTo(1); // one command line served every search
    assertThat(commands.idle("get")).isEqualTo(1);
    assertThat(commands.idle("status")).isEqualTo(1);
  }

  @Test
  void concurrentRequestsNeverShareACommandLine() throws Exception {
    var commands = new ServerCommands();
    var expected = REQUESTS.stream().map(ServerCommandsTest::alone).toList();
    var pool = Executors.newFixedThreadPool(6);
    try {
      var futures = new ArrayList<Future<List<String>>>();
      for (int t = 0; t < 6; t++) {
        int offset = t;
        Callable<List<String>> task =
            () -> {
              var mismatches = new ArrayList<String>();
              for (int i = 0; i < 3 * REQUESTS.size(); i++) {
                int at = (i + offset) % REQUESTS.size();
                String got = masked(commands.run(brain, REQUESTS.get(at)));
                if (!got.equals(expected.get(at))) {
                  mismatches.add(REQUESTS.get(at) + " printed:\n" + got);
                }
              }
              return mismatches;
            };
        futures.add(pool.submit(task));
      }
      for (var future : futures) {
        assertThat(future.get(120, TimeUnit.SECONDS)).isEmpty();
      }
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(commands.idle("search")).isBetween(1, 6);
  }

  @Test
  void refusedCommandsRunNothingAndLeaveTheNextRequestItsOwnOptions() {
    var commands = new ServerCommands();
    var expected = alone(List.of("search", "kettle"));
    assertThatThrownBy(
            () -> commands.run(brain, List.of("search", "--json", "--limit", "nine", "kettle")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--limit");
    assertThatThrownBy(() -> commands.run(brain, List.of("search", "--help")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("help is printed by the client");
    assertThat(masked(commands.run(brain, List.of("search", "kettle")))).isEqualTo(expected);
  }

  /** What a command line built for this request alone prints. */
  private static String alone(List<String> request) {
    return masked(new ServerCommands().run(brain, request));
  }

  private static String masked(CliRunner.Output output) {
    return output.exitCode()
        + "\n"
        + mask(output.stdout())
        + "\n--- stderr\n"
        + mask(output.stderr());
  }

  private static String mask(String out) {
    return out.replaceAll("(?s)\"timings_ms\" : \\{[^}]*}", "\"timings_ms\" : {}")
        .replaceAll("\\d+(\\.\\d+)? ms", "N ms")
        .replaceAll("\"took_ms\" : [0-9.E-]+", "\"took_ms\" : N")
        .replaceAll("\"(\\w+_ms)\" : [0-9.E-]+", "\"$1\" : N");
  }

  private static CliRunner.Output inProcess(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new CliRunner.Output(code, out.toString(), err.toString());
  }
}
