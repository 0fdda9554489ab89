package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.brain.index.BrainIndex;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import dev.brain.index.IndexConfig;
import dev.brain.models.chat.ChatRequest;
import dev.brain.research.Researcher;
import dev.brain.research.fixtures.TestChatModel;
import dev.brain.research.note.NoteResearchException.Reason;
import dev.brain.research.trace.TraceStore;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Note research over a copy of the sample vault with a real index, a fake SearxNG-style search
 * server and fake pages on loopback, and a scripted chat model. The index is built once per class.
 */
class NoteResearcherTest {

  private static final Path SAMPLES = Path.of("../samples/vault").toAbsolutePath().normalize();
  private static final Pattern WIKILINK = Pattern.compile("\\[\\[([^\\]|#]+)");

  @TempDir static Path dir;
  static Path vault;
  static BrainIndex index;
  static Researcher research;
  static TraceStore traces;
  static List<CollectionRoot> collections;
  static HttpServer web;
  static URI searchUrl;
  static final List<String> queries = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void setUp() throws IOException {
    vault = dir.resolve("vault");
    copy(SAMPLES, vault);
    Path data = dir.resolve("data");
    collections = List.of(CollectionRoot.of("vault", vault));
    CollectionsFile.of(data).write(collections);
    index = BrainIndex.open(IndexConfig.defaults(data));
    index.syncCollections(collections, null);
    research = new Researcher(new Retriever(index));
    traces = new TraceStore(data);
    web = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    web.createContext("/search", NoteResearcherTest::search);
    web.createContext("/page/", NoteResearcherTest::page);
    web.start();
    searchUrl = URI.create("http://127.0.0.1:" + web.getAddress().getPort() + "/search");
  }

  @AfterAll
  static void tearDown() throws IOException {
    web.stop(0);
    index.close();
  }

  private static void search(HttpExchange ex) throws IOException {
    String q = URLDecoder.decode(ex.getRequestURI().getRawQuery(), StandardCharsets.UTF_8);
    queries.add(q);
    if (q.contains("zzfail")) {
      respond(ex, 500, "text/plain", "boom");
      return;
    }
    String base = "http://127.0.0.1:" + web.getAddress().getPort();
    String json =
        """
        {"results": [
          {"url": "%s/page/grinders", "title": "Grinder guide", "content": "Conical burrs and retention."},
          {"url": "%s/page/missing", "title": "Gone", "content": "A page that is gone."},
          {"url": "javascript:alert(1)", "title": "bad", "content": "not a web page"}
        ]}
        """
            .formatted(base, base);
    respond(ex, 200, "application/json", json);
  }

  private static void page(HttpExchange ex) throws IOException {
    if (ex.getRequestURI().getPath().endsWith("/missing")) {
      respond(ex, 404, "text/html", "<h1>Not found</h1>");
      return;
    }
    respond(
        ex,
        200,
        "text/html; charset=utf-8",
        "<html><body><nav>menu</nav><p>Single-dosing grinders keep retention low. Conical burrs"
            + " of 63 mm grind espresso evenly.</p><script>var x=1;</script></body></html>");
  }

