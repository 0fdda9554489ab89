package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.server.chat.ConversationStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The Chat's saved conversations in a real headless Chromium, signed in by the login link, on a
 * private copy of the sample vault: a question asked is saved to its conversation's file; after a
 * reload and a new chat, the conversation opens from the list with its turn, and a follow-up asked
 * there is saved into the same file. The Harness Lab opens a saved conversation and shows the draft
 * eval cases proposed from it.
 */
class SavedConversationBrowserTest {
  private static final String QUESTION = "How often should I backflush the espresso machine?";
  private static final String FOLLOW_UP = "What grind size do I use for espresso?";

  @TempDir static Path profile;
  @TempDir static Path data;

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

  /** The saved conversation files that hold {@code text}. */
  private static List<Path> savedFiles(String text) throws IOException {
    Path dir = data.resolve(ConversationStore.DIRECTORY);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".json") && mentions(f, text))
          .toList();
    }
  }

  private static boolean mentions(Path file, String text) {
    try {
      return Files.readString(file).contains(text);
    } catch (IOException e) {
      return false;
    }
  }

  /** Waits until the Chat names the saved conversation it is in. */
  private static void awaitSaved() {
    Browser.waiting(driver, 30)
        .until(d -> d.findElement(By.id("conversation-current")).getText().contains("this chat"));
  }

  private static void openList() {
    WebElement panel = driver.findElement(By.id("conversations"));
    if (panel.getAttribute("open") == null) {
      panel.findElement(By.tagName("summary")).click();
    }
  }

  @Test
  void aQuestionIsSavedAndItsConversationOpensFromTheListAfterAReload() throws Exception {
    driver.get(server.loginUrl().toString());
    driver.executeScript("sessionStorage.removeItem('brain.chat.v1')");
    driver.navigate().refresh();

    Browser.ask(driver, QUESTION);
    assertThat(Browser.finishedTurn(driver, 1).getAttribute("data-status")).isEqualTo("ok");
    awaitSaved();
    assertThat(savedFiles(QUESTION)).hasSize(1);
    Path file = savedFiles(QUESTION).get(0);

    driver.navigate().refresh();
    driver.findElement(By.id("clear-chat")).click();
    assertThat(driver.findElements(By.cssSelector("#turns > li.turn"))).isEmpty();

    openList();
    WebElement open =
        Browser.waiting(driver, 15)
            .until(d -> d.findElement(By.cssSelector("li.conversation button.open-conversation")));
    assertThat(open.getText()).isEqualTo(QUESTION);
    assertThat(driver.findElement(By.cssSelector("li.conversation")).getText()).contains("1 turn");
    open.click();

    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.findElement(By.cssSelector(".question")).getText()).isEqualTo(QUESTION);
    assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
    assertThat(turn.findElement(By.cssSelector(".answer")).getText()).isNotBlank();
    assertThat(driver.findElement(By.id("conversation-current")).getText()).contains(QUESTION);

    // A follow-up asked in the reopened conversation goes into the same file.
    Browser.ask(driver, FOLLOW_UP);
    Browser.finishedTurn(driver, 2);
    Browser.waiting(driver, 30).until(d -> mentions(file, FOLLOW_UP));
    assertThat(savedFiles(QUESTION)).containsExactly(file);

    openList();
    Browser.waiting(driver, 15)
        .until(
            d ->
                d.findElement(By.cssSelector("li.conversation.current"))
                    .getText()
                    .contains("2 turns"));
    Browser.settle(driver);
    assertThat(Browser.screenshot(driver, "saved-conversation-reopened")).isRegularFile();

    // Its Markdown export, as the link fetches it.
    String href =
        driver
            .findElement(By.cssSelector("li.conversation.current a.export-md"))
            .getAttribute("href");
    String markdown =
        (String)
            driver.executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                    + " fetch(arguments[0]).then(r => r.text()).then(done, e => done(String(e)));",
                href);
    assertThat(markdown)
        .startsWith("# " + QUESTION)
        .contains("## 2. " + FOLLOW_UP, "**Status:** answered", "](/record/");
  }

  @Test
  void theLabOpensASavedConversationAndProposesItsDraftCases() throws Exception {
    String turn =
        "{\"id\":1,\"question\":\"Which grinder do I use?\",\"status\":\"ok\","
            + "\"answer\":\"The Niche Zero.\",\"citations\":[\"note:vault/coffee/Niche.md\"]}";
    var saved =
        Http.post(
            server.url(), "/api/conversations", "{\"turns\":[" + turn + "]}", server.clientToken());
    assertThat(saved.status()).as(saved.body()).isEqualTo(201);
    String id = saved.json().path("id").asText();

    driver.get(server.url().resolve("/lab").toString());
    WebElement row =
        Browser.waiting(driver, 15)
            .until(d -> d.findElement(By.cssSelector("tr.conversation-row[data-id='" + id + "']")));
    assertThat(row.getText()).contains("Which grinder do I use?");
    row.click();
    Browser.waiting(driver, 15)
        .until(d -> d.findElement(By.id("conversation-cases")).getText().contains("\"question\""));
    String cases = driver.findElement(By.id("conversation-cases")).getText();
    assertThat(cases).contains("Which grinder do I use?", "note:vault/coffee/Niche.md");
    assertThat(cases).doesNotContain("The Niche Zero.");
    assertThat(driver.findElement(By.id("conversation-title")).getText())
        .isEqualTo("Which grinder do I use?");
  }
}
