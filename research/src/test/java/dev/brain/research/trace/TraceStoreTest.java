package dev.brain.research.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.brain.models.chat.ChatException;
import dev.brain.research.fixtures.RunnerVault;
import dev.brain.research.fixtures.TestChatModel;
import dev.brain.research.json.Json;
import dev.brain.research.run.RunId;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.StopReason;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trace directories on disk: completeness, lookup, retention and redaction. */
class TraceStoreTest {

  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path data;

  private TraceStore store() {
    return new TraceStore(data, Redactor.of(data, List.of()), RetentionPolicy.defaults());
  }

  /** A complete trace directory as a run would leave it, started {@code age} before NOW. */
  private String complete(Duration age) throws IOException {
    String id = RunId.next(NOW.minus(age));
    Path dir = Files.createDirectories(data.resolve("research-runs").resolve(id));
    Files.writeString(
        dir.resolve("run.json"),
        "{\"run_id\":\"" + id + "\",\"question\":\"q\",\"stop_reason\":\"enough_evidence\"}");
    Files.writeString(dir.resolve("run.md"), "# Research run " + id + "\n");
    Files.writeString(dir.resolve(".complete"), NOW.toString());
    return id;
  }

  @Test
  void anUnreadableRunIsListedWithAReasonInWordsAndARelativePath() throws IOException {
    String id = complete(Duration.ofMinutes(1));
    Files.writeString(data.resolve("research-runs").resolve(id).resolve("run.json"), "{\"q\": ");

    TraceSummary listed = store().list().get(0);

    assertThat(listed.error()).startsWith("unreadable run.json: not valid JSON at line 1");
    assertThat(listed.error()).doesNotContain("Exception", "com.", data.toString());
    assertThat(listed.path()).isEqualTo("research-runs/" + id);
  }

  @Test
  void runIdsAreUtcTimestampsWithTwelveHexDigitsAndSortByTime() {
    String early = RunId.next(Instant.parse("2026-01-02T03:04:05.678Z"));
    String late = RunId.next(Instant.parse("2026-01-02T03:04:06Z"));

    assertThat(early).matches("20260102T030405\\.678Z-[0-9a-f]{12}");
    assertThat(early).isLessThan(late);
    assertThat(RunId.startOf(early)).isEqualTo(Instant.parse("2026-01-02T03:04:05.678Z"));
    assertThat(RunId.next(NOW)).isNotEqualTo(RunId.next(NOW));
  }

  @Test
  void readersIgnoreIncompleteAndTemporaryDirectories() throws IOException {
    String done = complete(Duration.ofMinutes(1));
    Path runs = data.resolve("research-runs");
    Files.createDirectories(runs.resolve(RunId.next(NOW))); // no marker: crashed mid-way
    Files.createDirectories(runs.resolve(".tmp-" + RunId.next(NOW)));
    Files.createDirectories(runs.resolve("not-a-run"));

    assertThat(store().list()).extracting(TraceSummary::runId).containsExactly(done);
    assertThat(store().find("latest")).contains(runs.resolve(done));
  }

