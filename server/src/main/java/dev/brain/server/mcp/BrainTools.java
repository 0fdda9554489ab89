package dev.brain.server.mcp;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.Brain;
import dev.brain.ResearchRequest;
import dev.brain.SearchRequest;
import dev.brain.index.RecordDetail;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.agent.AgentTool;
import dev.brain.research.agent.WorkerTools;
import dev.brain.research.json.Json;
import dev.brain.research.pack.CorpusMaps;
import dev.brain.research.pack.EntityMap;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.pack.TopicMap;
import dev.brain.retrieval.EvidenceRow;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.SearchResult;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * brain's read-only tools — research pack, search, get, get many, related, topic brief, topic map,
 * entities, entity, status — as functions of a JSON argument object. The one place where the MCP
 * server (and a local agent loop) calls into the core; every result is a {@link ToolOutput}: a JSON
 * object and a short text rendering of it. Nothing here writes to the corpus or records a trace.
 *
 * <p>Thread-safe: every call moves the read-only index to its latest commit and searches it.
 */
public final class BrainTools {
  private static final System.Logger LOG = System.getLogger(BrainTools.class.getName());
  private static final ObjectMapper JSON = Json.newMapper();
  static final TypeReference<Map<String, Object>> MAP_TYPE = new TypeReference<>() {};

  /** Most keys {@code brain_get_many} takes. */
  public static final int MAX_KEYS = 20;

  /** Longest content {@code brain_get} returns per call. */
  public static final int MAX_CONTENT_CHARS = 20_000;

  /** Default content size of {@code brain_get}. */
  static final int DEFAULT_CONTENT_CHARS = 4_000;

  /** Default content size per record of {@code brain_get_many}. */
  static final int DEFAULT_MANY_CONTENT_CHARS = 1_500;

  private final Brain brain;
  private final RecordContent content;

  /**
   * Tools over an open brain, usually opened read-only: the same calls the CLI and the web API
   * make.
   */
  public BrainTools(Brain brain) {
    this.brain = Objects.requireNonNull(brain, "brain");
    this.content = new RecordContent(brain);
  }

  /** Whether the writing tool {@code brain_research_note} is offered ({@code mcp.allow-writes}). */
  public boolean allowsWrites() {
    return brain.config().mcp().allowWrites();
  }

  /**
   * Whether the worker tools {@code brain_summarize} and {@code brain_extract} are offered: only
   * when {@code agent.worker-model} names a chat model (the agent's cheaper model for them).
   */
  public boolean hasWorker() {
    return workerSpec() != null;
  }

  private String workerSpec() {
    return brain.config().agent().workerSpec(null);
  }

  /** {@code brain_summarize}: the worker model's summary of a text, for a goal. */
  public ToolOutput summarize(Map<String, Object> arguments) {
    var args = new ToolArgs("brain_summarize", arguments, Set.of("text", "goal"));
    args.requiredString("text");
    args.string("goal");
    return worker("brain_summarize", arguments, WorkerTools::summarize);
  }

  /** {@code brain_extract}: fields of a text matching a JSON schema, by the worker model. */
  public ToolOutput extract(Map<String, Object> arguments) {
    var args = new ToolArgs("brain_extract", arguments, Set.of("text", "schema"));
    args.requiredString("text");
    return worker("brain_extract", arguments, WorkerTools::extract);
  }

