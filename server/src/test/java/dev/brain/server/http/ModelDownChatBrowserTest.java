package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.BrainConfig;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.FakeHttpServer;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The Chat with its configured model server down, in a real headless Chromium: the question still
 * gets the evidence, under a banner saying the model is unreachable and why, as {@code brain
 * research} falls back to the evidence.
 */
class ModelDownChatBrowserTest {
  private static final String QUESTION = "How often should I backflush the espresso machine?";

  @TempDir static Path profile;
  @TempDir static Path data;

  private static BrainServer server;
  private static ChromeDriver driver;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    SampleVaultData.copyTo(data);
    // Nothing listens where the model server should be.
    var servers =
        ChatConfig.defaults()
            .withOllamaUrl(FakeHttpServer.refusingUrl())
            .withOpenAiUrl(URI.create(FakeHttpServer.refusingUrl() + "/v1"));
    BrainConfig defaults = SampleVaultData.onAnyPort(data);
    server =
        BrainServer.start(
            defaults.withChat(
                defaults
                    .chat()
                    .withServers(servers)
                    .withModel("ollama/llama3.2")
                    .withPlannerModel("extractive")));
    driver = Browser.start(profile, 1100, 1200);
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
  void aQuestionGetsTheEvidenceAndABannerSayingTheModelIsUnreachable() {
    driver.get(server.loginUrl().toString());
    Browser.ask(driver, QUESTION);
    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("data-status")).isEqualTo("evidence");
    WebElement banner = turn.findElement(By.cssSelector(".model-unavailable"));
    assertThat(banner.getText())
        .startsWith("Model unreachable: showing the evidence.")
        .contains("ollama/llama3.2 is unavailable");
    assertThat(turn.findElements(By.cssSelector(".evidence-card"))).isNotEmpty();
    assertThat(turn.findElements(By.cssSelector(".error-box"))).isEmpty();
    Browser.screenshot(driver, "chat-model-down");
  }
}