  private static void respond(HttpExchange ex, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(status, bytes.length);
    try (var out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static NoteResearcher researcher(URI web) {
    return new NoteResearcher(
        q -> research.pack(q, dev.brain.research.pack.ResearchOptions.defaults()),
        (c, p) -> "done",
        traces,
        new NoteResearcher.Options(web, 4, Duration.ofSeconds(10), Duration.ofSeconds(30)));
  }

  private static Path note(String relative) {
    return vault.resolve(relative);
  }

  /** A copy of a sample note under a new name, so that tests that write do not meet. */
  private static Path fresh(String relative, String name) throws IOException {
    return Files.copy(
        note(relative), note(relative).resolveSibling(name), StandardCopyOption.REPLACE_EXISTING);
  }

  private static boolean isTopicsRequest(ChatRequest r) {
    return r.messages().get(0).content().equals(ModelTopics.SYSTEM);
  }

  private static TestChatModel model(String topics, Function<ChatRequest, String> synthesis) {
    return TestChatModel.answering(r -> isTopicsRequest(r) ? topics : synthesis.apply(r));
  }

  private static void assertEveryWikilinkIsANoteOfTheVault(String section) throws IOException {
    var notes = NoteLinks.of(collections);
    Matcher m = WIKILINK.matcher(section);
    int links = 0;
    while (m.find()) {
      String target = m.group(1).strip();
      assertThat(notes.exists(target)).as(target).isTrue();
      assertThat(notes.isAmbiguous(target)).as(target).isFalse();
      links++;
    }
    assertThat(links).isPositive();
  }

  @Test
  void dryRunWithoutAModelPrintsACitedSectionAndWritesNothing() throws Exception {
    Path niche = note("coffee/Niche Zero.md");
    byte[] before = Files.readAllBytes(niche);
    NoteResult r =
        researcher(null).research(NoteRequest.of(niche).withDryRun(true), collections, null);
    assertThat(Files.readAllBytes(niche)).isEqualTo(before);
    assertThat(r.written()).isFalse();
    assertThat(r.traceId()).isNull();
    assertThat(r.topicSource()).isEqualTo("deterministic");
    assertThat(r.key()).isEqualTo("note:vault/coffee/Niche Zero.md");
    assertThat(r.section())
        .startsWith("## Research\n" + ResearchSection.MARKER_PREFIX)
        .contains("### ")
        .endsWith(ResearchSection.END_MARKER + "\n");
    assertThat(ResearchSection.isBrainWritten(r.section())).isTrue();
    assertThat(r.research())
        .flatExtracting(NoteResult.TopicReport::sources)
        .extracting(NoteResult.Source::key)
        .doesNotContain(r.key());
    assertEveryWikilinkIsANoteOfTheVault(r.section());
  }

  @Test
  void topicsAreCappedAtTen() throws Exception {
    var list = new StringBuilder("[");
    for (int i = 1; i <= 14; i++) {
      list.append(i > 1 ? "," : "")
          .append("{\"topic\":\"espresso topic ")
          .append(i)
          .append("\",\"context\":\"c\",\"type\":\"concept\"}");
    }
    var model = model(list + "]", r -> "### Espresso\n\n- See [[Gaggia Classic Pro]].\n");
    NoteResult r =
        researcher(null)
            .research(
                NoteRequest.of(note("coffee/Niche Zero.md")).withDryRun(true), collections, model);
    assertThat(r.topics()).hasSize(NoteResearcher.MAX_TOPICS);
    assertThat(r.topicSource()).isEqualTo("model");
    assertThat(r.section()).contains("[[Gaggia Classic Pro]]");
  }

  @Test
  void focusNarrowsTheTopics() throws Exception {
    Path niche = note("coffee/Niche Zero.md");
    NoteResult all =
        researcher(null).research(NoteRequest.of(niche).withDryRun(true), collections, null);
    NoteResult focused =
        researcher(null)
            .research(
                NoteRequest.of(niche).withDryRun(true).withFocus("Gaggia"), collections, null);
    assertThat(focused.topics()).isNotEmpty().hasSizeLessThan(all.topics().size());
    assertThat(focused.topics())
        .allMatch(t -> (t.topic() + t.context()).toLowerCase(Locale.ROOT).contains("gaggia"));
    var model = TestChatModel.answering("[{\"topic\":\"Gaggia\",\"type\":\"concept\"}]");
    assertThat(ModelTopics.ask(model, "note", "Gaggia", Duration.ofSeconds(5), new int[1]))
        .hasSize(1);
    assertThat(model.requests.get(0).messages().get(1).content())
        .contains("Focus:")
        .contains("Gaggia");
  }

  @Test
  void rerunReplacesTheSectionAndLeavesTheRestOfTheNoteByteForByte() throws Exception {
    Path n = fresh("coffee/V60 recipe.md", "V60 copy.md");
    byte[] original = Files.readAllBytes(n);
    NoteResult first = researcher(null).research(NoteRequest.of(n), collections, null);
    assertThat(first.written()).isTrue();
    String once = Files.readString(n);
    assertThat(once)
        .isEqualTo(new String(original, StandardCharsets.UTF_8) + "\n" + first.section());
    NoteResult second = researcher(null).research(NoteRequest.of(n), collections, null);
    String twice = Files.readString(n);
    assertThat(twice.split("## Research", -1)).hasSize(2);
    assertThat(twice)
        .isEqualTo(new String(original, StandardCharsets.UTF_8) + "\n" + second.section());
    assertThat(first.traceId()).isNotNull();
    Path trace = traces.find(first.traceId()).orElseThrow();
    assertThat(Files.readString(trace.resolve(NoteTrace.SECTION_MD))).isEqualTo(first.section());
    assertThat(Files.readString(trace.resolve(NoteTrace.RESULT_JSON)))
        .contains("\"topics\"", "\"query\"", "\"sources\"");
    assertThat(Files.isRegularFile(trace.resolve(TraceStore.RUN_JSON))).isTrue();
  }

  @Test
  void aHandWrittenSectionIsRefusedUntouchedAndReplacedInPlaceOnlyWithReplace() throws Exception {
    Path n = note("coffee/Middle.md");
    String head = "# Middle\n\nThe Niche Zero grinder and the Gaggia Classic Pro.\n\n";
    String tail = "## Later\n\nKept as it is.\n";
    String mine = "## Research\n\nmy findings\n\n### My subsection\n\nmine\n\n";
    Files.writeString(n, head + mine + tail);
    assertThatThrownBy(() -> researcher(null).research(NoteRequest.of(n), collections, null))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("brain did not write")
        .hasMessageContaining("my findings / ### My subsection / mine")
        .hasMessageContaining("--replace");
    assertThat(Files.readString(n)).isEqualTo(head + mine + tail);
    NoteResult r =
        researcher(null).research(NoteRequest.of(n).withReplace(true), collections, null);
    assertThat(Files.readString(n)).isEqualTo(head + r.section() + "\n" + tail);
  }

  @Test
  void aCommentedOutHeadingAndTheParagraphAfterItSurviveTwoRuns() throws Exception {
    Path n = note("coffee/Commented.md");
    String mine =
        "# Commented\n\nThe Niche Zero grinder.\n\n<!--\n## Research\nold idea\n-->\n\n"
            + "My paragraph after the comment.\n";
    Files.writeString(n, mine);
    NoteResult first = researcher(null).research(NoteRequest.of(n), collections, null);
    assertThat(Files.readString(n)).isEqualTo(mine + "\n" + first.section());
    NoteResult second = researcher(null).research(NoteRequest.of(n), collections, null);
    assertThat(Files.readString(n)).isEqualTo(mine + "\n" + second.section());
  }

  @Test
  void aFailingTopicAndAMissingPageAreSkippedAndReported() throws Exception {
    var model =
        model(
            "[{\"topic\":\"zzfail qqq\",\"type\":\"concept\"},"
                + "{\"topic\":\"Niche Zero grinder retention\",\"type\":\"claim\"}]",
            r -> {
              String prompt = r.messages().get(1).content();
              Matcher url = Pattern.compile("\\((http://[^)]+/page/grinders)\\)").matcher(prompt);
              assertThat(url.find()).isTrue();
              return "### Retention\n\n- Low retention, see [Grinder guide]("
                  + url.group(1)
                  + ").\n";
            });
    NoteResult r =
        researcher(searchUrl)
            .research(
                NoteRequest.of(note("coffee/Niche Zero.md")).withDryRun(true).withDepth(Depth.DEEP),
                collections,
                model);
    assertThat(r.skipped())
        .anyMatch(s -> s.contains("zzfail qqq") && s.contains("web search failed"))
        .anyMatch(s -> s.contains("/page/missing") && s.contains("404"));
    assertThat(r.section()).contains("[Grinder guide](http://127.0.0.1:");
    var retention = r.research().get(1);
    assertThat(retention.sources())
        .anyMatch(s -> s.kind().equals("web") && s.excerpt().contains("Single-dosing grinders"));
    assertThat(r.research().get(1).sources())
        .noneMatch(s -> s.url() != null && s.url().startsWith("javascript"));
  }

  @Test
  void withoutASearchEndpointTheWebIsNeverAsked() throws Exception {
    queries.clear();
    NoteResult r =
        researcher(null)
            .research(
                NoteRequest.of(note("coffee/Niche Zero.md")).withDryRun(true), collections, null);
    assertThat(queries).isEmpty();
    assertThat(r.research())
        .flatExtracting(NoteResult.TopicReport::sources)
        .noneMatch(s -> s.kind().equals("web"));
  }

  @Test
  void refusesABinaryFileAndAPathOutsideTheCollections() throws IOException {
    Path binary = Files.write(note("coffee/photo.md"), new byte[] {(byte) 0xff, (byte) 0xd8, 0, 1});
    assertThatThrownBy(() -> researcher(null).research(NoteRequest.of(binary), collections, null))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("looks binary");
    Path outside = Files.writeString(dir.resolve("outside.md"), "# Outside\n\nNiche Zero\n");
    assertThatThrownBy(() -> researcher(null).research(NoteRequest.of(outside), collections, null))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("not inside a configured collection");
    assertThat(Files.readString(outside)).isEqualTo("# Outside\n\nNiche Zero\n");
  }

  @Test
  void refusesToWriteANoteEditedDuringTheRun() throws Exception {
    Path n = fresh("coffee/Milk steaming.md", "Milk copy.md");
    String edited = Files.readString(n) + "\nmy edit while research ran\n";
    var model =
        model(
            "[{\"topic\":\"milk steaming\",\"type\":\"concept\"}]",
            r -> {
              try {
                Files.writeString(n, edited);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
              return "### Milk\n\n- See [[Gaggia Classic Pro]].\n";
            });
    assertThatThrownBy(() -> researcher(null).research(NoteRequest.of(n), collections, model))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("changed while it was being researched")
        .extracting(e -> ((NoteResearchException) e).reason())
        .isEqualTo(Reason.CONFLICT);
    assertThat(Files.readString(n)).isEqualTo(edited);
  }

  @Test
  void malformedTopicsAreAskedForOnceMoreThenFailClearly() {
    var model = TestChatModel.answering("Here are some topics: grind, burrs");
    assertThatThrownBy(
            () ->
                researcher(null)
                    .research(NoteRequest.of(note("coffee/Niche Zero.md")), collections, model))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("did not answer the topics as a JSON list twice")
        .extracting(e -> ((NoteResearchException) e).reason())
        .isEqualTo(Reason.MODEL_FAILED);
    assertThat(model.requests).hasSize(2);
  }

  @Test
  void aSectionCitingANoteOrUrlThatIsNotRealIsNeverWritten() throws IOException {
    Path n = note("coffee/Niche Zero.md");
    byte[] before = Files.readAllBytes(n);
    var invented =
        model(
            "[{\"topic\":\"grinder\",\"type\":\"concept\"}]",
            r ->
                "### Grinder\n\n- See [[No Such Note]] and [a blog](https://example.com/made-up).\n");
    assertThatThrownBy(() -> researcher(null).research(NoteRequest.of(n), collections, invented))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining("[[No Such Note]]")
        .hasMessageContaining("https://example.com/made-up")
        .extracting(e -> ((NoteResearchException) e).reason())
        .isEqualTo(Reason.VERIFICATION_FAILED);
    assertThat(Files.readAllBytes(n)).isEqualTo(before);
  }
}
