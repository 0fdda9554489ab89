package dev.brain.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What every MCP transport of brain must do for a client of the MCP Java SDK: list the tools,
 * prompt and resources, and answer every tool valid and invalid calls — over the sample vault.
 * Subclasses connect the client (stdio to a child {@code brain mcp}, HTTP to a real server).
 */
abstract class BaseMcpClientTestCase {

  static final Set<String> TOOLS =
      Set.of(
          "brain_research_pack",
          "brain_search",
          "brain_get",
          "brain_get_many",
          "brain_related",
          "brain_topic_brief",
          "brain_topic_map",
          "brain_entities",
          "brain_entity",
          "brain_status");

  /** The connected, initialized client. */
  abstract McpSyncClient client();

  /** The data directory the server reads. */
  abstract Path data();

  CallToolResult call(String tool, Map<String, Object> arguments) {
    return client().callTool(CallToolRequest.builder(tool).arguments(arguments).build());
  }

  /** The structured result of a successful call. */
  @SuppressWarnings("unchecked")
  Map<String, Object> ok(String tool, Map<String, Object> arguments) {
    CallToolResult result = call(tool, arguments);
    assertThat(result.isError()).as("%s failed: %s", tool, text(result)).isNotEqualTo(true);
    assertThat(text(result)).isNotBlank();
    return (Map<String, Object>) result.structuredContent();
  }

  /** The message of a call that must fail as a tool error. */
  String toolError(String tool, Map<String, Object> arguments) {
    CallToolResult result = call(tool, arguments);
    assertThat(result.isError()).as("%s should fail with %s", tool, arguments).isTrue();
    String text = text(result);
    assertThat(text).isNotBlank().doesNotContain("Exception").doesNotContain("\tat ");
    return text;
  }

  static McpSchema.ReadResourceRequest read(String uri) {
    return McpSchema.ReadResourceRequest.builder(uri).build();
  }

  static McpSchema.GetPromptRequest prompt(Map<String, Object> arguments) {
    return McpSchema.GetPromptRequest.builder("brain_research").arguments(arguments).build();
  }

  static String text(CallToolResult result) {
    return result.content().stream()
        .filter(c -> c instanceof McpSchema.TextContent)
        .map(c -> ((McpSchema.TextContent) c).text())
        .collect(Collectors.joining("\n"));
  }

  @SuppressWarnings("unchecked")
  List<String> searchKeys(String query, int limit) {
    var rows =
        (List<Map<String, Object>>)
            ok("brain_search", Map.of("query", query, "limit", limit)).get("rows");
    return rows.stream().map(r -> (String) r.get("source_key")).toList();
  }

  @Test
  void listsTheReadOnlyToolsWithBothSchemas() {
    var tools = client().listTools().tools();
    assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrderElementsOf(TOOLS);
    for (var tool : tools) {
      assertThat(tool.annotations().readOnlyHint()).as(tool.name()).isTrue();
      assertThat(tool.annotations().idempotentHint()).as(tool.name()).isTrue();
      assertThat(tool.annotations().destructiveHint()).as(tool.name()).isFalse();
      assertThat(tool.inputSchema()).as(tool.name()).isNotNull();
      assertThat(tool.outputSchema()).as(tool.name()).containsEntry("type", "object");
      assertThat(tool.description()).as(tool.name()).isNotBlank().hasSizeLessThan(600);
    }
    assertThat(tools)
        .filteredOn(
            t -> Set.of("brain_get", "brain_related", "brain_research_pack").contains(t.name()))
        .allSatisfy(
            t ->
                assertThat(t.description())
                    .contains("note:", "src:<12 hex>", "bm:", "feed-entry:", "doc:"));
  }

  @Test
  void listsTheResearchPromptAndTheResources() {
    var prompts = client().listPrompts().prompts();
    assertThat(prompts).extracting(McpSchema.Prompt::name).containsExactly("brain_research");
    assertThat(prompts.get(0).arguments())
        .singleElement()
        .satisfies(a -> assertThat(a.required()).isTrue());
    assertThat(client().listResources().resources())
        .extracting(McpSchema.Resource::uri)
        .containsExactly("brain://status");
    assertThat(client().listResourceTemplates().resourceTemplates())
        .extracting(McpSchema.ResourceTemplate::uriTemplate)
        .containsExactly("brain://record/{key}");
  }

  @Test
  void theServerReportsBrainsRealVersion() {
    var info = client().getServerInfo();
    assertThat(info.name()).isEqualTo("brain");
    assertThat(info.version())
        .isEqualTo(dev.brain.server.BuildInfo.current().version())
        .isNotEqualTo("dev");
  }

