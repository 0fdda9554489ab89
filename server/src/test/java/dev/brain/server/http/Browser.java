package dev.brain.server.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through its chromedriver. Both paths are given explicitly, so
 * Selenium Manager never runs and nothing is downloaded.
 */
final class Browser {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private Browser() {}

  /** Whether Chromium and its driver are installed ({@code .ci/run} installs them). */
  static boolean available() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  /** A fresh headless browser with its own profile in {@code profile}, phone- or desk-sized. */
  static ChromeDriver start(Path profile, int width, int height) {
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    var options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--user-data-dir=" + profile.toAbsolutePath(),
        "--window-size=" + width + "," + height);
    var service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    var driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    return driver;
  }

  static WebDriverWait waiting(ChromeDriver driver, int seconds) {
    return new WebDriverWait(driver, Duration.ofSeconds(seconds), Duration.ofMillis(100));
  }

  /** Types {@code question} into the Chat's ask box and sends it. */
  static void ask(ChromeDriver driver, String question) {
    var box = driver.findElement(By.id("question"));
    box.clear();
    box.sendKeys(question);
    driver.findElement(By.id("ask")).click();
  }

  /**
   * Waits until the n-th Chat turn (1-based) has finished and the page is idle; returns the turn.
   */
  static WebElement finishedTurn(ChromeDriver driver, int n) {
    waiting(driver, 60)
        .until(
            d ->
                (Boolean)
                    driver.executeScript(
                        "const t = document.querySelectorAll('#turns > li.turn');"
                            + " return t.length >= arguments[0]"
                            + " && t[arguments[0] - 1].dataset.status !== 'running'"
                            + " && !document.getElementById('ask').disabled;",
                        n));
    settle(driver);
    return driver.findElements(By.cssSelector("#turns > li.turn")).get(n - 1);
  }

  /** Lets the last scheduled render land before a test holds on to its elements. */
  static void settle(ChromeDriver driver) {
    driver.executeAsyncScript(
        "const done = arguments[arguments.length - 1];"
            + " requestAnimationFrame(() => requestAnimationFrame(() => done()));");
  }

  /** Saves a PNG screenshot under {@code target/screenshots/}; returns its path. */
  static Path screenshot(ChromeDriver driver, String name) {
    try {
      Path dir = Files.createDirectories(Path.of("target", "screenshots"));
      Path file = dir.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