  @Test
  void findTakesAnIdAUniquePrefixLatestOrAPathAndRefusesAnAmbiguousPrefix() throws IOException {
    String old = complete(Duration.ofDays(3));
    String recent = complete(Duration.ofHours(1));
    Path runs = data.resolve("research-runs");

    assertThat(store().find(old)).contains(runs.resolve(old));
    assertThat(store().find(recent.substring(0, 10))).contains(runs.resolve(recent));
    assertThat(store().find("last")).contains(runs.resolve(recent));
    assertThat(store().find(runs.resolve(old).toString())).contains(runs.resolve(old));
    assertThat(store().find("1999")).isEmpty();
    assertThatThrownBy(() -> store().find("2026"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("matches 2 runs");
  }

  @Test
  void pruningKeepsTheNewestAndTheYoungAndNeverTheActiveRunAndReportsTheCount() throws IOException {
    var ids = new ArrayList<String>();
    for (int days : new int[] {400, 300, 250, 200, 10, 1}) {
      ids.add(complete(Duration.ofDays(days)));
    }
    String active = ids.get(0); // the oldest, but in use
    var policy = new RetentionPolicy(2, Duration.ofDays(180), false);

    PruneReport report = store().prune(policy, Set.of(active), NOW, null);

    // Newest 2 kept (1 and 10 days), nothing else is younger than 180 days, the active run stays.
    assertThat(report.examined()).isEqualTo(6);
    assertThat(report.deleted()).isEqualTo(3);
    assertThat(report.deletedRunIds()).containsExactly(ids.get(1), ids.get(2), ids.get(3));
    assertThat(report.kept()).isEqualTo(3);
    assertThat(store().list())
        .extracting(TraceSummary::runId)
        .containsExactly(ids.get(5), ids.get(4), active);
  }

  @Test
  void theDefaultPolicyKeepsFiveHundredNewestAndEverythingYoungerThan180Days() throws IOException {
    for (int i = 0; i < 3; i++) {
      complete(Duration.ofDays(1000 + i));
    }

    assertThat(store().prune(RetentionPolicy.defaults(), Set.of(), NOW, null).deleted()).isZero();
    assertThat(RetentionPolicy.defaults().keepNewest()).isEqualTo(500);
    assertThat(RetentionPolicy.defaults().maxAge()).isEqualTo(Duration.ofDays(180));
    var keepOne = new RetentionPolicy(1, Duration.ofDays(180), false);
    assertThat(store().prune(RetentionPolicy.keepEverything(), Set.of(), NOW, null).deleted())
        .isZero();
    assertThat(store().prune(keepOne, Set.of(), NOW, null).deleted()).isEqualTo(2);
  }

  @Test
  void pruningRemovesTemporaryLeftoversOfCrashedRunsOlderThanADay() throws IOException {
    Path runs = Files.createDirectories(data.resolve("research-runs"));
    Path stale = Files.createDirectories(runs.resolve(".tmp-" + RunId.next(NOW)));
    Files.writeString(stale.resolve("run.md"), "partial");
    Files.setLastModifiedTime(stale, FileTime.from(NOW.minus(Duration.ofDays(2))));
    Path fresh = Files.createDirectories(runs.resolve(".tmp-" + RunId.next(NOW)));
    Files.setLastModifiedTime(fresh, FileTime.from(NOW.minus(Duration.ofMinutes(1))));

    PruneReport report = store().prune(RetentionPolicy.defaults(), Set.of(), NOW, null);

    assertThat(report.staleTemporary()).isEqualTo(1);
    assertThat(stale).doesNotExist();
    assertThat(fresh).exists();
  }

  @Test
  void aPlantedApiKeyAuthHeaderAndOutsidePathNeverAppearInAnyTraceFile() throws Exception {
    String apiKey = "sk-proj-PLANTEDabcdef1234567890";
    String bearer = "tok_PLANTED_0123456789abcdef";
    String configured = "configured-PLANTED-secret-42";
    String outside = "/home/alice/private/notes.md";
    var model =
        TestChatModel.failing(
            ChatException.Kind.PROTOCOL,
            "HTTP 401 for "
                + outside
                + ", key "
                + configured
                + " (Authorization: Bearer "
                + bearer
                + ")");
    var runner = RunnerVault.runner(data, List.of(configured));
    String question =
        "How often should I backflush the espresso machine? see "
            + outside
            + " api_key="
            + apiKey
            + " Authorization: Bearer "
            + bearer;

    RunResult run = runner.run(RunRequest.of(question).withModel(model), null);

    Path dir = Path.of(run.tracePath());
    var contents = new ArrayList<String>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        contents.add(Files.readString(f));
      }
    }
    assertThat(contents).hasSizeGreaterThanOrEqualTo(4);
    assertThat(contents)
        .allSatisfy(
            text ->
                assertThat(text)
                    .doesNotContain(apiKey)
                    .doesNotContain(bearer)
                    .doesNotContain(configured)
                    .doesNotContain("/home/alice")
                    .doesNotContainIgnoringCase("plantedabcdef1234567890")
                    .doesNotContainIgnoringCase("0123456789abcdef"));
    String json = Files.readString(dir.resolve("run.json"));
    assertThat(new ObjectMapper().readTree(json).path("synthesis").path("error").asText())
        .contains("Authorization: [redacted]");
    assertThat(json).contains(Redactor.PATH);
    // The data root itself may appear (it is the user's own); nothing outside it does.
    assertThat(run.stopReason()).isEqualTo(StopReason.SYNTHESIS_FAILED);
  }

  @Test
  void runJsonIsRedactedBeforeItIsSerializedAndNamesTheRuleSet() throws Exception {
    String basic = java.util.Base64.getEncoder().encodeToString("deploy:Zx9kP2qL7mW4".getBytes());
    String cookie = "Kq7Wm2Xz9Lp4Rt8Vn3Bc6Hd1";
    String question =
        "Why is the upload refused?\nAuthorization: Basic "
            + basic
            + "\nCookie: sessionid="
            + cookie
            + "\nSince commit 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b, note"
            + " 123e4567-e89b-12d3-a456-426614174000.";
    String id = RunId.next(Instant.now());
    var document = new java.util.LinkedHashMap<String, Object>();
    document.put("schema_version", TraceStore.AGENT_TRACE_VERSION);
    document.put("run_id", id);
    document.put("question", question);
    document.put("metrics", java.util.Map.of("duration_ms", 1, "artifact_bytes", 0));

    Path dir = store().writeRun(id, document, "# Run\n\n" + question + "\n").path();

    String json = Files.readString(dir.resolve("run.json"));
    var run = new ObjectMapper().readTree(json);
    // In the serialized file each line break is the two characters \n: the header at the start
    // of a line was missed when the redactor read the serialized JSON.
    assertThat(json).doesNotContain(basic).doesNotContain(cookie);
    assertThat(run.path("question").asText())
        .contains("\nAuthorization: [redacted]\nCookie: [redacted]\n")
        .contains("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b")
        .contains("123e4567-e89b-12d3-a456-426614174000");
    assertThat(Files.readString(dir.resolve("run.md"))).doesNotContain(basic, cookie);
    var redaction = run.path("redaction");
    assertThat(redaction.path("name").asText()).isEqualTo("gitleaks");
    assertThat(redaction.path("version").asText()).isEqualTo("v8.30.0-27-gb58d3f10");
    assertThat(redaction.path("commit").asText()).startsWith("b58d3f10");
    assertThat(redaction.path("rules").asInt()).isEqualTo(SecretRules.SHIPPED.source().rules());
    assertThat(run.path("metrics").path("artifact_bytes").asLong())
        .isEqualTo(
            Files.size(dir.resolve("run.json"))
                + Files.size(dir.resolve("run.md"))
                + Files.size(dir.resolve(".complete")));
  }

