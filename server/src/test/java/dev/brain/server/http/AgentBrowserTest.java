package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.BrainConfig;
import dev.brain.models.chat.FakeOpenAiServer;
import dev.brain.research.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The Chat's agent mode in a real headless Chromium: the switch appears because the server has an
 * agent model (a fake OpenAI-compatible server speaking the streamed tool-call protocol), and a
 * question asked with it on streams each tool call into the turn, then the cited answer. The turn
 * is kept like a research turn (it survives a reload and a follow-up continues it), and "Don't save
 * this question" holds for it. The server serves a private copy of the sample vault's index, so the
 * traces counted are this test's alone.
 */
class AgentBrowserTest {
  private static final String MODEL = "controller-browser";

  @TempDir static Path profile;
  @TempDir static Path data;

  private static FakeOpenAiServer openai;
  private static BrainServer server;
  private static ChromeDriver driver;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    openai = FakeOpenAiServer.start();
    var defaults = BrainConfig.defaults(SampleVaultData.copyTo(data));
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

  @BeforeEach
  void fresh() {
    driver.get(server.url().toString());
    driver.executeScript("sessionStorage.removeItem('brain.chat.v1')");
    driver.navigate().refresh();
  }

  /** The top key brain_search gives for {@code query}. */
  private static String topKey(String query) {
    return Http.get(server.url(), "/api/search?q=" + Http.enc(query))
        .json()
        .path("rows")
        .get(0)
        .path("source_key")
        .asText();
  }

  /** Turns the agent switch on (it appears once the page has read /api/health). */
  private static void agentOn() {
    WebElement toggle =
        Browser.waiting(driver, 30)
            .until(ExpectedConditions.elementToBeClickable(By.id("agent-mode")));
    if (!toggle.isSelected()) {
      toggle.click();
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

    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("class")).contains("agent-turn");
    assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
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

  @Test
  void anAgentTurnSurvivesAReloadAndAFollowUpContinuesIt() {
    String question = "What grind size do I use for espresso?";
    String key = topKey("espresso grind size");
    openai.enqueue(
        AgentApiTest.toolCall("call_1", "brain_search", "{\"query\":\"espresso grind size\"}"),
        FakeOpenAiServer.answer(
            MODEL, List.of("Grind fine for espresso ", "[" + key + "]."), 90, 15));
    agentOn();
    Browser.ask(driver, question);
    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("class")).contains("agent-turn");
    assertThat(turn.getAttribute("data-status")).isEqualTo("ok");

    driver.navigate().refresh();
    WebElement restored = Browser.finishedTurn(driver, 1);
    assertThat(restored.getAttribute("class")).contains("agent-turn");
    assertThat(restored.getAttribute("data-status")).isEqualTo("ok");
    assertThat(restored.findElement(By.cssSelector(".question")).getText())
        .isEqualTo("Agent: " + question);
    assertThat(restored.findElement(By.cssSelector(".answer")).getText())
        .contains("Grind fine for espresso", key);
    assertThat(restored.findElement(By.cssSelector(".agent-status")).getText())
        .startsWith("Cited: " + key)
        .contains("1 tool call", "trace ");
    assertThat(restored.findElement(By.cssSelector("details.timeline-box summary")).getText())
        .matches("1 tool call · \\d+\\.\\d s · stop: final_answer");

    // A research follow-up (the switch is off after the reload) continues the agent's question.
    assertThat(driver.findElement(By.id("agent-mode")).isSelected()).isFalse();
    Browser.ask(driver, "and for the V60?");
    WebElement followUp = Browser.finishedTurn(driver, 2);
    assertThat(followUp.getAttribute("class")).doesNotContain("agent-turn");
    assertThat(followUp.getAttribute("data-status")).isEqualTo("ok");
    assertThat(followUp.findElement(By.cssSelector(".answer")).getText()).contains("42");
    WebElement plan = followUp.findElement(By.cssSelector("details.run-panel.plan"));
    driver.executeScript(
        "arguments[0].scrollIntoView({block: 'center'})",
        plan.findElement(By.cssSelector("summary")));
    plan.findElement(By.cssSelector("summary")).click();
    assertThat(plan.getText()).contains("Continues", question);
  }

  @Test
  void dontSaveThisQuestionWritesNoTraceOfAnAgentRun() throws Exception {
    String question = "How often should I backflush, asked privately?";
    String key = topKey("backflush");
    openai.enqueue(
        AgentApiTest.toolCall("call_1", "brain_search", "{\"query\":\"backflush\"}"),
        FakeOpenAiServer.answer(MODEL, List.of("Every 200 shots [" + key + "]."), 90, 15));
    Path runs = data.resolve(TraceStore.DIRECTORY);
    Set<Path> before = Files.isDirectory(runs) ? Set.copyOf(list(runs)) : Set.of();
    WebElement noTrace = driver.findElement(By.id("no-trace"));
    if (!noTrace.isSelected()) {
      noTrace.click();
    }
    try {
      agentOn();
      Browser.ask(driver, question);
      WebElement turn = Browser.finishedTurn(driver, 1);
      assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
      assertThat(turn.findElement(By.cssSelector(".agent-status")).getText())
          .contains("not saved")
          .doesNotContain("trace ");
      Set<Path> after = Files.isDirectory(runs) ? Set.copyOf(list(runs)) : Set.of();
      assertThat(after).isEqualTo(before);
    } finally {
      WebElement box = driver.findElement(By.id("no-trace"));
      if (box.isSelected()) {
        box.click();
      }
    }
  }

  private static List<Path> list(Path dir) throws java.io.IOException {
    try (var files = Files.list(dir)) {
      return files.toList();
    }
  }
}
