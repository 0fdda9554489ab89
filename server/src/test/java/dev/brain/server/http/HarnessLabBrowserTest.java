package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.evals.ResearchEvalCase;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The Harness Lab in a real headless Chromium: a run saved before a new note was indexed is opened,
 * re-run without the planner, compared side by side (the new note shows as added evidence), and
 * promoted to a draft eval case under the data directory.
 */
class HarnessLabBrowserTest {
  private static final String QUESTION = "How often should I backflush the espresso machine?";

  @TempDir static Path profile;
  @TempDir static Path data;
  @TempDir static Path extra;

  private static BrainServer server;
  private static ChromeDriver driver;
  private static String runId;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    SampleVaultData.copyTo(data);
    server = BrainServer.start(SampleVaultData.onAnyPort(data));
    var stream =
        Sse.read(
            Sse.post(
                server.url().resolve("/api/research/run"),
                HttpJson.MAPPER.writeValueAsString(Map.of("question", QUESTION))));
    runId = stream.first("done").data().path("trace_id").asText();
    // The index changes after the run was saved: a new note about backflushing.
    Path kitchen = Files.createDirectories(extra.resolve("kitchen"));
    Files.writeString(
        kitchen.resolve("Backflush schedule.md"),
        "# Backflush schedule\n\nBackflush the espresso machine with water after every session"
            + " and with detergent once a week; descale every eight weeks.\n");
    try (var index = BrainIndex.open(IndexConfig.defaults(data))) {
      index.sync(List.of(SampleVaultData.VAULT, kitchen));
    }
    driver = Browser.start(profile, 1100, 1000);
  }

  @AfterAll
  static void stop() {
    if (driver != null) {
      driver.quit();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void rerunASavedRunSeeTheDiffSideBySideAndPromoteIt() throws Exception {
    driver.get(server.loginUrl().toString()); // signed in as brain serve's link does: it may write
    driver.get(server.url().resolve("/lab").toString());
    var wait = Browser.waiting(driver, 30);
    WebElement row =
        wait.until(
            ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#runs-body tr[data-run-id='" + runId + "']")));
    assertThat(row.getText()).contains(QUESTION, "ok");

    row.findElement(By.cssSelector("a.run-link")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("run")));
    wait.until(d -> !driver.findElements(By.cssSelector("#run-evidence .evidence-card")).isEmpty());
    assertThat(driver.findElement(By.id("run-question")).getText()).isEqualTo(QUESTION);
    var stages =
        driver.findElements(By.cssSelector("#run-timeline li")).stream()
            .map(li -> li.getAttribute("data-stage"))
            .toList();
    assertThat(stages).containsSubsequence("planning", "retrieval", "judge", "synthesis", "trace");
    assertThat(driver.findElement(By.cssSelector("#run-timeline li[data-stage=trace]")).getText())
        .contains("Trace saved");
    assertThat(driver.findElement(By.id("run-plan")).getText()).contains("Query family");
    assertThat(driver.findElement(By.id("run-answer")).getText()).isNotBlank();

    driver.findElement(By.id("rerun-no-planner")).click();
    driver.findElement(By.id("rerun")).click();
    WebElement summary =
        Browser.waiting(driver, 90)
            .until(ExpectedConditions.visibilityOfElementLocated(By.id("diff-summary")));
    assertThat(Integer.parseInt(summary.getAttribute("data-added"))).isPositive();
    assertThat(summary.getText()).contains("added");
    assertThat(driver.findElement(By.cssSelector("#side-after h4")).getText())
        .isEqualTo("Rerun without the planner");
    var added =
        driver.findElements(By.cssSelector("#side-after .diff-keys li.added")).stream()
            .map(li -> li.getAttribute("data-key"))
            .toList();
    assertThat(added).anyMatch(k -> k.contains("Backflush schedule.md"));
    assertThat(driver.findElement(By.cssSelector("#side-before .diff-keys")).getText())
        .isNotBlank();

    driver.executeScript(
        "document.getElementById('compare').scrollIntoView({block: 'start'});"
            + " window.scrollBy(0, -60);");
    Browser.screenshot(driver, "harness-lab");

    var file = driver.findElement(By.id("case-file"));
    file.clear();
    file.sendKeys("browser");
    driver.findElement(By.id("promote")).click();
    WebElement promoted =
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".promoted")));
    Path cases = data.resolve("evals/cases/browser.jsonl");
    assertThat(promoted.getText()).contains("run-" + runId, cases.toString());
    List<ResearchEvalCase> read = ResearchEvalCase.read(List.of(cases));
    assertThat(read).singleElement().satisfies(c -> assertThat(c.question()).isEqualTo(QUESTION));

    // A second promotion of the same run is refused with the reason, not written twice.
    driver.findElement(By.id("promote")).click();
    WebElement refused =
        wait.until(
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#lab-message .error-box")));
    assertThat(refused.getText()).contains("already holds a case");
    assertThat(Files.readAllLines(cases)).hasSize(1);
  }

  @Test
  void anUnknownRunInTheAddressSaysSo() {
    driver.get(server.url().resolve("/lab#run=20200101T000000.000Z-000000000000").toString());
    WebElement error =
        Browser.waiting(driver, 30)
            .until(
                ExpectedConditions.visibilityOfElementLocated(
                    By.cssSelector("#lab-message .error-box")));
    assertThat(error.getText()).contains("No saved run");
  }
}
