package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.evals.ResearchEvalCase;
import dev.brain.index.BrainIndex;
import dev.brain.index.IndexConfig;
import dev.brain.research.trace.TraceStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The actions under a Chat turn in a real headless Chromium, against a server on a private copy of
 * the sample vault's index (so the traces and case files it writes are this test's alone): "Rerun
 * without the planner" compares the saved run with a rerun, "Save as eval case" writes the draft
 * case under the data directory, and a question not saved offers neither and leaves no trace. The
 * Chat is opened through the login link {@code brain serve} prints; one not signed in reads, but
 * its save says how to sign in and writes nothing.
 */
class ChatTurnActionsBrowserTest {
  private static final String QUESTION = "How often should I backflush the espresso machine?";

  @TempDir static Path profile;
  @TempDir static Path data;
  @TempDir static Path extra;

  private static BrainServer server;
  private static ChromeDriver driver;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    SampleVaultData.copyTo(data);
    server = BrainServer.start(SampleVaultData.onAnyPort(data));
    driver = Browser.start(profile, 1100, 1400);
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

  @BeforeEach
  void fresh() {
    // Opened as brain serve prints it: the login link signs the browser in and leads to the Chat.
    driver.get(server.loginUrl().toString());
    assertThat(driver.getCurrentUrl()).isEqualTo(server.url().toString());
    driver.executeScript("sessionStorage.removeItem('brain.chat.v1')");
    driver.navigate().refresh();
  }

  private WebElement click(WebElement turn, String button) {
    WebElement b = turn.findElement(By.cssSelector("button." + button));
    driver.executeScript("arguments[0].scrollIntoView({block: 'center'})", b);
    b.click();
    return b;
  }

  /** The first turn's element matching {@code css}, once it is there (turns are redrawn). */
  private WebElement awaitInFirstTurn(String css, int seconds) {
    return Browser.waiting(driver, seconds)
        .until(
            d -> {
              var found = d.findElements(By.cssSelector("#turns > li.turn:first-child " + css));
              return found.isEmpty() ? null : found.get(0);
            });
  }

  @Test
  void rerunWithoutThePlannerShowsWhatChangedBesideTheSavedRun() throws Exception {
    Browser.ask(driver, QUESTION);
    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
    WebElement rerun = turn.findElement(By.cssSelector("button.rerun-no-planner"));
    assertThat(rerun.isEnabled()).isTrue();
    assertThat(rerun.getText()).isEqualTo("Rerun without the planner");

    // The index changes after the turn was saved: a new note about backflushing.
    Path kitchen = Files.createDirectories(extra.resolve("kitchen"));
    Files.writeString(
        kitchen.resolve("Backflush schedule.md"),
        "# Backflush schedule\n\nBackflush the espresso machine with water after every session"
            + " and with detergent once a week; descale every eight weeks.\n");
    try (var index = BrainIndex.open(IndexConfig.defaults(data))) {
      index.sync(List.of(SampleVaultData.VAULT, kitchen));
    }

    click(turn, "rerun-no-planner");
    WebElement panel = awaitInFirstTurn("details.run-panel.rerun", 90);
    Browser.settle(driver);
    assertThat(panel.getAttribute("open")).isNotNull();
    String summary = panel.findElement(By.cssSelector("summary")).getText();
    assertThat(summary).startsWith("Without the planner: ").contains("added");
    assertThat(panel.findElements(By.cssSelector(".side h4")))
        .extracting(WebElement::getText)
        .containsExactly("Saved run", "Without the planner");
    var added =
        panel.findElements(By.cssSelector(".side .diff-keys li.added")).stream()
            .map(li -> li.getAttribute("data-key"))
            .toList();
    assertThat(added).anyMatch(k -> k.contains("Backflush schedule.md"));
    assertThat(panel.getText()).contains("planned by: deterministic");
    driver.executeScript(
        "document.querySelector('#turns > li.turn .turn-actions').scrollIntoView({block: 'start'});"
            + " window.scrollBy(0, -260);");
    Browser.screenshot(driver, "chat-turn-actions");

    // The comparison is kept with the turn.
    driver.navigate().refresh();
    Browser.finishedTurn(driver, 1);
    assertThat(
            awaitInFirstTurn("details.run-panel.rerun summary", 10)
                .getText()
                .startsWith("Without the planner: "))
        .isTrue();
  }

