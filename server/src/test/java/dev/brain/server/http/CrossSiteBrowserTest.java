package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.BrainConfig;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A web page of another site, in a real headless Chromium, tries to make brain write: simple
 * cross-site requests ({@code no-cors}, {@code text/plain} and form bodies) whose bodies are
 * themselves requests to research a note and to save an eval case, and a read of the session token.
 * The note and the eval-case folder stay as they were, and the page learns no token, although the
 * browser is signed in to brain.
 */
class CrossSiteBrowserTest {
  @TempDir static Path dir;
  @TempDir static Path profile;
  static Path vault;
  static Path data;
  static BrainServer brain;
  static WebServer evil;
  static ChromeDriver driver;
  static String runId;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("Grinder.md"),
        "# Grinder\n\nThe [[Espresso]] grind is 15 on the burr grinder.\n");
    Files.writeString(
        vault.resolve("Espresso.md"),
        "# Espresso\n\n18 g in, 36 g out. Grind 15 on the grinder.\n");
    data = dir.resolve("data");
    var collections = List.of(CollectionRoot.of("vault", vault));
    CollectionsFile.of(data).write(collections);
    BrainConfig config = SampleVaultData.onAnyPort(data);
    try (var index = BrainIndex.open(config.indexConfig())) {
      index.syncCollections(collections, null);
    }
    brain = BrainServer.start(config);
    Http.send(Sse.post(brain.url().resolve("/api/research/run"), "{\"question\":\"grind\"}"));
    runId =
        Http.get(brain.url(), "/api/research/traces")
            .json()
            .path("traces")
            .path(0)
            .path("run_id")
            .asText();
    // The attacker's site: another host name (localhost against brain's 127.0.0.1), another port.
    evil =
        WebServer.builder()
            .port(0)
            .routing(
                r ->
                    r.get(
                        "/",
                        (req, res) -> {
                          res.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
                          res.send(page());
                        }))
            .build()
            .start();
    driver = Browser.start(profile, 800, 600);
  }

  @AfterAll
  static void stop() {
    if (driver != null) {
      driver.quit();
    }
    if (evil != null) {
      evil.stop();
    }
    if (brain != null) {
      brain.close();
    }
  }

  /** The attacker's page: fires its requests at brain, then shows what it could read. */
  private static String page() throws Exception {
    String host = "127.0.0.1:" + brain.port();
    String note = smuggled(host, "/api/note/research", "{\"path\":\"note:vault/Grinder.md\"}");
    String evalCase = smuggled(host, "/api/research/eval-cases", "{\"run_id\":\"" + runId + "\"}");
    return """
        <!doctype html><html><head><title>waiting</title></head><body><pre id="out"></pre>
        <script>
        const brain = "http://%s";
        const smuggled = %s;
        const out = [];
        async function attack() {
          for (const body of smuggled) {
            for (const path of ["/api/research", "/api/note/research", "/api/research/eval-cases"]) {
              try {
                await fetch(brain + path, {method: "POST", mode: "no-cors",
                  headers: {"Content-Type": "text/plain"}, body: body + body});
              } catch (e) { out.push("text " + path + ": " + e); }
              const form = new FormData();
              form.append("x", body);
              try {
                await fetch(brain + path, {method: "POST", mode: "no-cors", body: form});
              } catch (e) { out.push("form " + path + ": " + e); }
            }
          }
          try {
            const r = await fetch(brain + "/api/session");
            out.push("session read: " + await r.text());
          } catch (e) { out.push("session unreadable"); }
          document.getElementById("out").textContent = out.join("\\n");
          document.title = "done";
        }
        attack();
        </script></body></html>
        """
        .formatted(host, HttpJson.MAPPER.writeValueAsString(List.of(note, evalCase)));
  }

  private static String smuggled(String host, String path, String json) {
    return "POST "
        + path
        + " HTTP/1.1\r\nHost: "
        + host
        + "\r\nContent-Type: application/json\r\nContent-Length: "
        + json.length()
        + "\r\n\r\n"
        + json;
  }

  @Test
  void aPageOfAnotherSiteCannotWriteIntoANoteNorSaveAnEvalCase() throws Exception {
    Path note = vault.resolve("Grinder.md");
    String before = Files.readString(note);
    // The owner's browser is signed in to brain: its session cookie must not help the page.
    driver.get(brain.loginUrl().toString());
    driver.get("http://localhost:" + evil.port() + "/");
    Browser.waiting(driver, 60).until(d -> "done".equals(d.getTitle()));
    String seen = driver.findElement(org.openqa.selenium.By.id("out")).getText();
    // Let any request the page smuggled finish before looking at the disk.
    Thread.sleep(1500);
    assertThat(Files.readString(note)).isEqualTo(before);
    assertThat(data.resolve("evals")).doesNotExist();
    assertThat(seen).contains("session unreadable").doesNotContain(brain.clientToken());
  }
}
