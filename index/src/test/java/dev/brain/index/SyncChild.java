package dev.brain.index;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child process for the crash tests: syncs a corpus and prints one line per commit ({@code
 * committed N}) and one when the lexical half is committed ({@code lexical N}), so the parent can
 * kill it (SIGKILL) once a commit is on disk, before or during embedding.
 *
 * <p>Arguments: data directory, corpus folder, commit interval in milliseconds. The parent side is
 * {@link #runAndKill}.
 */
public final class SyncChild {
  private SyncChild() {}

  /**
   * Starts a child JVM syncing {@code vault} into {@code data} (a commit every 200 ms), reads its
   * lines until {@code killNow} accepts the lines so far (or the child ends), then kills it with
   * SIGKILL.
   *
   * @return every line the child printed up to the kill
   */
  static List<String> runAndKill(Path data, Path vault, Predicate<List<String>> killNow)
      throws IOException, InterruptedException {
    Process child = start(data, vault);
    List<String> output = new ArrayList<>();
    try (var lines =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        output.add(line);
        if (killNow.test(output)) {
          break;
        }
      }
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
    return output;
  }

  private static Process start(Path data, Path vault) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    var command =
        List.of(
            java.toString(),
            "--enable-native-access=ALL-UNNAMED",
            "--add-modules",
            "jdk.incubator.vector",
            "-Dai.djl.offline=true",
            "-cp",
            System.getProperty("java.class.path"),
            SyncChild.class.getName(),
            data.toString(),
            vault.toString(),
            Long.toString(Duration.ofMillis(200).toMillis()));
    var builder = new ProcessBuilder(command);
    builder.environment().put("DJL_OFFLINE", "true");
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    return builder.start();
  }

  public static void main(String[] args) throws Exception {
    var config =
        IndexConfig.defaults(Path.of(args[0]))
            .withCommitInterval(Duration.ofMillis(Long.parseLong(args[2])))
            .withEmbedBatchSize(16);
    try (var index = BrainIndex.open(config)) {
      System.out.println("opened");
      System.out.flush();
      var listener =
          new SyncListener() {
            @Override
            public void lexicalCommitted(int recordsWritten) {
              System.out.println("lexical " + recordsWritten);
              System.out.flush();
            }

            @Override
            public void committed(int recordsWritten) {
              System.out.println("committed " + recordsWritten);
              System.out.flush();
            }
          };
      SyncReport report = index.sync(List.of(Path.of(args[1])), listener);
      System.out.println("done " + report.added());
    }
  }
}
