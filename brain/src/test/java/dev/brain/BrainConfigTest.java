package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.VectorFormat;
import dev.brain.models.EmbeddingModel;
import dev.brain.research.run.PlannerPolicy;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.SearchOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrainConfigTest {

  @TempDir Path data;

  private BrainConfig load(String yaml, Map<String, String> env, List<BrainConfig.Flag> flags)
      throws IOException {
    if (yaml != null) {
      Files.writeString(data.resolve(BrainConfig.FILE), yaml);
    }
    return BrainConfig.load(data, env, flags);
  }

  private static BrainConfig.Setting setting(BrainConfig config, String key) {
    return config.settings().stream().filter(s -> s.key().equals(key)).findFirst().orElseThrow();
  }

  @Test
  void withoutFileEveryValueIsItsDefault() throws IOException {
    var config = load(null, Map.of(), List.of());

    assertThat(config.index().model()).isEqualTo(EmbeddingModel.BGE_SMALL_EN_V15);
    assertThat(config.index().vectorFormat()).isEqualTo(VectorFormat.FLOAT);
    assertThat(config.retrieval().fusion()).isEqualTo(FusionMode.RRF);
    assertThat(config.chat().model()).isEqualTo("extractive");
    assertThat(config.chat().plannerSpec()).isNull();
    assertThat(config.chat().saveTraces()).isTrue();
    assertThat(config.server().host()).isEqualTo("127.0.0.1");
    assertThat(config.server().port()).isEqualTo(8742);
    assertThat(config.server().token()).isNull();
    assertThat(config.traces().keepNewest()).isEqualTo(500);
    assertThat(config.traces().maxAge()).isEqualTo(Duration.ofDays(180));
    assertThat(config.settings()).allSatisfy(s -> assertThat(s.source()).isEqualTo("default"));
    assertThat(config.indexConfig().directory()).isEqualTo(data.resolve("index"));
  }

  @Test
  void theVectorFloorOfASearchIsASettingWithTheMeasuredDefault() throws IOException {
    assertThat(load(null, Map.of(), List.of()).retrieval().searchOptions().vectorFloor())
        .isEqualTo(SearchOptions.MEASURED_VECTOR_FLOOR);

    var config = load("retrieval:\n  vector-floor: 0\n", Map.of(), List.of());
    assertThat(config.retrieval().searchOptions().vectorFloor()).isZero();
    assertThat(setting(config, "retrieval.vector-floor").source()).endsWith("brain.yaml line 2");
    assertThatThrownBy(() -> load("retrieval:\n  vector-floor: 1.5\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("retrieval.vector-floor");
  }

  @Test
  void theEvidenceBudgetOfAnAnswerIsASettingThatRunsAndRequestsStartFrom() throws IOException {
    var config = load("research:\n  max-evidence-chars: 6000\n", Map.of(), List.of());
    assertThat(config.research().synthesis().maxEvidenceChars()).isEqualTo(6000);
    assertThat(setting(config, "research.max-evidence-chars").source())
        .endsWith("brain.yaml line 2");
    var request = ResearchRequest.of("espresso grind");
    assertThat(request.synthesisOptions(config.research().synthesis()).maxEvidenceChars())
        .isEqualTo(6000);
    assertThatThrownBy(() -> load("research:\n  max-evidence-chars: 10\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("research.max-evidence-chars");
  }

  @Test
  void fileThenEnvironmentThenFlagsEachWinAndSayWhereTheyCameFrom() throws IOException {
    String yaml =
        """
        # brain settings
        server:
          host: 127.0.0.2
          port: 9000
        chat:
          model: ollama/qwen3:8b
          save-traces: false
        retrieval:
          fusion: normalized
          weights:
            vector: 2.5
        traces:
          max-age: 30d
        """;
    var config =
        load(
            yaml,
            Map.of("BRAIN_SERVER_PORT", "9100", "BRAIN_MODEL", "openai/gpt-x"),
            List.of(new BrainConfig.Flag("server.port", "9200", "--port")));

    assertThat(config.server().host()).isEqualTo("127.0.0.2");
    assertThat(setting(config, "server.host").source()).endsWith("brain.yaml line 3");
    assertThat(config.server().port()).isEqualTo(9200);
    assertThat(setting(config, "server.port").source()).isEqualTo("flag --port");
    assertThat(config.chat().model()).isEqualTo("openai/gpt-x");
    assertThat(setting(config, "chat.model").source()).isEqualTo("env BRAIN_MODEL");
    assertThat(config.chat().plannerSpec()).isEqualTo("openai/gpt-x");
    assertThat(config.retrieval().fusion()).isEqualTo(FusionMode.NORMALIZED);
    assertThat(config.retrieval().weights()).containsEntry(Lane.VECTOR, 2.5);
    assertThat(config.chat().saveTraces()).isFalse();
    assertThat(setting(config, "chat.save-traces").source()).endsWith("brain.yaml line 7");
    assertThat(setting(config, "retrieval.weights.vector").source()).endsWith("line 11");
    assertThat(config.retrieval().searchOptions().weight(Lane.VECTOR)).isEqualTo(2.5);
    assertThat(config.traces().retention().maxAge()).isEqualTo(Duration.ofDays(30));
  }

  @Test
  void theEmbeddedBackendIsTheDefaultAndSolrIsConfiguredUnderIndexSolr() throws IOException {
    var defaults = load(null, Map.of(), List.of());
    assertThat(defaults.index().backend()).isEqualTo(IndexSettings.BackendKind.EMBEDDED);
    assertThat(setting(defaults, "index.backend").value()).isEqualTo("embedded");

    var config =
        load(
            "index:\n  backend: solr\n  solr:\n    url: http://a:8983/solr, http://b:8983/solr\n"
                + "    collection: team\n    shards: 4\n",
            Map.of("BRAIN_SOLR_COLLECTION", "notes"),
            List.of());

    var solr = config.index().solr().toSolrConfig();
    assertThat(config.index().backend()).isEqualTo(IndexSettings.BackendKind.SOLR);
    assertThat(solr.urls()).containsExactly("http://a:8983/solr", "http://b:8983/solr");
    assertThat(solr.collection()).isEqualTo("notes");
    assertThat(solr.shards()).isEqualTo(4);
    assertThat(solr.replicas()).isEqualTo(2);
    assertThat(setting(config, "index.solr.collection").source())
        .isEqualTo("env BRAIN_SOLR_COLLECTION");
    assertThat(setting(config, "index.solr.shards").source()).endsWith("brain.yaml line 6");
  }

  @Test
  void thePlannerPolicyAndTheReviewModelAreResearchSettings() throws IOException {
    var defaults = load(null, Map.of(), List.of());
    assertThat(defaults.research().budgets().plannerPolicy()).isEqualTo(PlannerPolicy.AUTO);
    assertThat(defaults.research().reviewSpec()).isNull();

    var config =
        load(
            "research:\n  planner-policy: always\n  review-model: ollama/qwen3:8b\n",
            Map.of(),
            List.of());
    assertThat(config.research().budgets().plannerPolicy()).isEqualTo(PlannerPolicy.ALWAYS);
    assertThat(config.research().reviewSpec()).isEqualTo("ollama/qwen3:8b");
    assertThat(setting(config, "research.planner-policy").value()).isEqualTo("always");

    assertThatThrownBy(() -> load("research:\n  planner-policy: often\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("research.planner-policy = 'often'")
        .hasMessageContaining("auto, always");
    assertThatThrownBy(() -> load("research:\n  review-model: gpt4\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("research.review-model = 'gpt4'");
  }

  @Test
  void theSummaryModelIsAnIndexSettingOnTheChatServers() throws IOException {
    assertThat(load(null, Map.of(), List.of()).indexConfig().summaryModel()).isNull();
    assertThat(
            load("index:\n  summary-model: extractive\n", Map.of(), List.of())
                .indexConfig()
                .summaryModel())
        .isNull();

    var config =
        load(
            "index:\n  summary-model: openai/qwen3-4b\n  summary-retry-backoff: 5m\n"
                + "chat:\n  openai-url: http://127.0.0.1:9999/v1\n",
            Map.of(),
            List.of());
    var model = config.indexConfig().summaryModel();
    assertThat(model.spec()).isEqualTo("openai/qwen3-4b");
    assertThat(model.servers().openAiUrl()).hasToString("http://127.0.0.1:9999/v1");
    assertThat(model.retryBackoff()).isEqualTo(Duration.ofMinutes(5));
    assertThat(setting(config, "index.summary-model").value()).isEqualTo("openai/qwen3-4b");

    assertThatThrownBy(() -> load("index:\n  summary-model: gpt4\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("index.summary-model = 'gpt4'");
  }

  @Test
  void secretsAreNeverShown() throws IOException {
    var config =
        load("server:\n  token: s3cret\n", Map.of("BRAIN_OPENAI_API_KEY", "sk-abc"), List.of());

    assertThat(config.server().token()).isEqualTo("s3cret");
    assertThat(config.chat().apiKey()).isEqualTo("sk-abc");
    assertThat(setting(config, "server.token").value()).isEqualTo("(set)");
    assertThat(config.settings().toString()).doesNotContain("s3cret", "sk-abc");
    assertThat(config.toString()).doesNotContain("s3cret", "sk-abc");
  }

  @Test
  void aPassphraseTokenOutsideTheBearerCharactersIsStillAccepted() throws IOException {
    var fromFile = load("server:\n  token: \"Tr0ub4dor&3!horse\"\n", Map.of(), List.of());
    assertThat(fromFile.server().token()).isEqualTo("Tr0ub4dor&3!horse");
    assertThat(ServerSettings.isBearerToken(fromFile.server().token())).isFalse();
    var fromEnv =
        load(null, Map.of("BRAIN_SERVER_TOKEN", "correct horse battery staple"), List.of());
    assertThat(fromEnv.server().token()).isEqualTo("correct horse battery staple");
  }

  @Test
  void aTokenThatCouldBreakAHeaderIsRefusedWithTheReason() {
    for (String token : List.of("two\nlines", "tab\there", "quo\"te", "back\\slash", "del\u007f")) {
      assertThatThrownBy(() -> load(null, Map.of("BRAIN_SERVER_TOKEN", token), List.of()))
          .as(token)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("server.token")
          .hasMessageContaining("control characters")
          .message()
          .doesNotContain(token);
    }
  }

  @Test
  void badValueNamesFileLineKeyAndAllowedValues() {
    assertThatThrownBy(() -> load("index:\n  vector-format: int16\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml line 2")
        .hasMessageContaining("index.vector-format = 'int16'")
        .hasMessageContaining("allowed: float, int8, int4");
  }

  @Test
  void agentHookRulesAreReadAndABadRuleNamesKeyAndLine() throws Exception {
    var config =
        load(
            "agent:\n  hooks:\n    halt: brain_get_many, brain_search:(?i)password\n"
                + "    set: brain_search.limit=3\n",
            Map.of(),
            List.of());
    assertThat(config.agent().hookHalt()).isEqualTo("brain_get_many, brain_search:(?i)password");
    assertThat(config.agent().hooks().isEmpty()).isFalse();
    assertThat(setting(config, "agent.hooks.set").source()).endsWith("brain.yaml line 4");

    assertThatThrownBy(
            () -> load("agent:\n  hooks:\n    halt: brain_search:([\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml line 3")
        .hasMessageContaining("agent.hooks.halt = 'brain_search:(['")
        .hasMessageContaining("invalid pattern")
        .hasMessageContaining("allowed: comma-separated TOOL or TOOL:REGEX");
    assertThatThrownBy(
            () -> load("agent:\n  hooks:\n    set: brain_search=3\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml line 3")
        .hasMessageContaining("is not TOOL.ARG=VALUE");
  }

  @Test
  void outOfRangeNumberSaysTheRange() {
    assertThatThrownBy(() -> load("server:\n  port: 70000\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("server.port = '70000' is out of range")
        .hasMessageContaining("a whole number from 0 to 65535");
  }

  @Test
  void badEnvironmentValueNamesTheVariable() {
    assertThatThrownBy(() -> load(null, Map.of("BRAIN_MODEL", "gpt-4"), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageStartingWith("env BRAIN_MODEL: chat.model = 'gpt-4'")
        .hasMessageContaining("extractive, ollama/<model>, openai/<model>");
  }

  @Test
  void unknownKeyListsTheKeysOfItsSection() {
    assertThatThrownBy(() -> load("server:\n  host: ::1\n  prot: 1\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml line 3: unknown key 'server.prot'")
        .hasMessageContaining("server.port");
  }

  @Test
  void theCollectionsSectionThatBrainAddWritesIsNoUnknownKey() throws Exception {
    var config =
        load(
            "server:\n  port: 9000\ncollections:\n  - name: notes\n    root: /tmp/notes\n"
                + "    excludes: [drafts/]\n",
            Map.of(),
            List.of());
    assertThat(config.server().port()).isEqualTo(9000);
  }

  @Test
  void theCollectionsSectionIsTypedAndShownWithItsLines() throws Exception {
    Path notes = Files.createDirectories(data.resolve("notes"));
    var config =
        load(
            "server:\n  port: 9000\n# my folders\ncollections:\n  - name: \"notes\"\n"
                + "    root: \""
                + notes
                + "\"\n    excludes: [\"drafts/\"]\n  - name: papers\n    root: /tmp/papers\n"
                + "    max_file_mb: 2\nretrieval:\n  limit: 7\n",
            Map.of(),
            List.of());
    var roots = config.collections().roots();
    assertThat(roots).extracting(c -> c.name()).containsExactly("notes", "papers");
    assertThat(roots.get(0).root()).isEqualTo(notes.toAbsolutePath().normalize());
    assertThat(roots.get(0).excludes()).containsExactly("drafts/");
    assertThat(roots.get(1).maxFileBytes()).isEqualTo(2L << 20);
    assertThat(config.collections().named("papers")).contains(roots.get(1));
    assertThat(config.retrieval().limit()).isEqualTo(7);

    var shown = setting(config, "collections.notes");
    assertThat(shown.value()).isEqualTo(notes.toAbsolutePath() + " (excludes drafts/)");
    assertThat(shown.source()).endsWith("brain.yaml line 5");
    var papers = setting(config, "collections.papers");
    assertThat(papers.value()).isEqualTo("/tmp/papers (max 2 MB per file)");
    assertThat(papers.source()).endsWith("brain.yaml line 8");
  }

  @Test
  void noFileOrNoSectionMeansNoCollections() throws Exception {
    assertThat(load(null, Map.of(), List.of()).collections().roots()).isEmpty();
    assertThat(load("server:\n  port: 9000\n", Map.of(), List.of()).collections().roots())
        .isEmpty();
    assertThat(BrainConfig.defaults(data).collections().roots()).isEmpty();
  }

  @Test
  void aMalformedCollectionsEntryIsAConfigErrorNamingIt() {
    assertThatThrownBy(
            () -> load("collections:\n  - name: notes\n  - root: /tmp/x\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml: collection 1 needs a 'name' and a 'root'");
  }

  @Test
  void theOldServerModelKeySaysWhereItMoved() {
    assertThatThrownBy(() -> load("server:\n  model: ollama/x\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("'server.model' is now 'chat.model'");
  }

  @Test
  void invalidYamlGivesLineAndColumn() {
    assertThatThrownBy(() -> load("server:\n  port: 1\n   host: x\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml line 3, column")
        .hasMessageContaining("not valid YAML");
  }

  @Test
  void sectionGivenAValueIsRefused() {
    assertThatThrownBy(() -> load("server:\n  port:\n    a: 1\n", Map.of(), List.of()))
        .isInstanceOf(BrainConfigException.class)
        .hasMessageContaining("brain.yaml line 2: 'server.port' takes a value");
  }

  @Test
  void anEvaluationOfTheBackendGetsItsOwnSolrCollectionAndKeepsTheUsersOne() throws IOException {
    BrainConfig config =
        load(
            "index:\n  backend: solr\n  solr:\n    url: http://127.0.0.1:8983/solr\n"
                + "    collection: notes\n",
            Map.of(),
            List.of());
    var index = config.index().withIndexing(VectorFormat.INT8, 128, 16);

    BrainConfig eval = config.forBackendEvaluation(data.resolve("eval"), "scifact", index);

    assertThat(eval.index().backend()).isEqualTo(IndexSettings.BackendKind.SOLR);
    assertThat(eval.index().solr().collection()).isEqualTo("notes-eval-scifact");
    assertThat(eval.indexConfig().vectorFormat()).isEqualTo(VectorFormat.INT8);
    assertThat(eval.indexConfig().chunkMaxTokens()).isEqualTo(128);
    assertThat(eval.indexConfig().chunkOverlapTokens()).isEqualTo(16);
    assertThat(config.index().solr().collection()).isEqualTo("notes");
    assertThat(config.forEvaluation(data.resolve("eval")).index().backend())
        .isEqualTo(IndexSettings.BackendKind.EMBEDDED);
  }

  @Test
  void anEvaluationOfTheEmbeddedBackendIndexesUnderItsOwnFolder() throws IOException {
    BrainConfig config = load("", Map.of(), List.of());

    BrainConfig eval = config.forBackendEvaluation(data.resolve("eval"), "scifact", config.index());

    assertThat(eval.indexConfig().directory()).isEqualTo(data.resolve("eval").resolve("index"));
    assertThat(config.indexConfig().directory()).isEqualTo(data.resolve("index"));
  }
}
