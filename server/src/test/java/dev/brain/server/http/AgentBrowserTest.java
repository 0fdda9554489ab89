package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.BrainConfig;
import dev.brain.models.chat.FakeOpenAiServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The Chat's agent mode in a real headless Chromium: the switch appears because the server has an
 * agent model (a fake OpenAI-compatible server speaking the streamed tool-call protocol), and a
 * question asked with it on streams each tool call into the turn, then the cited answer.
 */
class AgentBrowserTest {
  private static final String MODEL = "controller-browser";

  @TempDir static Path profile;

  private static FakeOpenAiServer openai;
  private static BrainServer server;
  private static ChromeDriver driver;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    openai = FakeOpenAiServer.start();
    var defaults = BrainConfig.defaults(SampleVaultData.dataDir());
    server =
        BrainServer.start(
            defaults
                .withChat(defaults.chat().withServers(openai.config()))
                .withAgent(defaults.agent().withModel("openai/" + MODEL))
                .withServer(defaults.server().withPort(0)));
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
    if (openai != null) {
      openai.close();
    }
  }

  @Test
  void withTheSwitchOnAQuestionGoesToTheAgentAndItsToolCallsShowInTheTurn() {
    String key =
        Http.get(server.url(), "/api/search?q=" + Http.enc("backflush"))
            .json()
            .path("rows")
            .get(0)
            .path("source_key")
            .asText();
    openai.enqueue(
        AgentApiTest.toolCall("call_1", "brain_search", "{\"query\":\"backflush\"}"),
        FakeOpenAiServer.answer(
            MODEL, List.of("Backflush with detergent every 200 shots ", "[" + key + "]."), 90, 15));

    driver.get(server.url().toString());
    WebElement toggle =
        Browser.waiting(driver, 30)
            .until(ExpectedConditions.elementToBeClickable(By.id("agent-mode")));
    assertThat(toggle.findElement(By.xpath("..")).getAttribute("title"))
        .contains("openai/" + MODEL);
    toggle.click();
    driver.findElement(By.id("question")).sendKeys("How often should I backflush?");
    driver.findElement(By.id("ask")).click();

    WebElement turn =
        Browser.waiting(driver, 60)
            .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("li.agent-turn")));
    Browser.waiting(driver, 60).until(d -> "ok".equals(turn.getAttribute("data-status")));
    assertThat(turn.findElement(By.cssSelector(".agent-status")).getText())
        .startsWith("Cited: ")
        .contains(key, "2 turns, 1 tool call ·", "trace ");
    // The answer comes first; the tool timeline under it is folded to one line.
    WebElement answer = turn.findElement(By.cssSelector(".answer-box .answer"));
    WebElement steps = turn.findElement(By.cssSelector("details.timeline-box"));
    assertThat(answer.getLocation().getY()).isLessThan(steps.getLocation().getY());
    assertThat(answer.getText()).contains("every 200 shots", key);
    assertThat(steps.getAttribute("open")).isNull();
    assertThat(steps.findElement(By.cssSelector("summary")).getText())
        .matches("1 tool call · \\d+\\.\\d s · stop: final_answer");
    steps.findElement(By.cssSelector("summary")).click();
    List<String> lines =
        steps.findElements(By.cssSelector(".agent-timeline li")).stream()
            .map(WebElement::getText)
            .toList();
    assertThat(lines.get(0)).startsWith("tools: ").contains("brain_search");
    assertThat(lines).anyMatch(s -> s.startsWith("→ brain_search") && s.contains("backflush"));
    // The cited key links to its record page.
    assertThat(answer.findElement(By.cssSelector("a.cite")).getAttribute("href"))
        .endsWith("/record/" + Http.enc(key));
    // The research Chat did not run: no research turn was added.
    assertThat(driver.findElements(By.cssSelector("#turns > li.turn:not(.agent-turn)"))).isEmpty();
    Browser.screenshot(driver, "chat-agent");
  }
}
