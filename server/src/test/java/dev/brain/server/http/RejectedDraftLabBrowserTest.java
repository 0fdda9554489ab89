package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.BrainConfig;
import dev.brain.evals.ResearchEvalCase;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.FakeHttpServer;
import dev.brain.models.chat.FakeOllamaServer;
import java.net.URI;
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
 * A run whose model draft cited a record that is not evidence (a rejected draft), in a real
 * headless Chromium: the Harness Lab shows it as rejected with the reason, never as an answer, and
 * promoting it writes a case that expects the rejection, not the draft's text or invented key.
 */
class RejectedDraftLabBrowserTest {
  private static final String MODEL = "fake";
  private static final String QUESTION = "How often should I backflush the espresso machine?";
  private static final String INVENTED = "note:vault/coffee/Imaginary machine.md";

  @TempDir static Path profile;
  @TempDir static Path data;

  private static FakeOllamaServer ollama;
  private static BrainServer server;
  private static ChromeDriver driver;
  private static String runId;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    SampleVaultData.copyTo(data);
    ollama = FakeOllamaServer.start();
    var servers =
        ChatConfig.defaults()
            .withOllamaUrl(ollama.baseUrl())
            .withOpenAiUrl(URI.create(FakeHttpServer.refusingUrl() + "/v1"));
    BrainConfig defaults = SampleVaultData.onAnyPort(data);
    server =
        BrainServer.start(
            defaults.withChat(
                defaults
                    .chat()
                    .withServers(servers)
                    .withModel("ollama/" + MODEL)
                    .withPlannerModel("extractive")));
    ollama.enqueue(
        FakeOllamaServer.answer(MODEL, List.of("Backflush weekly [" + INVENTED + "]."), 900, 9));
    var stream =
        Sse.read(
            Sse.post(
                server.url().resolve("/api/research/run"),
                HttpJson.MAPPER.writeValueAsString(Map.of("question", QUESTION))));
    runId = stream.first("verification_failed").data().path("trace_id").asText();
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
    if (ollama != null) {
      ollama.close();
    }
  }

  @Test
  void theLabShowsARejectedDraftAsRejectedAndItsCaseExpectsTheRejection() throws Exception {
    assertThat(runId).isNotBlank();
    driver.get(server.loginUrl().toString());
    driver.get(server.url().resolve("/lab#run=" + runId).toString());
    var wait = Browser.waiting(driver, 30);
    WebElement box =
        wait.until(
            ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#run-answer .rejected-draft")));
    assertThat(box.getText()).contains("Rejected draft", INVENTED);
    assertThat(driver.findElement(By.cssSelector("#run-answer .answer")).getAttribute("class"))
        .contains("rejected");
    assertThat(driver.findElement(By.id("run-answer")).getText())
        .contains("status: verification_failed")
        .doesNotContain("answer status: ok");

    var file = driver.findElement(By.id("case-file"));
    file.clear();
    file.sendKeys("rejected");
    driver.findElement(By.id("promote")).click();
    wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(".promoted")));
    List<ResearchEvalCase> cases =
        ResearchEvalCase.read(List.of(data.resolve("evals/cases/rejected.jsonl")));
    assertThat(cases)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.stopReason()).isEqualTo("verification_failed");
              assertThat(c.answerStatus()).isNull();
              assertThat(c.citationKeys()).isEmpty();
              assertThat(c.requiredText()).isEmpty();
              assertThat(c.expectedKeys()).doesNotContain(INVENTED);
            });
  }
}