  @Test
  void saveAsEvalCaseWritesTheDraftCaseOfTheTurnUnderTheDataDirectory() {
    String question = "How often should I descale the espresso machine?";
    Browser.ask(driver, question);
    WebElement turn = Browser.finishedTurn(driver, 1);
    WebElement save = turn.findElement(By.cssSelector("button.save-eval-case"));
    assertThat(save.isEnabled()).isTrue();
    assertThat(save.getAttribute("title")).contains("evals/cases/chat.jsonl");

    click(turn, "save-eval-case");
    WebElement note = awaitInFirstTurn(".eval-case-saved", 30);
    Path cases = data.resolve("evals/cases/chat.jsonl");
    assertThat(note.getText()).contains("Draft eval case", cases.toString());
    assertThat(note.findElement(By.cssSelector(".case-path")).getText())
        .isEqualTo(cases.toString());
    assertThat(cases).exists();
    assertThat(ResearchEvalCase.read(List.of(cases)))
        .anySatisfy(c -> assertThat(c.question()).isEqualTo(question));

    // Saved once: the button says so and is off, also after a reload.
    driver.navigate().refresh();
    WebElement again =
        Browser.finishedTurn(driver, 1).findElement(By.cssSelector("button.save-eval-case"));
    assertThat(again.getText()).isEqualTo("Saved as eval case");
    assertThat(again.isEnabled()).isFalse();
    assertThat(driver.findElement(By.cssSelector(".eval-case-saved")).getText())
        .contains(cases.toString());
  }

  @Test
  void aChatNotSignedInReadsButItsSaveSaysToOpenTheLinkOfBrainServe() throws IOException {
    driver.manage().deleteAllCookies();
    driver.executeScript("sessionStorage.clear()");
    driver.get(server.url().toString());
    Browser.ask(driver, QUESTION);
    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("data-status")).isEqualTo("ok");

    click(turn, "save-eval-case");
    WebElement error = awaitInFirstTurn(".eval-case-error", 30);
    assertThat(error.getText())
        .contains("not signed in", "the link 'brain serve' printed", "?login=")
        .doesNotContain(server.clientToken());
    Path cases = data.resolve("evals/cases/chat.jsonl");
    assertThat(Files.exists(cases) ? Files.readString(cases) : "").doesNotContain(QUESTION);
  }

  /** The trace directories under the test's data directory. */
  private static Set<Path> traceDirs() throws IOException {
    Path root = data.resolve(TraceStore.DIRECTORY);
    if (!Files.isDirectory(root)) {
      return Set.of();
    }
    try (var dirs = Files.list(root)) {
      return dirs.collect(Collectors.toSet());
    }
  }

  /** Whether any file under the data directory holds {@code text} (index files aside). */
  private static boolean anyFileMentions(String text) throws IOException {
    try (var files = Files.walk(data)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (!f.startsWith(data.resolve("index"))
            && new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).contains(text)) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void aQuestionNotSavedLeavesNoTraceAndOffersNeitherActionSayingWhy() throws Exception {
    String question = "How often do I backflush the machine, privately?";
    var before = traceDirs();
    WebElement noTrace = driver.findElement(By.id("no-trace"));
    if (!noTrace.isSelected()) {
      noTrace.click();
    }
    try {
      Browser.ask(driver, question);
      WebElement turn = Browser.finishedTurn(driver, 1);
      assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
      assertThat(turn.findElement(By.cssSelector(".meta")).getText()).contains("not saved");
      for (String button : List.of("rerun-no-planner", "save-eval-case")) {
        WebElement b = turn.findElement(By.cssSelector("button." + button));
        assertThat(b.isEnabled()).as(button).isFalse();
        assertThat(b.getAttribute("title")).as(button).contains("was not saved");
      }
      assertThat(turn.findElement(By.cssSelector(".actions-why")).getText())
          .isEqualTo("needs a saved run");
      assertThat(traceDirs()).isEqualTo(before);
      assertThat(anyFileMentions(question)).isFalse();
    } finally {
      WebElement box = driver.findElement(By.id("no-trace"));
      if (box.isSelected()) {
        box.click();
      }
    }
  }
}
