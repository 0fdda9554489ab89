package dev.brain.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.BrainConfig;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import java.awt.image.BufferedImage;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The record page of an Obsidian note in a real headless Chromium: a callout as a box, an aliased
 * wikilink as a link to the other note's page, an embedded note as a link and an embedded image as
 * the image, links listed by title; a Chat answer written in the same syntax rendering the same
 * way; and {@code /api/asset} serving images of a collection only.
 */
class RecordPageBrowserTest {
  @TempDir static Path dir;
  @TempDir static Path profile;
  static BrainServer server;
  static ChromeDriver driver;

  @BeforeAll
  static void start() throws Exception {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("Home.md"),
        "---\ncreated: 2024-03-10\n---\n# Home\n\n> [!tip] Drag and drop embed\n> Drag a file from your computer into the"
            + " note.\n\nSee [[Internal links|the linking guide]] for more.\n\n![[Internal"
            + " links]]\n\n![[kettle.png]]\n");
    Files.writeString(
        vault.resolve("Clipped.md"),
        "# Clipped\n\n[open the offer](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)"
            + " and [run it](javascript:alert(1)) or [read the source](https://example.org/)."
            + "\n\n![pixel](data:image/svg+xml;base64,PHN2Zy8+)\n");
    Files.writeString(
        vault.resolve("Tasks.md"),
        "## Kitchen tasks\n\n- [ ] descale the machine\n- [x] order filters\n\nThe recipe is at"
            + " https://example.org/v60 and the grinder notes in [[Lost note]].\n");
    Files.writeString(vault.resolve("Log.md"), "Some intro.\n\n## Tuesday\n\nNotes.\n");
    for (int level = 2; level <= 6; level++) {
      Files.writeString(
          vault.resolve("Level" + level + ".md"),
          "#".repeat(level) + " Heading of level " + level + "\n\nText.\n");
    }
    Files.writeString(
        vault.resolve("Titled.md"),
        "---\ntitle: Kafka cut-over\n---\n## Migration plan\n\nSteps.\n");
    Path sub = Files.createDirectories(vault.resolve("Linking"));
    Files.writeString(
        sub.resolve("Internal links.md"),
        "# Internal links\n\nLink notes with double brackets around a note's name.\n");
    var image = new BufferedImage(40, 20, BufferedImage.TYPE_INT_RGB);
    ImageIO.write(
        image,
        "png",
        Files.createDirectories(vault.resolve("assets")).resolve("kettle.png").toFile());
    Path data = dir.resolve("data");
    var collections = List.of(CollectionRoot.of("vault", vault));
    CollectionsFile.of(data).write(collections);
    BrainConfig config = SampleVaultData.onAnyPort(data);
    try (var index = BrainIndex.open(config.indexConfig())) {
      index.syncCollections(collections, null);
    }
    server = BrainServer.start(config);
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

  private static ChromeDriver browser() {
    assumeTrue(Browser.available(), "chromium and chromium-driver are not installed");
    if (driver == null) {
      driver = Browser.start(profile, 900, 1200);
    }
    return driver;
  }

  private static String page(String key) {
    return server
        .url()
        .resolve("/record/" + URLEncoder.encode(key, StandardCharsets.UTF_8))
        .toString();
  }

  @Test
  void anObsidianNoteReadsAsInObsidian() {
    browser().get(page("note:vault/Home.md"));
    var wait = Browser.waiting(driver, 30);
    var callout = wait.until(d -> d.findElement(By.cssSelector(".md .callout.callout-tip")));
    assertThat(callout.findElement(By.className("callout-title")).getText())
        .isEqualTo("Drag and drop embed");
    assertThat(callout.getText()).contains("Drag a file").doesNotContain("[!tip]");
    var alias = driver.findElement(By.linkText("the linking guide"));
    assertThat(alias.getAttribute("href"))
        .endsWith("/record/note%3Avault%2FLinking%2FInternal%20links.md");
    assertThat(driver.findElement(By.partialLinkText("↪ Internal links")).getAttribute("href"))
        .isEqualTo(alias.getAttribute("href"));
    var image = driver.findElement(By.cssSelector(".md img"));
    wait.until(
        d ->
            ((Number) driver.executeScript("return arguments[0].naturalWidth", image)).intValue()
                > 0);
    assertThat(driver.findElement(By.cssSelector(".md")).getText()).doesNotContain("[[");
    var date = driver.findElement(By.cssSelector(".where .date"));
    assertThat(date.getText()).isEqualTo("created 2024-03-10 (front matter)");
    assertThat(date.getAttribute("data-source")).isEqualTo("front_matter:created");
    assertThat(driver.findElement(By.cssSelector("ul.links")).getText()).contains("Internal links");
    Browser.screenshot(driver, "record-obsidian");
  }

