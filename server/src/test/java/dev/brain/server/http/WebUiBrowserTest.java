package dev.brain.server.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.brain.BrainConfig;
import dev.brain.research.trace.TraceStore;
import java.net.URLDecoder;
import java.nio.file.Files;
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
    server =
        BrainServer.start(
            BrainConfig.defaults(SampleVaultData.dataDir())
                .withServer(BrainConfig.defaults(SampleVaultData.dataDir()).server().withPort(0)));
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
    driver.navigate().refresh();
  }

  private static final String QUESTION = "How often should I backflush the espresso machine?";

  /** Opens a folded panel with a click on its summary, scrolled clear of the sticky ask form. */
  private void unfold(WebElement details) {
    WebElement summary = details.findElement(By.cssSelector("summary"));
    driver.executeScript("arguments[0].scrollIntoView({block: 'center'})", summary);
    summary.click();
    assertThat(details.getAttribute("open")).isNotNull();
  }

  private boolean inViewport(WebElement element) {
    return (Boolean)
        driver.executeScript(
            "const r = arguments[0].getBoundingClientRect();"
                + " return r.top >= 0 && r.bottom <= window.innerHeight;",
            element);
  }

  @Test
  void chatAnswersWithProgressCitationsThatScrollToEvidenceSurvivesReloadAndFollowsUp() {
    Browser.ask(driver, QUESTION);
    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
    var stages =
        turn.findElements(By.cssSelector(".timeline li.done")).stream()
            .map(li -> li.getAttribute("data-stage"))
            .toList();
    assertThat(stages)
        .containsSubsequence(
            "planning", "retrieval", "inspection", "judge", "synthesis", "verification", "trace");
    assertThat(turn.findElement(By.cssSelector(".trace-saved")).getText()).contains("trace saved");
    assertThat(turn.findElement(By.cssSelector(".answer")).getText()).contains("200");
    assertThat(turn.findElement(By.cssSelector(".meta")).getText()).contains("model: extractive");

    driver.executeScript("window.scrollTo(0, 0)");
    Browser.screenshot(driver, "chat");

    WebElement citation = turn.findElement(By.cssSelector("a.cite"));
    String cardId = citation.getAttribute("data-card");
    String key = citation.getAttribute("data-key");
    citation.click();
    WebElement card = driver.findElement(By.id(cardId));
    Browser.waiting(driver, 5).until(d -> inViewport(card));
    assertThat(card.getAttribute("data-key")).isEqualTo(key);
    assertThat(card.getText()).contains(key).containsAnyOf("bm25 #", "vector #");

    card.findElement(By.cssSelector("button.pin")).click();
    assertThat(driver.findElement(By.id("pins")).isDisplayed()).isTrue();

    driver.navigate().refresh();
    WebElement restored = Browser.finishedTurn(driver, 1);
    assertThat(restored.findElement(By.cssSelector(".question")).getText()).isEqualTo(QUESTION);
    assertThat(restored.findElement(By.cssSelector(".answer")).getText()).contains("200");
    assertThat(driver.findElement(By.id("pin-list")).getText()).contains(key);

    Browser.ask(driver, "And how often should I descale it?");
    WebElement followUp = Browser.finishedTurn(driver, 2);
    assertThat(followUp.getAttribute("data-status")).isIn("ok", "no_evidence");
    assertThat(followUp.findElements(By.cssSelector(".evidence-card[data-key='" + key + "']")))
        .as("the pinned record is evidence of the follow-up")
        .isNotEmpty();
    assertThat(driver.findElements(By.cssSelector("#turns > li.turn"))).hasSize(2);
  }

  @Test
  void aShortFollowUpKeepsTheEarlierIntentAndQuotesTheV60GrindSetting() {
    Browser.ask(driver, "What grind size do I use for espresso?");
    assertThat(Browser.finishedTurn(driver, 1).getAttribute("data-status")).isEqualTo("ok");

    Browser.ask(driver, "and for the V60?");
    WebElement followUp = Browser.finishedTurn(driver, 2);

    assertThat(followUp.getAttribute("data-status")).isEqualTo("ok");
    assertThat(followUp.findElement(By.cssSelector(".answer")).getText()).contains("42");
    // The Plan panel says how the fragment was read.
    WebElement plan = followUp.findElement(By.cssSelector("details.run-panel.plan"));
    assertThat(plan.findElement(By.cssSelector("summary")).getText()).endsWith("follow-up");
    unfold(plan);
    assertThat(plan.getText())
        .contains("Read as", "What grind size do I use for the V60?", "Continues", "grind");
  }

  @Test
  void theAnswerCardComesFirstAndTheTimelineFoldsToOneLineWhenDone() {
    Browser.ask(driver, QUESTION);
    WebElement turn = Browser.finishedTurn(driver, 1);
    WebElement answer = turn.findElement(By.cssSelector(".answer-box"));
    WebElement timeline = turn.findElement(By.cssSelector("details.timeline-box"));
    assertThat(answer.getLocation().getY()).isLessThan(timeline.getLocation().getY());
    assertThat(timeline.getAttribute("open")).isNull();
    assertThat(timeline.findElement(By.cssSelector("summary")).getText())
        .matches("\\d+ stages · \\d+\\.\\d s · stop: enough_evidence");
    assertThat(timeline.findElement(By.cssSelector(".timeline")).isDisplayed()).isFalse();
    timeline.findElement(By.cssSelector("summary")).click();
    assertThat(timeline.findElement(By.cssSelector(".timeline")).isDisplayed()).isTrue();
  }

  @Test
  void everyTurnWithEvidenceOffersThePacksNextStepsAndInspectUnfoldsTheStrongestCards() {
    Browser.ask(driver, QUESTION);
    Browser.finishedTurn(driver, 1);
    Browser.ask(driver, "What grind size do I use for espresso?");
    Browser.finishedTurn(driver, 2);

    for (int i = 1; i <= 2; i++) {
      WebElement turn = Browser.finishedTurn(driver, i);
      assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
      WebElement steps = turn.findElement(By.cssSelector(".next-steps.pack-steps"));
      assertThat(
              steps.findElements(By.cssSelector("[data-action]")).stream()
                  .map(b -> b.getAttribute("data-action"))
                  .toList())
          .as("turn %d", i)
          .containsExactly("inspect_top_evidence", "expand_related", "open_lookup");
      String top = turn.findElement(By.cssSelector(".evidence-card")).getAttribute("data-key");
      String href =
          steps.findElement(By.cssSelector("a[data-action='open_lookup']")).getAttribute("href");
      assertThat(URLDecoder.decode(href.substring(href.indexOf("/record/") + 8), UTF_8))
          .isEqualTo(top);
    }

    // Inspect unfolds the first turn's folded evidence at its top card.
    WebElement first = Browser.finishedTurn(driver, 1);
    WebElement evidence = first.findElement(By.cssSelector("details.evidence"));
    driver.executeScript("arguments[0].open = false", evidence);
    WebElement card = first.findElement(By.cssSelector(".evidence-card"));
    assertThat(card.isDisplayed()).isFalse();
    WebElement inspect =
        first.findElement(By.cssSelector("button[data-action='inspect_top_evidence']"));
    driver.executeScript("arguments[0].scrollIntoView({block: 'center'})", inspect);
    inspect.click();
    Browser.waiting(driver, 5).until(d -> card.isDisplayed() && inViewport(card));
    assertThat(card.getAttribute("class")).contains("inspected");
  }

  @Test
  void aNumberedCitationScrollsToItsEvidenceAndItsSourceLinksToTheRecordPage() {
    Browser.ask(driver, QUESTION);
    WebElement turn = Browser.finishedTurn(driver, 1);
    WebElement marker = turn.findElement(By.cssSelector(".answer a.cite.num"));
    assertThat(marker.getText()).matches("\\d+");
    String key = marker.getAttribute("data-key");
    driver.executeScript("window.scrollTo(0, 0)");
    Browser.screenshot(driver, "chat-answer-first");
    marker.click();
    WebElement card = driver.findElement(By.id(marker.getAttribute("data-card")));
    Browser.waiting(driver, 5).until(d -> inViewport(card));
    assertThat(card.getAttribute("data-key")).isEqualTo(key);
    // The excerpt is rendered Markdown with the matched terms marked.
    assertThat(card.findElements(By.cssSelector(".excerpt.md mark"))).isNotEmpty();
    WebElement source =
        turn.findElement(By.cssSelector(".sources li[value='" + marker.getText() + "']"));
    assertThat(source.findElement(By.cssSelector("a.key")).getText()).isEqualTo(key);

    driver.get(source.findElement(By.cssSelector("a.key")).getAttribute("href"));
    Browser.waiting(driver, 30)
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".record-head h1")));
    String page = driver.findElement(By.id("record")).getText();
    assertThat(page).contains(key, "Text", "Chunks (", "Links (", "Backlinks (");
    Browser.screenshot(driver, "record");
  }

  @Test
  void numberedMarkersAndKeyBracketsBecomeTheSameNumberedCitations() {
    // A turn as the session keeps it: [n] markers index citations[] 1-based, a [key] bracket gets
    // its key's number, and a closing Sources block becomes the source list.
    driver.executeScript(
        "const row = (k, t) => ({source_key: k, title: t, kind: 'item', source_type: 'note',"
            + " evidence_role: 'raw', excerpt: 'text of ' + t});"
            + " sessionStorage.setItem('brain.chat.v1', JSON.stringify({pins: [], next: 2,"
            + " turns: [{id: 1, question: 'q?', status: 'ok', timeline: [], warnings: [],"
            + " citations: ['note:vault/a.md', 'note:vault/b.md'],"
            + " answer: 'First [1]. Second [2][1]. Third [note:vault/b.md]. Not one [7].'"
            + " + '\\n\\nSources:\\n[1] [note:vault/a.md] your note\\n[2] [note:vault/b.md] web page',"
            + " pack: {evidence: [row('note:vault/a.md', 'A'), row('note:vault/b.md', 'B')],"
            + " exact_tag_evidence: [], coverage: {}, next_steps: [], query_plan: {}}}]}));");
    driver.navigate().refresh();
    WebElement turn = Browser.finishedTurn(driver, 1);
    var markers = turn.findElements(By.cssSelector(".answer a.cite.num"));
    assertThat(markers).extracting(WebElement::getText).containsExactly("1", "2", "1", "2");
    assertThat(markers)
        .extracting(m -> m.getAttribute("data-key"))
        .containsExactly(
            "note:vault/a.md", "note:vault/b.md", "note:vault/a.md", "note:vault/b.md");
    String answer = turn.findElement(By.cssSelector(".answer")).getText();
    assertThat(answer).contains("Not one [7]").doesNotContain("Sources:");
    assertThat(turn.findElement(By.cssSelector(".sources")).getText())
        .contains("A your note", "B web page");
    markers.get(1).click();
    WebElement card = driver.findElement(By.id(markers.get(1).getAttribute("data-card")));
    Browser.waiting(driver, 5).until(d -> inViewport(card));
    assertThat(card.getAttribute("data-key")).isEqualTo("note:vault/b.md");
  }

  @Test
  void aParagraphTheSoftGateFoundUncitedIsMarkedAndTheAnswerStands() {
    // A turn as the session keeps it, with the verification's soft warning of its done event.
    driver.executeScript(
        "sessionStorage.setItem('brain.chat.v1', JSON.stringify({pins: [], next: 2,"
            + " turns: [{id: 1, question: 'q?', status: 'ok', timeline: [], warnings: [],"
            + " citations: ['note:vault/a.md'],"
            + " answer: 'Backflush every 200 shots [note:vault/a.md].\\n\\n"
            + "Descale the **boiler** every two months with citric acid.',"
            + " softWarnings: [{gate: 'uncited_paragraph', paragraph: 2,"
            + " excerpt: 'Descale the **boiler** every two months with citric acid.',"
            + " message: 'paragraph 2 states a fact without citing a record'}],"
            + " pack: {evidence: [{source_key: 'note:vault/a.md', title: 'A', kind: 'item',"
            + " source_type: 'note', evidence_role: 'raw', excerpt: 'x'}],"
            + " exact_tag_evidence: [], coverage: {}, next_steps: [], query_plan: {}}}]}));");
    driver.navigate().refresh();
    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
    var marked = turn.findElements(By.cssSelector(".answer .uncited"));
    assertThat(marked)
        .singleElement()
        .satisfies(p -> assertThat(p.getText()).startsWith("Descale"));
    assertThat(turn.findElement(By.cssSelector(".soft-warnings")).getText())
        .isEqualTo("1 paragraph states a fact without citing a record (marked).");
  }

  /** The trace directories of the sample vault's data directory. */
  private static java.util.Set<Path> traceDirs() throws java.io.IOException {
    Path root = SampleVaultData.dataDir().resolve(TraceStore.DIRECTORY);
    if (!Files.isDirectory(root)) {
      return java.util.Set.of();
    }
    try (var dirs = Files.list(root)) {
      return dirs.collect(java.util.stream.Collectors.toSet());
    }
  }

  /** The new trace directories (since {@code before}) that mention {@code text}. */
  private static List<Path> newTracesMentioning(java.util.Set<Path> before, String text)
      throws java.io.IOException {
    var out = new java.util.ArrayList<Path>();
    for (Path dir : traceDirs()) {
      if (before.contains(dir) || !Files.isDirectory(dir)) {
        continue;
      }
      try (var files = Files.walk(dir)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          if (Files.readString(f).contains(text)) {
            out.add(dir);
            break;
          }
        }
      }
    }
    return out;
  }

  @Test
  void withDontSaveThisQuestionOnTheAnswerComesAndNoTraceIsWritten() throws Exception {
    String question = "How often do I need to backflush the espresso machine?";
    WebElement noTrace = driver.findElement(By.id("no-trace"));
    assertThat(noTrace.isSelected()).as("chat.save-traces defaults to true").isFalse();
    var before = traceDirs();
    noTrace.click();
    Browser.ask(driver, question);
    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("data-status")).isEqualTo("ok");
    assertThat(turn.findElement(By.cssSelector(".answer")).getText()).contains("200");
    assertThat(turn.findElement(By.cssSelector(".meta")).getText())
        .contains("not saved")
        .doesNotContain("trace saved");
    assertThat(newTracesMentioning(before, question)).isEmpty();

    // The switch is the tab's choice: it survives a reload; off again, the question is traced.
    driver.navigate().refresh();
    assertThat(driver.findElement(By.id("no-trace")).isSelected()).isTrue();
    driver.findElement(By.id("no-trace")).click();
    Browser.ask(driver, question);
    WebElement traced = Browser.finishedTurn(driver, 2);
    assertThat(traced.findElement(By.cssSelector(".trace-saved")).getText())
        .contains("trace saved");
    assertThat(newTracesMentioning(before, question)).hasSize(1);
  }

  @Test
  void planAndCoverageAreFoldedAndShowTheConceptsSearchedAndWhatTheEvidenceCovers() {
    Browser.ask(driver, "What grind size do I use for espresso?");
    WebElement turn = Browser.finishedTurn(driver, 1);
    WebElement plan = turn.findElement(By.cssSelector("details.run-panel.plan"));
    WebElement coverage = turn.findElement(By.cssSelector("details.run-panel.coverage"));
    for (WebElement panel : List.of(plan, coverage)) {
      assertThat(panel.getAttribute("open")).isNull();
      assertThat(panel.findElement(By.cssSelector("dl")).isDisplayed()).isFalse();
    }
    assertThat(plan.findElement(By.cssSelector("summary")).getText()).startsWith("Plan · ");
    assertThat(coverage.findElement(By.cssSelector("summary")).getText()).startsWith("Coverage · ");

    unfold(plan);
    assertThat(plan.findElement(By.cssSelector("dl")).getText())
        .contains("Required", "grind", "Searches");
    unfold(coverage);
    assertThat(coverage.getText()).contains("Evidence", "note");
    Browser.screenshot(driver, "chat-panels");
  }

  @Test
  void aBroadQuestionOffersTheTopicBriefsPivotsAsNextQuestions() {
    Browser.ask(driver, "What do I know about coffee?");
    WebElement turn = Browser.finishedTurn(driver, 1);
    var pivots = turn.findElements(By.cssSelector(".pivots button.pivot"));
    assertThat(pivots).isNotEmpty();
    WebElement coverage = turn.findElement(By.cssSelector("details.run-panel.coverage"));
    unfold(coverage);
    assertThat(coverage.getText()).contains("Top tags", "#coffee", "capped working set");

    String next = pivots.get(0).getAttribute("data-question");
    driver.executeScript("arguments[0].scrollIntoView({block: 'center'})", pivots.get(0));
    Browser.screenshot(driver, "chat-pivots");
    pivots.get(0).click();
    assertThat(Browser.finishedTurn(driver, 2).findElement(By.cssSelector(".question")).getText())
        .isEqualTo(next);
  }

  @Test
  void topicPivotsAreEscapedFollowUpQuestionsThatAsk() {
    driver.executeScript(
        "sessionStorage.setItem('brain.chat.v1', JSON.stringify({pins: [], next: 2,"
            + " turns: [{id: 1, question: 'coffee?', status: 'evidence', timeline: [],"
            + " warnings: [], citations: [], answer: '',"
            + " pack: {evidence: [], exact_tag_evidence: [], next_steps: [],"
            + " coverage: {evidence_count: 0, top_user_tags: [{tag: '<i>t</i>', count: 2}]},"
            + " query_plan: {concepts: [{preferred: '<b>x</b>', terms: [], required: true}]},"
            + " topic_brief: {topic: 'coffee', summary: 's', pivots: ["
            + " {id: 'person:<b>Ines</b>', type: 'person', label: '<b>Ines</b>', connections: 2},"
            + " {id: 'tag:espresso', type: 'tag', label: 'espresso', connections: 3}]}}}]}));");
    driver.navigate().refresh();
    WebElement turn = Browser.finishedTurn(driver, 1);
    var pivots = turn.findElements(By.cssSelector(".pivots button.pivot"));
    assertThat(pivots).extracting(WebElement::getText).containsExactly("<b>Ines</b>", "#espresso");
    assertThat(turn.findElements(By.cssSelector("b, i"))).isEmpty();
    unfold(turn.findElement(By.cssSelector("details.plan")));
    assertThat(turn.findElement(By.cssSelector("details.plan")).getText()).contains("<b>x</b>");

    pivots.get(1).click();
    WebElement asked = Browser.finishedTurn(driver, 2);
    assertThat(asked.findElement(By.cssSelector(".question")).getText())
        .isEqualTo("What do my notes tagged #espresso say?");
  }

  @Test
  void theRecordPageShowsTextChunksLinksAndBacklinksAndLinksToThem() {
    driver.get(server.url().resolve("/record/" + Http.enc("note:vault/Home.md")).toString());
    Browser.waiting(driver, 30)
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".record-head h1")));
    assertThat(driver.getTitle()).startsWith("brain · ");
    assertThat(driver.findElement(By.cssSelector(".record-head .key")).getText())
        .isEqualTo("note:vault/Home.md");
    assertThat(driver.findElement(By.cssSelector(".record-section .md")).getText()).isNotBlank();
    var links = driver.findElements(By.cssSelector(".links a"));
    assertThat(links)
        .isNotEmpty()
        .allSatisfy(a -> assertThat(a.getAttribute("href")).contains("/record/"));
    // Links read as titles; each leads to the page of the key in its address.
    String href = links.get(0).getAttribute("href");
    String target =
        java.net.URLDecoder.decode(
            href.substring(href.indexOf("/record/") + "/record/".length()),
            java.nio.charset.StandardCharsets.UTF_8);
    assertThat(links.get(0).getText()).isNotEqualTo(target);
    links.get(0).click();
    Browser.waiting(driver, 30)
        .until(
            d ->
                d.findElements(By.cssSelector(".record-head .key")).stream()
                    .anyMatch(k -> k.getText().equals(target)));
  }

  @Test
  void anUnknownRecordSaysSo() {
    driver.get(server.url().resolve("/record/" + Http.enc("note:vault/nope.md")).toString());
    Browser.waiting(driver, 30)
        .until(ExpectedConditions.attributeContains(By.id("record-status"), "class", "error-box"));
    assertThat(driver.findElement(By.id("record-status")).getText()).contains("nope.md");
  }

  @Test
  void searchFlagsWeakMatchesAndOffersFiltersFromTheIndex() {
    driver.get(server.url().resolve("/search?q=zorbly+quixotic+flanges").toString());
    Browser.waiting(driver, 30)
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".evidence-card")));
    assertThat(driver.findElements(By.cssSelector("#search-results .evidence-card.weak")))
        .isNotEmpty();
    assertThat(driver.findElement(By.cssSelector(".weak-flag")).getText())
        .startsWith("Weak match: missing");
    Browser.waiting(driver, 10)
        .until(
            d ->
                d.findElements(By.cssSelector("#search-source-type option")).size() > 1
                    && !d.findElements(By.cssSelector("#search-tags option")).isEmpty());
    assertThat(driver.findElement(By.id("search-source-type")).getText()).contains("note (");
    assertThat(driver.findElement(By.id("search-since")).getAttribute("min"))
        .matches("\\d{4}-\\d{2}-\\d{2}");
    assertThat(driver.findElement(By.id("search-range")).getText()).contains("records created");
    Browser.screenshot(driver, "search-weak");
  }

  @Test
  void aRealQueryHasNoWeakFlagOnItsTopRow() {
    driver.get(server.url().resolve("/search?q=backflush+espresso+machine").toString());
    Browser.waiting(driver, 30)
        .until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".evidence-card")));
    assertThat(
            driver
                .findElement(By.cssSelector("#search-results .evidence-card"))
                .getAttribute("class"))
        .doesNotContain("weak");
  }

  @Test
  void aQuestionWithoutEvidenceShowsWhatWasSearchedAndWhatToTry() {
    Browser.ask(driver, "What did the lattice QCD seminar say about gluon mass?");
    WebElement turn = Browser.finishedTurn(driver, 1);
    assertThat(turn.getAttribute("data-status")).isEqualTo("no_evidence");
    String text = turn.findElement(By.cssSelector(".no-evidence")).getText();
    assertThat(text).contains("No evidence", "Searched for", "Terms", "Nearest in meaning");
    // The nearest records link to Search, where their lane provenance shows.
    assertThat(turn.findElements(By.cssSelector(".nearest a")))
        .isNotEmpty()
        .allSatisfy(a -> assertThat(a.getAttribute("href")).contains("/search?q="));
    // "Explain this result": a synthesis over the empty pack says what was searched.
    turn.findElement(By.cssSelector("button.explain")).click();
    Browser.waiting(driver, 30)
        .until(
            d ->
                d.findElement(By.cssSelector("#turns > li.turn .explanation"))
                    .getText()
                    .contains("Searched for"));
    Browser.screenshot(driver, "chat-no-evidence");
  }

  @Test
  void withTheAnswerSwitchedOffExplainThisResultSynthesizesTheEmptyPack() {
    driver.findElement(By.id("synthesize")).click();
    try {
      Browser.ask(driver, "What did the lattice QCD seminar say about gluon mass?");
      WebElement turn = Browser.finishedTurn(driver, 1);
      assertThat(turn.findElements(By.cssSelector(".answer"))).isEmpty();
      turn.findElement(By.cssSelector("button.explain")).click();
      Browser.waiting(driver, 30)
          .until(
              d ->
                  d.findElement(By.cssSelector("#turns > li.turn .explanation"))
                      .getText()
                      .contains("occur nowhere"));
    } finally {
      if (!driver.findElement(By.id("synthesize")).isSelected()) {
        driver.findElement(By.id("synthesize")).click();
      }
    }
  }

  @Test
  void excerptsRenderMarkdownButNeverHtml() {
    String html =
        (String)
            driver.executeScript(
                "const row = {source_key: 'note:a.md', title: '<b>t</b>',"
                    + " excerpt: '## Head **bold** <script>alert(1)</script> [[Page|shown]]"
                    + " > [!info]+ Info `code` [x](javascript:alert(1))',"
                    + " matched_terms: ['bold']};"
                    + " return Brain.evidenceCard(row, {}).outerHTML;");
    assertThat(html)
        .contains("<strong><mark>bold</mark></strong>", "&lt;script&gt;", "shown", "info:")
        .contains("<code>code</code>")
        .doesNotContain("<script", "<b>t", "[[Page", "## Head", "href=\"javascript");
  }

  @Test
  void aPassageAnswerShowsItsCodeBlocksAndListsAsCode() {
    String html =
        (String)
            driver.executeScript(
                "return Brain.renderMarkdown('From your notes, “Install › Update” [note:a.md]:"
                    + "\\n\\nRun the `update` script:\\n\\n```console\\n$ rustup update <x>\\n```"
                    + "\\n\\n- one\\n- two\\n\\n~~~\\n```\\n~~~',"
                    + " k => '<a class=cite>' + Brain.escapeHtml(k) + '</a>')");
    assertThat(html)
        .contains("<a class=cite>note:a.md</a>", "<code>update</code>")
        .contains("<pre><code>$ rustup update &lt;x&gt;</code></pre>")
        .contains("<li>one</li><li>two</li>")
        .contains("<pre><code>```</code></pre>");
  }

  @Test
  void modelAndEvidenceTextIsNeverInterpretedAsHtml() {
    String html =
        (String)
            driver.executeScript(
                "return Brain.renderMarkdown('<img src=x onerror=alert(1)> **b** [note:a.md]',"
                    + " k => '<a class=cite>' + Brain.escapeHtml(k) + '</a>')");
    assertThat(html).contains("&lt;img").doesNotContain("<img").contains("<strong>b</strong>");
  }

  @Test
  void onAPhoneWidthNothingScrollsSideways() {
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(390, 844));
    try {
      Browser.ask(driver, QUESTION);
      Browser.finishedTurn(driver, 1);
      Long overflow =
          (Long)
              driver.executeScript(
                  "return document.documentElement.scrollWidth - window.innerWidth;");
      assertThat(overflow).isLessThanOrEqualTo(0L);
      Browser.screenshot(driver, "chat-phone");
    } finally {
      driver.manage().window().setSize(new org.openqa.selenium.Dimension(1100, 1400));
    }
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