  /** Runs one worker tool over the configured worker model; its failures are tool errors. */
  private ToolOutput worker(
      String name,
      Map<String, Object> arguments,
      java.util.function.BiFunction<ChatModel, WorkerTools.Budgets, AgentTool> tool) {
    String spec = workerSpec();
    if (spec == null) {
      throw new ToolInputException(
          "text", name + " is off; set agent.worker-model in brain.yaml to a chat model");
    }
    var budgets = brain.config().agent().workerBudgets();
    try {
      String json = tool.apply(brain.chatModel(spec), budgets).call(JSON.valueToTree(arguments));
      Map<String, Object> out = JSON.readValue(json, MAP_TYPE);
      return new ToolOutput(out, json);
    } catch (AgentTool.ToolFailure e) {
      throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(name + " was cancelled", e);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * {@code brain_research_note}: researches a note and writes its {@code ## Research} section — the
   * one writing tool, offered only with {@code mcp.allow-writes: true}. Refusals (not a text note,
   * outside the collections, edited meanwhile) are tool errors with the reason.
   */
  public ToolOutput researchNote(Map<String, Object> arguments) throws IOException {
    if (!allowsWrites()) {
      throw new ToolInputException(
          "path", "brain_research_note is off; set mcp.allow-writes: true in brain.yaml");
    }
    return NoteTool.research(brain, arguments);
  }

  /**
   * A tool's answer: the structured result and a concise text rendering of it.
   *
   * @param structured the JSON object (snake_case names, as the HTTP API writes them)
   * @param text a few lines for a reader or a client that ignores structured content
   */
  public record ToolOutput(Map<String, Object> structured, String text) {}

  /** {@code brain_research_pack}: the {@code research_pack.v1} of a question. */
  public ToolOutput researchPack(Map<String, Object> arguments) throws IOException {
    // The arguments are a pack request's JSON: read, checked and completed as the HTTP API's.
    new ToolArgs("brain_research_pack", arguments, Set.copyOf(ResearchRequest.PACK_FIELDS));
    ResearchRequest request = ToolRequests.read(arguments, ResearchRequest.class);
    request.validateForPack();
    refresh();
    ResearchPack pack = brain.pack(request).pack();
    return new ToolOutput(toMap(pack), ToolText.pack(pack));
  }

  /** {@code brain_search}: one fast retrieval (no planning) with lane provenance. */
  public ToolOutput search(Map<String, Object> arguments) throws IOException {
    // The arguments are a search request's JSON: read, checked and completed as the HTTP API's.
    new ToolArgs("brain_search", arguments, Set.copyOf(SearchRequest.FIELDS));
    SearchRequest request = ToolRequests.read(arguments, SearchRequest.class);
    try {
      request.validateForTool();
      refresh();
      SearchResult result = brain.search(request);
      return new ToolOutput(toMap(result), ToolText.search(result));
    } catch (InvalidSearchException e) {
      throw new ToolInputException(e.field(), e.getMessage());
    }
  }

  /** {@code brain_get}: one record with its text as an evidence window or in full. */
  public ToolOutput get(Map<String, Object> arguments) throws IOException {
    var args =
        new ToolArgs(
            "brain_get", arguments, Set.of("key", "content", "query", "max_chars", "offset"));
    String key = args.requiredString("key", ToolArgs.MAX_NAME_CHARS);
    var request = RecordContent.ContentRequest.of(args, DEFAULT_CONTENT_CHARS);
    refresh();
    RecordDetail detail = found(key);
    Map<String, Object> record = content.of(detail, request);
    return new ToolOutput(record, ToolText.record(record));
  }

  /** The record with this key, or the tool error that says which keys the text may mean. */
  private RecordDetail found(String key) throws IOException {
    Optional<RecordDetail> detail = brain.get(key);
    if (detail.isEmpty()) {
      throw new ToolInputException("key", brain.noRecordMessage(key));
    }
    return detail.get();
  }

  /** {@code brain_get_many}: up to {@value #MAX_KEYS} records; a bad key is an error of its own. */
  public ToolOutput getMany(Map<String, Object> arguments) throws IOException {
    var args =
        new ToolArgs("brain_get_many", arguments, Set.of("keys", "content", "query", "max_chars"));
    List<String> keys = args.strings("keys", MAX_KEYS);
    if (keys == null || keys.isEmpty()) {
      throw new ToolInputException(
          "keys", "brain_get_many needs 'keys': 1 to " + MAX_KEYS + " record keys");
    }
    var request = RecordContent.ContentRequest.of(args, DEFAULT_MANY_CONTENT_CHARS);
    refresh();
    var records = new ArrayList<Map<String, Object>>();
    var errors = new ArrayList<Map<String, Object>>();
    for (String key : new LinkedHashSet<>(keys)) {
      try {
        Optional<RecordDetail> detail = brain.get(key);
        if (detail.isEmpty()) {
          errors.add(RecordContent.error(key, "not_found", brain.noRecordMessage(key)));
        } else {
          records.add(content.of(detail.get(), request));
        }
      } catch (IllegalArgumentException e) {
        errors.add(RecordContent.error(key, "invalid", e.getMessage()));
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("records", records);
    out.put("errors", errors);
    return new ToolOutput(out, ToolText.many(records, errors));
  }

  /** {@code brain_related}: links, backlinks and the records nearest in meaning. */
  public ToolOutput related(Map<String, Object> arguments) throws IOException {
    var args = new ToolArgs("brain_related", arguments, Set.of("key", "limit", "include_similar"));
    String key = args.requiredString("key", ToolArgs.MAX_NAME_CHARS);
    Integer limitArg = args.integer("limit", 1, 50);
    int limit = limitArg == null ? 10 : limitArg;
    boolean similar = !Boolean.FALSE.equals(args.bool("include_similar"));
    refresh();
    Map<String, Object> out = RelatedRecords.of(brain, found(key), limit, similar);
    return new ToolOutput(out, ToolText.related(out));
  }

  /** {@code brain_topic_brief}: how the evidence on a broad topic hangs together. */
  public ToolOutput topicBrief(Map<String, Object> arguments) throws IOException {
    var args =
        new ToolArgs("brain_topic_brief", arguments, Set.of("topic", "source_types", "limit"));
    String topic = args.requiredString("topic", ResearchOptions.MAX_QUESTION_CHARS);
    var options = brain.researchOptions().withIncludeTopicBrief(true);
    List<String> types = args.strings("source_types", 32);
    if (types != null) {
      options = options.withSourceTypes(types);
    }
    Integer limit = args.integer("limit", 1, ResearchOptions.MAX_LIMIT);
    if (limit != null) {
      options = options.withLimit(limit);
    }
    refresh();
    ResearchPack pack = brain.pack(topic, options, null); // the brief is built, not planned
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("topic", topic);
    out.put(
        "evidence_keys", pack.evidence().stream().map(EvidenceRow::sourceKey).distinct().toList());
    if (pack.topicBrief() != null) {
      out.put("topic_brief", toMap(pack.topicBrief()));
    } else {
      out.put("note", "no evidence on this topic, so no brief; try other words or brain_search");
    }
    return new ToolOutput(out, ToolText.topicBrief(out, pack.topicBrief()));
  }

  /** Entity types {@code brain_entities} filters on. */
  static final List<String> ENTITY_TYPES =
      List.of("tag", "person", "site", "org", "project", "subject", "record");

  /** {@code brain_topic_map}: the collection's most used tags and how they connect. */
  public ToolOutput topicMap(Map<String, Object> arguments) throws IOException {
    var args = new ToolArgs("brain_topic_map", arguments, Set.of("topics"));
    Integer topics = args.integer("topics", 1, CorpusMaps.MAX_TOPICS);
    refresh();
    TopicMap map = brain.topicMap(topics == null ? CorpusMaps.DEFAULT_TOPICS : topics);
    return new ToolOutput(toMap(map), ToolText.topicMap(map));
  }

  /** {@code brain_entities}: who and what the records name, most named first. */
  public ToolOutput entities(Map<String, Object> arguments) throws IOException {
    var args = new ToolArgs("brain_entities", arguments, Set.of("type", "limit"));
    String type = args.string("type");
    if (type != null && !ENTITY_TYPES.contains(type)) {
      throw new ToolInputException(
          "type",
          "'type' must be one of " + String.join(", ", ENTITY_TYPES) + ", not '" + type + "'");
    }
    Integer limit = args.integer("limit", 1, 200);
    refresh();
    EntityMap map = brain.entities(type, limit == null ? 50 : limit);
    return new ToolOutput(toMap(map), ToolText.entities(map));
  }

  /** {@code brain_entity}: one entity with the records that name it. */
  public ToolOutput entity(Map<String, Object> arguments) throws IOException {
    var args = new ToolArgs("brain_entity", arguments, Set.of("id", "limit"));
    String id = args.requiredString("id", 300);
    Integer limit = args.integer("limit", 1, 100);
    refresh();
    EntityMap.Named named =
        brain
            .entity(id, limit == null ? 20 : limit)
            .orElseThrow(
                () ->
                    new ToolInputException(
                        "id",
                        "no entity '"
                            + id
                            + "' in the collection; ids look like tag:coffee, person:<name>,"
                            + " site:<domain> or a record key, and brain_entities lists them"));
    return new ToolOutput(toMap(named), ToolText.entity(named));
  }

  /** {@code brain_status}: what the corpus holds and how it is indexed. */
  public ToolOutput status(Map<String, Object> arguments) throws IOException {
    new ToolArgs("brain_status", arguments, Set.of());
    Map<String, Object> out = status();
    return new ToolOutput(out, ToolText.status(out));
  }

  /**
   * The corpus counts, model and index facts of {@code brain_status} and {@code brain://status}.
   */
  public Map<String, Object> status() throws IOException {
    refresh();
    return CorpusFacts.of(brain);
  }

  /** A record as {@code brain://record/{key}} serves it: its full text up to the cap. */
  public Optional<Map<String, Object>> recordResource(String key) throws IOException {
    refresh();
    Optional<RecordDetail> detail = brain.get(key);
    if (detail.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(content.of(detail.get(), RecordContent.full(MAX_CONTENT_CHARS)));
  }

  /** The index moved to the latest commit; a failure keeps the current view. */
  private void refresh() {
    try {
      brain.refresh();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "cannot refresh the index view; serving the previous one", e);
    }
  }

  static Map<String, Object> toMap(Object value) {
    return JSON.convertValue(value, MAP_TYPE);
  }
}