  @Test
  void aJsonMemberNamedLikeACredentialHasItsValueRemovedFromEveryFile() throws Exception {
    String value = "Zq8Jm2Lw9Rt4Xy6Vb1Nc" + "Kd5Hf7";
    String id = RunId.next(Instant.now());
    var document = new java.util.LinkedHashMap<String, Object>();
    document.put("schema_version", TraceStore.AGENT_TRACE_VERSION);
    document.put("run_id", id);
    document.put("question", "which tool failed?");
    document.put("tool_arguments", java.util.Map.of("api_key", value, "query", "espresso"));
    document.put("metrics", java.util.Map.of("duration_ms", 1, "artifact_bytes", 0));

    Path dir = store().writeRun(id, document, "| web_search | " + value + " |\n").path();

    String json = Files.readString(dir.resolve("run.json"));
    assertThat(json).doesNotContain(value).contains("espresso");
    assertThat(new ObjectMapper().readTree(json).path("tool_arguments").path("api_key").asText())
        .isEqualTo(Redactor.REDACTED);
    assertThat(Files.readString(dir.resolve("run.md"))).doesNotContain(value);
  }

  @Test
  void aSecretUsedAsAJsonMemberNameInASidecarIsRedactedAndTheNamesStayUnique() throws Exception {
    // A model's raw JSON output, saved as a sidecar, may use a token as a member name.
    String token = "ghp_" + "Zq8Jm2Lw9Rt4Xy6Vb1Nc" + "Kd5Hf7Ab3Ce0Gi4Jk8";
    String other = "ghp_" + "Pm3Qn7Rs1Tu5Vw9Xy2Za" + "Bc6De0Fg4Hi8Jk2Lm6";
    String planner =
        "{\"queries\": {\""
            + token
            + "\": \"first\", \""
            + other
            + "\": \"second\", \"plain\": \"third\"}}";
    String id = RunId.next(Instant.now());
    var document = new java.util.LinkedHashMap<String, Object>();
    document.put("schema_version", TraceStore.AGENT_TRACE_VERSION);
    document.put("run_id", id);
    document.put("question", "which plan?");
    document.put("metrics", java.util.Map.of("duration_ms", 1, "artifact_bytes", 0));

    Path dir =
        new TraceWriter(
                data.resolve(TraceStore.DIRECTORY),
                Redactor.of(data, List.of()),
                Json.newMapper().enable(SerializationFeature.INDENT_OUTPUT))
            .write(id, document, "# Run\n", java.util.Map.of("planner.json", planner))
            .path();

    String sidecar = Files.readString(dir.resolve("planner.json"));
    assertThat(sidecar).doesNotContain(token).doesNotContain(other);
    var queries = MAPPER.readTree(sidecar).path("queries");
    var names = new ArrayList<String>();
    queries.fieldNames().forEachRemaining(names::add);
    assertThat(names).containsExactly(Redactor.REDACTED, Redactor.REDACTED + "-2", "plain");
    assertThat(queries.path(Redactor.REDACTED + "-2").asText()).isEqualTo("second");
  }

  @Test
  void theRedactionRecordCountsNoRunawayPiecesForAnOrdinaryRun() throws Exception {
    String id = RunId.next(Instant.now());
    var document = new java.util.LinkedHashMap<String, Object>();
    document.put("schema_version", TraceStore.AGENT_TRACE_VERSION);
    document.put("run_id", id);
    document.put("question", "curl -u admin:Xk9mQ2vL8p https://h");
    document.put("metrics", java.util.Map.of("duration_ms", 1, "artifact_bytes", 0));

    Path dir = store().writeRun(id, document, "# Run\n").path();

    var run = MAPPER.readTree(Files.readString(dir.resolve("run.json")));
    assertThat(run.path("redaction").path("runaway").isInt()).isTrue();
    assertThat(run.path("redaction").path("runaway").asInt()).isZero();
    assertThat(run.path("question").asText()).doesNotContain("Xk9mQ2vL8p");
  }
}