  @Test
  void taskListsAreReadOnlyCheckboxesBareUrlsLinksAndAnUnresolvedLinkSaysSo() {
    browser().get(page("note:vault/Tasks.md"));
    var wait = Browser.waiting(driver, 30);
    var body = wait.until(d -> d.findElement(By.cssSelector(".md")));

    // No front-matter title and no H1: the index titles the note "Tasks" after its file, and the
    // page is headed by the ## heading it opens with, which a reader sees first.
    assertThat(driver.findElement(By.cssSelector(".record-head h1")).getText())
        .isEqualTo("Kitchen tasks");
    assertThat(driver.getTitle()).isEqualTo("brain · Kitchen tasks");
    var boxes = body.findElements(By.cssSelector("li > input[type=checkbox]"));
    assertThat(boxes).hasSize(2);
    assertThat(boxes.get(0).isSelected()).isFalse();
    assertThat(boxes.get(1).isSelected()).isTrue();
    assertThat(boxes).noneMatch(b -> b.isEnabled());
    assertThat(body.getText()).doesNotContain("[ ]").doesNotContain("[x]");
    assertThat(body.findElement(By.linkText("https://example.org/v60")).getAttribute("href"))
        .isEqualTo("https://example.org/v60");
    var unresolved = body.findElement(By.cssSelector(".unresolved-link"));
    assertThat(unresolved.getText()).isEqualTo("Lost note");
    assertThat(unresolved.getAttribute("title")).contains("no note named 'Lost note'");
    assertThat(driver.findElement(By.cssSelector("ul.links")).getText())
        .contains("[[Lost note]] unresolved: no note of this name in any collection")
        .contains("https://example.org/v60 unresolved: no saved page, bookmark or feed entry");
    Browser.screenshot(driver, "record-tasks-urls-unresolved");
  }

  @Test
  void theHeadingANoteOpensWithHeadsThePageAtEveryLevel() {
    for (int level = 2; level <= 6; level++) {
      assertThat(pageHeading("note:vault/Level" + level + ".md"))
          .isEqualTo("Heading of level " + level);
    }
  }

  @Test
  void aFrontMatterTitleHeadsThePageOverTheOpeningHeading() {
    assertThat(pageHeading("note:vault/Titled.md")).isEqualTo("Kafka cut-over");
  }

  @Test
  void aNoteWhoseHeadingComesAfterTextIsHeadedByItsFileName() {
    assertThat(pageHeading("note:vault/Log.md")).isEqualTo("Log");
  }

  /** The page heading of a record, once its text is shown. */
  private static String pageHeading(String key) {
    browser().get(page(key));
    Browser.waiting(driver, 30).until(d -> d.findElement(By.cssSelector(".md")));
    return driver.findElement(By.cssSelector(".record-head h1")).getText();
  }

  @Test
  void aNoteLinkToDataOrJavascriptIsShownAsTextNotAsALink() {
    browser().get(page("note:vault/Clipped.md"));
    var wait = Browser.waiting(driver, 30);
    var body = wait.until(d -> d.findElement(By.cssSelector(".md")));
    wait.until(d -> body.getText().contains("open the offer"));
    assertThat(body.findElements(By.linkText("open the offer"))).isEmpty();
    assertThat(body.findElements(By.linkText("run it"))).isEmpty();
    assertThat(body.findElement(By.linkText("read the source")).getAttribute("href"))
        .isEqualTo("https://example.org/");
    for (var link : body.findElements(By.tagName("a"))) {
      assertThat(link.getAttribute("href")).startsWith("http");
    }
    assertThat(body.findElements(By.tagName("img"))).isEmpty();
    assertThat(body.getText()).contains("[image: pixel]");
  }