  @Test
  void instructionsDescribeTheCorpusAndTheKeyFormats() {
    String instructions = client().getServerInstructions();
    assertThat(instructions)
        .containsPattern("\\d+ records \\(note \\d+")
        .contains("note:<collection>/<path>");
  }

  @Test
  @SuppressWarnings("unchecked")
  void researchPackReturnsThePackWithRealKeysAndWritesNothing() {
    var pack = ok("brain_research_pack", Map.of("question", "espresso grind size", "limit", 4));
    assertThat(pack).containsEntry("schema_version", "research_pack.v1");
    var evidence = (List<Map<String, Object>>) pack.get("evidence");
    assertThat(evidence).isNotEmpty().hasSizeLessThanOrEqualTo(4);
    String top = (String) evidence.get(0).get("source_key");
    var fetched = ok("brain_get", Map.of("key", top, "content", "none"));
    assertThat(fetched).containsEntry("key", top);
    // MCP never synthesizes and never writes traces: the data directory holds the index only.
    assertThat(McpTestData.entries(data())).containsExactly("index");
  }

  @Test
  void researchPackRefusesBadArguments() {
    assertThat(toolError("brain_research_pack", Map.of("question", "  "))).contains("question");
    assertThat(toolError("brain_research_pack", Map.of("question", "coffee", "limit", 0)))
        .contains("limit");
    assertThat(toolError("brain_research_pack", Map.of("question", "coffee", "colour", "red")))
        .contains("colour");
    assertThat(
            toolError(
                "brain_research_pack",
                Map.of("question", "coffee", "source_types", List.of("fax"))))
        .contains("fax");
    toolError("brain_research_pack", Map.of());
  }

  @Test
  @SuppressWarnings("unchecked")
  void searchRanksRowsWithLaneProvenance() {
    var result =
        ok("brain_search", Map.of("query", "espresso", "limit", 3, "lanes", List.of("bm25")));
    var rows = (List<Map<String, Object>>) result.get("rows");
    assertThat(rows).isNotEmpty().hasSizeLessThanOrEqualTo(3);
    assertThat(rows.get(0)).containsKeys("source_key", "retrieval", "excerpt");
  }

  @Test
  @SuppressWarnings("unchecked")
  void aOneHitSearchReturnsItsHitAndSaysHowManyWeakRowsWereLeftOut() {
    var result = call("brain_search", Map.of("query", "backflush"));
    var structured = (Map<String, Object>) result.structuredContent();
    var rows = (List<Map<String, Object>>) structured.get("rows");
    assertThat(rows).extracting(r -> r.get("source_key")).containsExactly("src:bcd60653c442");
    assertThat(structured.get("weak_rows_left_out")).isEqualTo(9);
    assertThat(((McpSchema.TextContent) result.content().get(0)).text())
        .contains("9 weaker rows left out: found by meaning alone");
  }

  @Test
  void searchRefusesBadArguments() {
    toolError("brain_search", Map.of("query", ""));
    toolError("brain_search", Map.of("query", "coffee", "lanes", List.of("telepathy")));
    assertThat(toolError("brain_search", Map.of("query", "coffee", "since", "yesterday")))
        .contains("since");
    toolError("brain_search", Map.of("query", "coffee", "limit", "ten"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void getReturnsAnEvidenceWindowOrTheFullTextCapped() {
    String key = searchKeys("espresso recipe", 1).get(0);
    var window = ok("brain_get", Map.of("key", key, "query", "grind", "max_chars", 200));
    assertThat(window).containsEntry("content_mode", "evidence");
    assertThat((String) window.get("content")).isNotBlank().hasSizeLessThanOrEqualTo(260);
    var full = ok("brain_get", Map.of("key", key, "content", "full", "max_chars", 100));
    assertThat((String) full.get("content")).hasSizeLessThanOrEqualTo(100);
    assertThat(full).containsEntry("truncated", true).containsEntry("content_end", 100);
    var next =
        ok("brain_get", Map.of("key", key, "content", "full", "offset", 100, "max_chars", 100));
    assertThat(next).containsEntry("content_start", 100);
    assertThat((List<String>) full.get("tags")).isNotNull();
  }

  @Test
  void getReturnsTheSummaryALongNoteWasGivenAtIndexTime() {
    var plan = ok("brain_get", Map.of("key", "note:vault/running/Berlin Marathon 2024 plan.md"));
    assertThat((String) plan.get("summary")).contains("Outline:", "- Structure: ");
  }

  @Test
  void getRefusesUnknownKeysAndBadModes() {
    assertThat(toolError("brain_get", Map.of("key", "note:nowhere/nothing.md")))
        .contains("no record with key 'note:nowhere/nothing.md'");
    assertThat(toolError("brain_get", Map.of("key", "note:x.md", "content", "evidence")))
        .contains("query");
    toolError("brain_get", Map.of("key", "note:x.md", "content", "everything"));
    toolError("brain_get", Map.of("key", "note:x.md", "max_chars", 50_000));
    toolError("brain_get", Map.of());
  }

  @Test
  @SuppressWarnings("unchecked")
  void getManyReturnsRecordsAndPerKeyErrors() {
    var keys = new ArrayList<>(searchKeys("coffee", 2));
    keys.add("note:nowhere/nothing.md");
    var result = ok("brain_get_many", Map.of("keys", keys, "query", "coffee", "max_chars", 300));
    var records = (List<Map<String, Object>>) result.get("records");
    var errors = (List<Map<String, Object>>) result.get("errors");
    assertThat(records).extracting(r -> r.get("key")).containsExactlyElementsOf(keys.subList(0, 2));
    assertThat(errors)
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e)
                  .containsEntry("key", "note:nowhere/nothing.md")
                  .containsEntry("code", "not_found");
            });
  }

