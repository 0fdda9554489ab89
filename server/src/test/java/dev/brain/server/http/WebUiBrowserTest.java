package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/** The web UI in a real headless Chromium against a real server over the sample vault. */
class WebUiBrowserTest {
  @TempDir static Path profile;

  private static BrainServer server;
  private static ChromeDriver driver;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    server = BrainServer.start(ServerConfig.defaults(SampleVaultData.dataDir()).withPort(0));
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
    driver.get(server.url().toString());
    driver.executeScript("sessionStorage.clear()");
  }

  @Test
  void searchFindsEvidenceCardsWithProvenanceAndKeepsTheQueryInTheUrl() {
    driver.get(server.url().resolve("/search").toString());
    var input = driver.findElement(By.id("search-q"));
    input.sendKeys("backflush espresso machine");
    driver.findElement(By.id("search-go")).click();
    Browser.waiting(driver, 30)
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".evidence-card")));
    List<WebElement> cards = driver.findElements(By.cssSelector("#search-results .evidence-card"));
    assertThat(cards).isNotEmpty();
    String first = cards.get(0).getText();
    assertThat(first).containsAnyOf("bm25 #", "vector #");
    assertThat(driver.findElement(By.id("search-status")).getText()).contains("result");
    assertThat(driver.getCurrentUrl()).contains("q=backflush");
    Browser.screenshot(driver, "search");

    driver.navigate().refresh();
    Browser.waiting(driver, 30)
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".evidence-card")));
    assertThat(driver.findElement(By.id("search-q")).getAttribute("value"))
        .isEqualTo("backflush espresso machine");
  }

  @Test
  void searchShowsAnInvalidFilterAsAnError() {
    driver.get(server.url().resolve("/search?q=coffee&limit=0").toString());
    Browser.waiting(driver, 30)
        .until(ExpectedConditions.attributeContains(By.id("search-status"), "class", "error-box"));
    assertThat(driver.findElement(By.id("search-status")).getText()).contains("limit");
  }
}