  @Test
  void theAssetEndpointServesImagesOfACollectionAndNothingElse() {
    var png = Http.get(server.url(), "/api/asset?collection=vault&path=assets%2Fkettle.png");
    assertThat(png.status()).isEqualTo(200);
    assertThat(png.contentType()).isEqualTo("image/png");
    assertThat(Http.get(server.url(), "/api/asset?collection=vault&path=Home.md").status())
        .isEqualTo(422);
    assertThat(
            Http.get(server.url(), "/api/asset?collection=vault&path=..%2F..%2Fetc%2Fpasswd.png")
                .status())
        .isEqualTo(404);
    assertThat(Http.get(server.url(), "/api/asset?collection=other&path=a.png").status())
        .isEqualTo(404);
    var byName = Http.get(server.url(), "/api/asset?collection=vault&name=kettle.png");
    assertThat(byName.status()).isEqualTo(200);
    assertThat(byName.contentType()).isEqualTo("image/png");
    assertThat(Http.get(server.url(), "/api/asset?collection=vault&name=missing.png").status())
        .isEqualTo(404);
    assertThat(Http.get(server.url(), "/api/asset?collection=vault&name=..%2Fkettle.png").status())
        .isEqualTo(404);
  }

  @Test
  void aChatAnswerRendersObsidianMarkdownAsTheRecordPageDoes() {
    var chat = browser();
    chat.get(server.url().toString());
    // A finished turn as the Chat keeps it in the session: an answer in the vault's own syntax,
    // written from the two notes of the vault.
    chat.executeScript(
        "const row = (k, t) => ({source_key: k, title: t, kind: 'item', source_type: 'note',"
            + " evidence_role: 'raw', excerpt: 'text of ' + t});"
            + " sessionStorage.setItem('brain.chat.v1', JSON.stringify({pins: [], next: 2,"
            + " turns: [{id: 1, question: 'How do I link notes?', status: 'ok', timeline: [],"
            + " warnings: [], citations: ['note:vault/Linking/Internal links.md'], answer: arguments[0],"
            + " pack: {evidence: [row('note:vault/Home.md', 'Home'),"
            + " row('note:vault/Linking/Internal links.md', 'Internal links')],"
            + " exact_tag_evidence: [], coverage: {}, next_steps: [], query_plan: {}}}]}));",
        String.join(
            "\n",
            "> [!tip] Use <b>double</b> brackets",
            "> Type `[[` and a **name** [1].",
            "",
            "See [[Internal links|the linking guide]], [[Internal links#Aliases]] and"
                + " [[Nowhere|a missing note]].",
            "",
            "![[kettle.png]]",
            "",
            "```markdown",
            "[[Internal links]] <script>alert(1)</script>",
            "```"));
    chat.navigate().refresh();
    var wait = Browser.waiting(chat, 30);
    var answer = wait.until(d -> d.findElement(By.cssSelector("#turns li.turn .answer")));

    var callout = answer.findElement(By.cssSelector(".callout.callout-tip"));
    assertThat(callout.findElement(By.className("callout-title")).getText())
        .isEqualTo("Use <b>double</b> brackets");
    assertThat(callout.findElement(By.cssSelector("code")).getText()).isEqualTo("[[");
    assertThat(callout.findElement(By.cssSelector("a.cite")).getAttribute("data-key"))
        .isEqualTo("note:vault/Linking/Internal links.md");
    String record = "/record/note%3Avault%2FLinking%2FInternal%20links.md";
    assertThat(answer.findElement(By.linkText("the linking guide")).getAttribute("href"))
        .endsWith(record);
    assertThat(answer.findElement(By.linkText("Internal links › Aliases")).getAttribute("href"))
        .endsWith(record);
    assertThat(answer.findElements(By.linkText("a missing note"))).isEmpty();
    assertThat(answer.getText()).contains("a missing note").doesNotContain("[[Nowhere");
    var image = answer.findElement(By.cssSelector("img"));
    wait.until(
        d ->
            ((Number) chat.executeScript("return arguments[0].naturalWidth", image)).intValue()
                > 0);
    assertThat(answer.findElement(By.cssSelector("pre code")).getText())
        .isEqualTo("[[Internal links]] <script>alert(1)</script>");
    assertThat(answer.findElements(By.cssSelector("script, b"))).isEmpty();
    Browser.screenshot(chat, "chat-obsidian");
  }
}