  @Test
  void getManyRefusesMoreThanTwentyKeysOrNone() {
    var keys = IntStream.range(0, 21).mapToObj(i -> "note:k" + i + ".md").toList();
    toolError("brain_get_many", Map.of("keys", keys));
    toolError("brain_get_many", Map.of("keys", List.of()));
    toolError("brain_get_many", Map.of());
  }

  @Test
  @SuppressWarnings("unchecked")
  void relatedListsLinksBacklinksAndNearestInMeaning() {
    var result = ok("brain_related", Map.of("key", "note:vault/coffee/Coffee.md", "limit", 5));
    assertThat((List<Map<String, Object>>) result.get("links")).isNotEmpty();
    assertThat((List<Map<String, Object>>) result.get("similar"))
        .isNotEmpty()
        .noneMatch(n -> "note:vault/coffee/Coffee.md".equals(n.get("key")));
    assertThat(result).containsEntry("similar_status", "used");
  }

  @Test
  void relatedRefusesUnknownKeys() {
    assertThat(toolError("brain_related", Map.of("key", "src:000000000000")))
        .contains("src:000000000000");
    toolError("brain_related", Map.of("key", "note:vault/coffee/Coffee.md", "limit", 500));
  }

  @Test
  @SuppressWarnings("unchecked")
  void topicBriefDescribesTheGraphOfABroadTopic() {
    var result = ok("brain_topic_brief", Map.of("topic", "coffee"));
    assertThat((List<String>) result.get("evidence_keys")).isNotEmpty();
    assertThat((Map<String, Object>) result.get("topic_brief"))
        .containsKeys("summary", "pivots", "nodes");
    toolError("brain_topic_brief", Map.of("topic", ""));
    toolError("brain_topic_brief", Map.of("subject", "coffee"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void topicMapListsTheMostUsedTagsAndHowTheyConnect() {
    var map = ok("brain_topic_map", Map.of("topics", 6));
    var topics = (List<Map<String, Object>>) map.get("topics");
    assertThat(topics).hasSize(6);
    List<Long> counts = topics.stream().map(t -> ((Number) t.get("records")).longValue()).toList();
    assertThat(counts).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    assertThat(((Number) map.get("records")).longValue()).isGreaterThan(counts.get(0));
    // Every topic's records carry its tag, so a topic's co-tags are real tags of its records.
    for (var t : topics) {
      assertThat((List<Map<String, Object>>) t.get("top_records")).as("%s", t).isNotEmpty();
      assertThat((List<Map<String, Object>>) t.get("co_tags"))
          .allSatisfy(c -> assertThat(c.get("tag")).isNotEqualTo(t.get("tag")));
    }
    // The sample vault's most used tag is #coffee (13 records): its espresso notes carry
    // #home-espresso too, and its notes link to the grinder note most.
    var coffee = topics.get(0);
    assertThat(coffee).containsEntry("tag", "coffee").containsEntry("records", 13);
    assertThat((List<Map<String, Object>>) coffee.get("co_tags"))
        .first()
        .satisfies(c -> assertThat(c).containsEntry("tag", "home-espresso"));
    assertThat((List<Map<String, Object>>) coffee.get("links_to"))
        .first()
        .satisfies(l -> assertThat(l).containsEntry("key", "note:vault/coffee/Niche Zero.md"));
    assertThat(topics).anySatisfy(t -> assertThat((List<String>) t.get("headings")).isNotEmpty());
    var connections = (List<Map<String, Object>>) map.get("connections");
    assertThat(connections).isNotEmpty();
    var tags = topics.stream().map(t -> t.get("tag")).toList();
    assertThat(connections).allSatisfy(c -> assertThat(tags).contains(c.get("from"), c.get("to")));
    assertThat(toolError("brain_topic_map", Map.of("topics", 0))).contains("topics");
    assertThat(toolError("brain_topic_map", Map.of("topics", "six"))).contains("topics");
    assertThat(toolError("brain_topic_map", Map.of("tags", 3))).contains("tags");
  }

  @Test
  @SuppressWarnings("unchecked")
  void entitiesNameTagsPeopleAndLinkedRecordsWithTheRecordsNamingThem() {
    var all = ok("brain_entities", Map.of("limit", 200));
    var entities = (List<Map<String, Object>>) all.get("entities");
    assertThat(entities).extracting(e -> e.get("type")).contains("tag", "person", "record");
    var people =
        (List<Map<String, Object>>) ok("brain_entities", Map.of("type", "person")).get("entities");
    assertThat(people).isNotEmpty().allSatisfy(e -> assertThat(e.get("type")).isEqualTo("person"));
    assertThat(people).extracting(e -> e.get("id")).contains("person:Steven Levy");

    var levy = ok("brain_entity", Map.of("id", "person:Steven Levy"));
    assertThat(levy).containsEntry("relation", "authored_by");
    assertThat((List<Map<String, Object>>) levy.get("records"))
        .extracting(r -> r.get("key"))
        .contains("note:vault/reading/Hackers.md");

    var coffee = ok("brain_entity", Map.of("id", "tag:coffee", "limit", 100));
    var coffeeKeys =
        ((List<Map<String, Object>>) coffee.get("records"))
            .stream().map(r -> r.get("key")).toList();
    assertThat(coffeeKeys).contains("note:vault/coffee/Coffee.md");
    assertThat(((Number) coffee.get("total")).intValue()).isEqualTo(coffeeKeys.size());

    var linked = ok("brain_entity", Map.of("id", "note:vault/coffee/Niche Zero.md"));
    assertThat(linked).containsEntry("relation", "links_to");
    assertThat((List<Map<String, Object>>) linked.get("records")).isNotEmpty();

    assertThat(toolError("brain_entity", Map.of("id", "person:Nobody Atall")))
        .contains("no entity 'person:Nobody Atall'");
    assertThat(toolError("brain_entity", Map.of("id", ""))).contains("id");
    assertThat(toolError("brain_entity", Map.of("name", "coffee"))).contains("name");
    assertThat(toolError("brain_entities", Map.of("type", "planet"))).contains("type");
    assertThat(toolError("brain_entities", Map.of("limit", 1000))).contains("limit");
  }

  @Test
  @SuppressWarnings("unchecked")
  void statusCountsTheCorpus() {
    var status = ok("brain_status", Map.of());
    assertThat(((Number) status.get("records")).longValue()).isPositive();
    assertThat((Map<String, Object>) status.get("by_source_type")).containsKey("note");
    assertThat((Map<String, Object>) status.get("index"))
        .containsEntry("embedding_model", "bge-small-en-v1.5");
    toolError("brain_status", Map.of("verbose", true));
  }

  @Test
  void resourcesServeStatusAndRecordsByKey() {
    var status = client().readResource(read("brain://status"));
    assertThat(((McpSchema.TextResourceContents) status.contents().get(0)).text())
        .contains("\"records\"");
    var record = client().readResource(read("brain://record/note:vault/coffee/Coffee.md"));
    assertThat(((McpSchema.TextResourceContents) record.contents().get(0)).text())
        .contains("\"key\":\"note:vault/coffee/Coffee.md\"");
    var encoded = client().readResource(read("brain://record/note%3Avault%2Fcoffee%2FCoffee.md"));
    assertThat(((McpSchema.TextResourceContents) encoded.contents().get(0)).text())
        .contains("\"key\":\"note:vault/coffee/Coffee.md\"");
    assertThatThrownBy(() -> client().readResource(read("brain://record/note:nowhere.md")))
        .isInstanceOf(McpError.class)
        .hasMessageContaining("note:nowhere.md");
  }

  @Test
  void promptTellsTheAgentHowToResearch() {
    var prompt = client().getPrompt(prompt(Map.of("question", "how do I dial in espresso?")));
    String text = ((McpSchema.TextContent) prompt.messages().get(0).content()).text();
    assertThat(text)
        .contains(
            "how do I dial in espresso?",
            "brain_research_pack",
            "brain_get_many",
            "record key in brackets",
            "weak");
    assertThatThrownBy(() -> client().getPrompt(prompt(Map.of()))).isInstanceOf(McpError.class);
  }
}
