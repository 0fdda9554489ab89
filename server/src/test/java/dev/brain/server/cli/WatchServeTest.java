package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.server.Main;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brain serve --watch} in a real child process over a real folder: a note created, edited,
 * renamed and deleted becomes visible to {@code /api/search} each time (eventually; the bound is
 * generous and nothing else is timed).
 */
class WatchServeTest {

  private static final Duration EVENTUALLY = Duration.ofMinutes(3);
  private static final Pattern URL = Pattern.compile("serving at (http://\\S+?)/?\\s");

  @TempDir Path tmp;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private Process alive;

  @Test
  @Timeout(900)
  void createEditRenameAndDeleteOfANoteReachSearch() throws Exception {
    Path notes = Files.createDirectories(tmp.resolve("notes"));
    Files.writeString(notes.resolve("start.md"), "# Start\n\nA first note about marmalade.\n");
    Path data = tmp.resolve("data");
    assertThat(
            BrainCommand.run(
                new java.io.PrintWriter(new java.io.StringWriter(), true),
                new java.io.PrintWriter(System.err, true),
                "--data",
                data.toString(),
                "add",
                notes.toString(),
                "--no-progress"))
        .isZero();

    Process server = start(data);
    try {
      alive = server;
      exercise(server, notes);
    } catch (Exception | AssertionError e) {
      throw new AssertionError(
          "brain serve --watch failed; its stderr:\n" + Files.readString(tmp.resolve("server.err")),
          e);
    } finally {
      server.destroy();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  @Test
  @Timeout(900)
  void addRemoveAndIndexWorkWhileTheServerWatches() throws Exception {
    Path notes = Files.createDirectories(tmp.resolve("notes"));
    Files.writeString(notes.resolve("start.md"), "# Start\n\nA first note about marmalade.\n");
    Path more = Files.createDirectories(tmp.resolve("more"));
    Files.writeString(more.resolve("kite.md"), "# Kite\n\nA box kite of bamboo and paper.\n");
    Path data = tmp.resolve("data");
    assertThat(cli("--data", data.toString(), "add", notes.toString(), "--no-progress").code())
        .isZero();
    Process server = start(data);
    alive = server;
    try {
      String base = awaitUrl(server);
      awaitKeys(base, "marmalade", keys -> keys.contains("note:notes/start.md"));

      var add = cli("--data", data.toString(), "add", more.toString(), "--no-progress");
      assertThat(add.code()).as(add.err()).isZero();
      assertThat(add.out()).contains("synced 'more' through the running watcher");
      awaitKeys(base, "bamboo", keys -> keys.contains("note:more/kite.md"));

      var index = cli("--data", data.toString(), "index");
      assertThat(index.code()).as(index.err()).isZero();
      assertThat(index.out()).contains("followed by a running watcher");

      var remove = cli("--data", data.toString(), "remove", "more");
      assertThat(remove.code()).as(remove.err()).isZero();
      assertThat(remove.out()).contains("removed the records of 'more'");
      awaitKeys(base, "bamboo", List::isEmpty);
      assertThat(Files.readString(data.resolve("brain.yaml"))).doesNotContain("more");
    } catch (Exception | AssertionError e) {
      throw new AssertionError(
          "brain serve --watch failed; its stderr:\n" + Files.readString(tmp.resolve("server.err")),
          e);
    } finally {
      server.destroy();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.destroyForcibly();
      }
    }
  }

  record Run(int code, String out, String err) {}

  private static Run cli(String... args) {
    var out = new java.io.StringWriter();
    var err = new java.io.StringWriter();
    int code =
        BrainCommand.run(
            new java.io.PrintWriter(out, true), new java.io.PrintWriter(err, true), args);
    return new Run(code, out.toString(), err.toString());
  }

  private void exercise(Process server, Path notes) throws Exception {
    {
      String base = awaitUrl(server);
      awaitKeys(base, "marmalade", keys -> keys.contains("note:notes/start.md"));

      Path note = notes.resolve("idea.md");
      Files.writeString(note, "# Idea\n\nA zeppelin made of cardboard.\n");
      awaitKeys(base, "zeppelin", keys -> keys.contains("note:notes/idea.md"));

      Files.writeString(note, "# Idea\n\nA submarine made of cardboard.\n");
      awaitKeys(base, "submarine", keys -> keys.contains("note:notes/idea.md"));
      awaitKeys(base, "zeppelin", List::isEmpty);

      Path folder = Files.createDirectories(notes.resolve("later"));
      Files.move(note, folder.resolve("moved.md"));
      awaitKeys(base, "submarine", keys -> keys.equals(List.of("note:notes/later/moved.md")));

      Files.delete(folder.resolve("moved.md"));
      awaitKeys(base, "submarine", List::isEmpty);
      awaitKeys(base, "marmalade", keys -> keys.contains("note:notes/start.md"));
    }
  }

  private Process start(Path data) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    var command =
        List.of(
            java.toString(),
            "--enable-native-access=ALL-UNNAMED",
            "--add-modules",
            "jdk.incubator.vector",
            "-Dai.djl.offline=true",
            Main.class.getName(),
            "--data",
            data.toString(),
            "serve",
            "--watch",
            "--port",
            "0");
    var builder = new ProcessBuilder(command);
    builder.environment().put("DJL_OFFLINE", "true");
    // Not -cp: ONNX Runtime crashes (SIGSEGV) in a process whose command line passes ~4 KB.
    builder.environment().put("CLASSPATH", System.getProperty("java.class.path"));
    builder.redirectError(tmp.resolve("server.err").toFile());
    return builder.start();
  }

  private static String awaitUrl(Process server) throws IOException {
    var lines =
        new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    var seen = new ArrayList<String>();
    String line;
    while ((line = lines.readLine()) != null) {
      seen.add(line);
      var m = URL.matcher(line + " ");
      if (m.find()) {
        // Keep draining the child's output so it never blocks on a full pipe.
        Thread.ofPlatform().daemon().start(() -> lines.lines().forEach(l -> {}));
        return m.group(1);
      }
    }
    throw new AssertionError("the server printed no URL: " + seen);
  }

  /** Polls BM25 search for {@code word} until the keys found satisfy {@code expected}. */
  private void awaitKeys(String base, String word, Predicate<List<String>> expected)
      throws Exception {
    long deadline = System.nanoTime() + EVENTUALLY.toNanos();
    List<String> keys = List.of();
    while (System.nanoTime() < deadline) {
      try {
        keys = search(base, word);
      } catch (java.net.ConnectException e) {
        if (!alive.isAlive()) {
          throw new AssertionError("the server exited with " + alive.exitValue(), e);
        }
        Thread.sleep(1000); // not listening yet
        continue;
      }
      if (expected.test(keys)) {
        return;
      }
      Thread.sleep(300);
    }
    throw new AssertionError("search for '" + word + "' still finds " + keys);
  }

  private List<String> search(String base, String word) throws Exception {
    var request =
        HttpRequest.newBuilder(
                URI.create(
                    base
                        + "/api/search?lanes=bm25&q="
                        + URLEncoder.encode(word, StandardCharsets.UTF_8)))
            .GET()
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode rows = PrettyJson.MAPPER.readTree(response.body()).path("rows");
    var keys = new ArrayList<String>();
    rows.forEach(r -> keys.add(r.path("source_key").asText()));
    return keys;
  }
}
