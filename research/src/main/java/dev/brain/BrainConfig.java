package dev.brain;

import dev.brain.chunking.Chunker;
import dev.brain.index.IndexConfig;
import dev.brain.index.VectorFormat;
import dev.brain.models.EmbeddingModel;
import dev.brain.models.chat.ChatConfig;
import dev.brain.models.chat.ChatModels;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.run.RunBudgets;
import dev.brain.research.trace.RetentionPolicy;
import dev.brain.retrieval.FusionMode;
import dev.brain.retrieval.Lane;
import dev.brain.retrieval.SearchOptions;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * brain's one configuration: a record per section, each value with its default documented beside
 * it. {@link #load(Path)} reads {@code <data>/brain.yaml} (Helidon Config), then environment
 * variables, then CLI flags (each wins over the one before) and remembers where every value came
 * from ({@link #settings()}, printed by {@code brain config}).
 *
 * <pre>{@code
 * # <data>/brain.yaml
 * chat:
 *   model: ollama/qwen3:8b
 * server:
 *   port: 9000
 * }</pre>
 *
 * The {@code collections} section is written by {@code brain add} and {@code brain remove} alone.
 *
 * @param dataDir the data directory: index, traces and {@code brain.yaml}
 * @param index how the index is built
 * @param retrieval defaults of a search
 * @param research defaults and budgets of a research pack and run
 * @param chat the chat model of the planner and the answer, and where model servers are
 * @param server the web server
 * @param traces how long research traces are kept
 * @param agent the agent loop: controller and worker models, budgets, tool policy
 * @param note note research ({@code brain note research}): the web search provider and the pool
 * @param mcp the MCP server: whether its one writing tool is offered
 * @param collections the folders {@code brain add} remembered
 * @param settings every value, where it came from, in file order
 */
public record BrainConfig(
    Path dataDir,
    Index index,
    Retrieval retrieval,
    Research research,
    Chat chat,
    Server server,
    Traces traces,
    Agent agent,
    Note note,
    Mcp mcp,
    Collections collections,
    List<Setting> settings) {

  /** The configuration file's name inside the data directory. */
  public static final String FILE = "brain.yaml";

  public BrainConfig {
    Objects.requireNonNull(dataDir, "dataDir");
    dataDir = dataDir.toAbsolutePath().normalize();
    Objects.requireNonNull(index, "index");
    Objects.requireNonNull(retrieval, "retrieval");
    Objects.requireNonNull(research, "research");
    Objects.requireNonNull(chat, "chat");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(traces, "traces");
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(note, "note");
    Objects.requireNonNull(mcp, "mcp");
    Objects.requireNonNull(collections, "collections");
    settings = settings == null ? List.of() : List.copyOf(settings);
  }

  /**
   * One configuration value and where it came from.
   *
   * @param key the dotted key, e.g. {@code server.port}
   * @param value the value as shown to the user (secrets as {@code (set)})
   * @param source {@code default}, {@code <file> line N}, {@code env NAME} or {@code flag --name}
   * @param env the environment variable that overrides it, or {@code null}
   */
  public record Setting(String key, String value, String source, String env) {}

  /**
   * A command-line flag that sets a configuration value; flags win over everything else.
   *
   * @param key the dotted key it sets, e.g. {@code server.port}
   * @param value the value as typed
   * @param name the flag as typed, e.g. {@code --port}
   */
  public record Flag(String key, String value, String name) {}

  /**
   * {@code index.*}: how the index is built. Model and vector format are recorded in the index: an
   * index is opened with the ones it was built with, or not at all.
   *
   * @param model embedding model id; default {@code bge-small-en-v1.5} (also {@code
   *     all-minilm-l6-v2}). Env {@code BRAIN_INDEX_MODEL}
   * @param vectorFormat {@code float} (default), {@code int8} or {@code int4}
   * @param chunkMaxTokens token budget of a chunk; default {@value Chunker#DEFAULT_MAX_TOKENS}
   * @param chunkOverlapTokens overlap of consecutive chunks; default {@value
   *     Chunker#DEFAULT_OVERLAP_TOKENS}
   * @param embedBatchSize chunks per embedder call; default {@value
   *     IndexConfig#DEFAULT_EMBED_BATCH_SIZE}
   */
  public record Index(
      EmbeddingModel model,
      VectorFormat vectorFormat,
      int chunkMaxTokens,
      int chunkOverlapTokens,
      int embedBatchSize) {

    /** The index configuration for {@code dataDir} (the index lives in {@code dataDir/index}). */
    public IndexConfig toIndexConfig(Path dataDir) {
      return IndexConfig.defaults(dataDir)
          .withModel(model)
          .withVectorFormat(vectorFormat)
          .withChunking(chunkMaxTokens, chunkOverlapTokens)
          .withEmbedBatchSize(embedBatchSize);
    }
  }

  /**
   * {@code retrieval.*}: the defaults of a search (CLI {@code brain search}, {@code GET
   * /api/search}, {@link Brain#search(String)}); a request's own options win.
   *
   * @param limit rows returned; default {@value SearchOptions#DEFAULT_LIMIT}
   * @param fusion {@code rrf} (default) or {@code normalized}
   * @param rrfK the {@code k} of reciprocal-rank fusion; default {@value
   *     SearchOptions#DEFAULT_RRF_K}
   * @param weights weight of the {@code bm25}, {@code vector} and {@code exact-tag} lanes; default
   *     {@link SearchOptions#DEFAULT_WEIGHTS}
   * @param depth chunk hits per lane before fusion; default {@value SearchOptions#DEFAULT_DEPTH}
   */
  public record Retrieval(
      int limit, FusionMode fusion, int rrfK, Map<Lane, Double> weights, int depth) {

    public Retrieval {
      weights = Map.copyOf(weights);
    }

    /** Search options with these defaults. */
    public SearchOptions searchOptions() {
      return SearchOptions.builder()
          .limit(limit)
          .fusion(fusion)
          .rrfK(rrfK)
          .weights(weights)
          .depth(depth)
          .build();
    }
  }

  /**
   * {@code research.*}: the defaults of a research pack and the budgets of a run.
   *
   * @param limit evidence rows of a pack; default {@value ResearchOptions#DEFAULT_LIMIT}
   * @param maxCharsPerDoc longest excerpt per row; default {@value
   *     ResearchOptions#DEFAULT_MAX_CHARS_PER_DOC}
   * @param deadline a whole run; default 3m
   * @param maxSteps stages a run may start; default {@value RunBudgets#DEFAULT_MAX_STEPS}
   * @param maxRetrievalPasses 1 (no retry) or 2 (one retry or related expansion); default 2
   * @param plannerTimeout how long a model planner may take; default 20s
   * @param synthesisTimeout how long the answer may take; default 2m
   */
  public record Research(
      int limit,
      int maxCharsPerDoc,
      Duration deadline,
      int maxSteps,
      int maxRetrievalPasses,
      Duration plannerTimeout,
      Duration synthesisTimeout) {

    /** Pack options with these defaults. */
    public ResearchOptions options() {
      return ResearchOptions.defaults()
          .withLimit(limit)
          .withMaxCharsPerDoc(maxCharsPerDoc)
          .withPlannerTimeout(plannerTimeout);
    }

    /** Run budgets with these values (other stage budgets at their defaults). */
    public RunBudgets budgets() {
      return RunBudgets.defaults()
          .withDeadline(deadline)
          .withMaxSteps(maxSteps)
          .withMaxRetrievalPasses(maxRetrievalPasses)
          .withStageBudget(dev.brain.research.run.RunStage.PLANNING, plannerTimeout)
          .withStageBudget(dev.brain.research.run.RunStage.SYNTHESIS, synthesisTimeout);
    }
  }

  /**
   * {@code chat.*}: the chat model of the planner and the answer, read by the CLI and the server
   * alike, and where model servers are. The API key is read from the environment only ({@code
   * BRAIN_OPENAI_API_KEY}, else {@code OPENAI_API_KEY}) and never shown.
   *
   * @param model {@code extractive} (default: built in, deterministic, no planner), {@code
   *     ollama/<model>} or {@code openai/<model>}. Env {@code BRAIN_MODEL}
   * @param plannerModel the planner's model when it should differ; default: {@code model}. Env
   *     {@code BRAIN_PLANNER_MODEL}
   * @param ollamaUrl default {@value ChatConfig#DEFAULT_OLLAMA_URL}. Env {@code BRAIN_OLLAMA_URL}
   * @param openAiUrl default {@value ChatConfig#DEFAULT_OPENAI_URL}. Env {@code BRAIN_OPENAI_URL}
   * @param allowHosted whether a non-loopback model server may be used; default false. Env {@code
   *     BRAIN_ALLOW_HOSTED}
   * @param apiKey the API key of an OpenAI-compatible server, or {@code null}
   */
  public record Chat(
      String model,
      String plannerModel,
      URI ollamaUrl,
      URI openAiUrl,
      boolean allowHosted,
      String apiKey) {

    /** This section with another chat model spec (planner and answer). */
    public Chat withModel(String value) {
      return new Chat(spec(value), plannerModel, ollamaUrl, openAiUrl, allowHosted, apiKey);
    }

    /** This section with the model servers of {@code value} (URLs, hosted use, API key). */
    public Chat withServers(ChatConfig value) {
      return new Chat(
          model,
          plannerModel,
          value.ollamaUrl(),
          value.openAiUrl(),
          value.allowHosted(),
          value.apiKey());
    }

    /** The model servers' settings. */
    public ChatConfig chatConfig() {
      return ChatConfig.defaults()
          .withOllamaUrl(ollamaUrl)
          .withOpenAiUrl(openAiUrl)
          .withAllowHosted(allowHosted)
          .withApiKey(apiKey);
    }

    /** The planner's model spec, or {@code null} for the deterministic planner. */
    public String plannerSpec() {
      if (plannerModel != null) {
        return ChatModels.isExtractive(plannerModel) ? null : plannerModel;
      }
      return ChatModels.isExtractive(model) ? null : model;
    }

    @Override
    public String toString() {
      return "Chat[model=" + model + ", plannerModel=" + plannerModel + ", apiKey=(redacted)]";
    }
  }

  /**
   * {@code server.*}: {@code brain serve}.
   *
   * @param host address to bind; default {@code 127.0.0.1} (loopback only)
   * @param port default 8742; 0 picks a free port
   * @param allowRemote whether a non-loopback host may be bound; default false
   * @param token bearer token every request must carry ({@code Authorization: Bearer <token>}, else
   *     401); default none; required, at least {@value #MIN_TOKEN_CHARS} characters, when {@code
   *     allowRemote}. Env {@code BRAIN_SERVER_TOKEN}
   * @param maxBodyBytes largest JSON body of the research endpoints; default 64 KiB
   * @param maxPackBodyBytes largest body of {@code /api/research/synthesize}; default 4 MiB
   * @param heartbeatInterval SSE heartbeat while a stage is slow; default 5s
   * @param maxConcurrentRuns synthesis and research runs served at once; default 2
   * @param allowedHosts host names a request's {@code Host} may carry besides loopback ones (and a
   *     non-wildcard {@code host}), honoured only with {@code allowRemote}; default none. In the
   *     file a comma-separated list
   */
  public record Server(
      String host,
      int port,
      boolean allowRemote,
      String token,
      long maxBodyBytes,
      long maxPackBodyBytes,
      Duration heartbeatInterval,
      int maxConcurrentRuns,
      List<String> allowedHosts) {

    /** Shortest accepted {@link #token()}. */
    public static final int MIN_TOKEN_CHARS = 16;

    /** Default {@link #host()}. */
    public static final String DEFAULT_HOST = "127.0.0.1";

    /** Default {@link #port()}. */
    public static final int DEFAULT_PORT = 8742;

    public Server {
      host = host == null || host.isBlank() ? DEFAULT_HOST : host.strip();
      token = token == null || token.isBlank() ? null : token.strip();
      allowedHosts =
          allowedHosts == null
              ? List.of()
              : allowedHosts.stream()
                  .map(h -> h.strip().toLowerCase(java.util.Locale.ROOT))
                  .filter(h -> !h.isEmpty())
                  .toList();
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
      }
      if (maxBodyBytes <= 0 || maxPackBodyBytes <= 0 || maxConcurrentRuns <= 0) {
        throw new IllegalArgumentException("body limits and concurrent runs must be positive");
      }
      Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
      if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
        throw new IllegalArgumentException("heartbeatInterval must be positive");
      }
    }

    /** These settings binding another host. */
    public Server withHost(String value) {
      return copy(c -> c.host = value);
    }

    /** These settings on another port (0: any free port). */
    public Server withPort(int value) {
      return copy(c -> c.port = value);
    }

    /** These settings allowing (or not) a non-loopback host. */
    public Server withAllowRemote(boolean value) {
      return copy(c -> c.allowRemote = value);
    }

    /** These settings with other request body limits. */
    public Server withBodyLimits(long body, long packBody) {
      return copy(
          c -> {
            c.maxBodyBytes = body;
            c.maxPackBodyBytes = packBody;
          });
    }

    /** These settings with another heartbeat interval. */
    public Server withHeartbeatInterval(Duration value) {
      return copy(c -> c.heartbeatInterval = value);
    }

    /** These settings with a bearer token (null: none). */
    public Server withToken(String value) {
      return copy(c -> c.token = value);
    }

    /** These settings with other allowed host names. */
    public Server withAllowedHosts(List<String> value) {
      return copy(c -> c.allowedHosts = value);
    }

    /** These settings with another cap on concurrent runs. */
    public Server withMaxConcurrentRuns(int value) {
      return copy(c -> c.maxConcurrentRuns = value);
    }

    private Server copy(java.util.function.Consumer<Copy> change) {
      var copy = new Copy(this);
      change.accept(copy);
      return copy.build();
    }

    /** The fields of a {@code Server} to change before building a checked copy. */
    private static final class Copy {
      String host;
      int port;
      boolean allowRemote;
      String token;
      long maxBodyBytes;
      long maxPackBodyBytes;
      Duration heartbeatInterval;
      int maxConcurrentRuns;
      List<String> allowedHosts;

      Copy(Server s) {
        host = s.host;
        port = s.port;
        allowRemote = s.allowRemote;
        token = s.token;
        maxBodyBytes = s.maxBodyBytes;
        maxPackBodyBytes = s.maxPackBodyBytes;
        heartbeatInterval = s.heartbeatInterval;
        maxConcurrentRuns = s.maxConcurrentRuns;
        allowedHosts = s.allowedHosts;
      }

      Server build() {
        return new Server(
            host,
            port,
            allowRemote,
            token,
            maxBodyBytes,
            maxPackBodyBytes,
            heartbeatInterval,
            maxConcurrentRuns,
            allowedHosts);
      }
    }

    /**
     * Whether {@link #host()} is a loopback address ({@code 127.0.0.1}, {@code ::1}, {@code
     * localhost}).
     *
     * @throws IllegalArgumentException if the host name cannot be resolved
     */
    public boolean bindsLoopbackOnly() {
      try {
        return java.net.InetAddress.getByName(host).isLoopbackAddress();
      } catch (java.net.UnknownHostException e) {
        throw new IllegalArgumentException("cannot resolve host '" + host + "'", e);
      }
    }

    @Override
    public String toString() {
      return "Server[host="
          + host
          + ", port="
          + port
          + ", token="
          + (token == null ? "none" : "(set)")
          + "]";
    }
  }

  /**
   * {@code traces.*}: retention of {@code <data>/research-runs}; a trace is kept if it is among the
   * newest {@code keepNewest} or younger than {@code maxAge}.
   *
   * @param keepNewest default {@value RetentionPolicy#DEFAULT_KEEP_NEWEST}
   * @param maxAge default 180d
   */
  public record Traces(int keepNewest, Duration maxAge) {

    /** The retention policy of these values. */
    public RetentionPolicy retention() {
      return new RetentionPolicy(keepNewest, maxAge, false);
    }
  }

  /**
   * {@code agent.*}: {@code brain agent}, the bounded tool-calling loop.
   *
   * @param model the controller (a tool-calling chat model); default {@code chat.model} when that
   *     is not {@code extractive}, else none (the agent then needs {@code --model}). Env {@code
   *     BRAIN_AGENT_MODEL}
   * @param workerModel the cheaper model behind the {@code summarize} and {@code extract} tools;
   *     default the controller's. Env {@code BRAIN_AGENT_WORKER_MODEL}
   * @param maxTurns most controller turns; default 8
   * @param maxToolCalls most tool calls per run; default 16
   * @param maxToolOutputChars most characters of one tool result kept; default 12,000
   * @param deadline time per run; default 3m
   * @param workerMaxTokens most tokens per worker answer; default 800
   * @param workerTimeout time per worker call, retry included; default 60s
   * @param allow tools the model may see and run (comma-separated); default all read-only tools
   * @param deny tools never shown nor run (comma-separated); default none
   * @param mcpConfigs {@code .mcp.json} files whose MCP servers' tools the agent may use
   *     (comma-separated paths, relative to the data directory); default none
   * @param hookHalt {@code agent.hooks.halt}: calls to halt, {@code TOOL} or {@code TOOL:REGEX}
   *     (comma-separated; see {@link dev.brain.research.agent.HookRules}); default none
   * @param hookSet {@code agent.hooks.set}: arguments to rewrite, {@code TOOL.ARG=VALUE}
   *     (comma-separated); default none
   */
  public record Agent(
      String model,
      String workerModel,
      int maxTurns,
      int maxToolCalls,
      int maxToolOutputChars,
      Duration deadline,
      int workerMaxTokens,
      Duration workerTimeout,
      List<String> allow,
      List<String> deny,
      List<String> mcpConfigs,
      String hookHalt,
      String hookSet) {
    public Agent {
      allow = allow == null ? List.of() : List.copyOf(allow);
      deny = deny == null ? List.of() : List.copyOf(deny);
      mcpConfigs = mcpConfigs == null ? List.of() : List.copyOf(mcpConfigs);
    }

    /** The controller's model spec given the chat section, or {@code null} when none is set. */
    public String controllerSpec(Chat chat) {
      if (model != null && !ChatModels.isExtractive(model)) {
        return model;
      }
      return ChatModels.isExtractive(chat.model()) ? null : chat.model();
    }

    /** The tool hook of {@code agent.hooks.halt} and {@code agent.hooks.set}. */
    public dev.brain.research.agent.HookRules hooks() {
      return dev.brain.research.agent.HookRules.parse(hookHalt, hookSet);
    }

    /** The worker's model spec given the controller's. */
    public String workerSpec(String controller) {
      return workerModel == null || ChatModels.isExtractive(workerModel) ? controller : workerModel;
    }

    /** This section with another controller model. */
    public Agent withModel(String value) {
      return new Agent(
          spec(value),
          workerModel,
          maxTurns,
          maxToolCalls,
          maxToolOutputChars,
          deadline,
          workerMaxTokens,
          workerTimeout,
          allow,
          deny,
          mcpConfigs,
          hookHalt,
          hookSet);
    }

    /** This section with another worker model. */
    public Agent withWorkerModel(String value) {
      return new Agent(
          model,
          spec(value),
          maxTurns,
          maxToolCalls,
          maxToolOutputChars,
          deadline,
          workerMaxTokens,
          workerTimeout,
          allow,
          deny,
          mcpConfigs,
          hookHalt,
          hookSet);
    }
  }

  /**
   * {@code note.*}: note research ({@code brain note research}). Local first: without a web search
   * URL only the corpus is researched.
   *
   * @param webSearchUrl a SearxNG-compatible JSON search endpoint (asked as {@code
   *     URL?q=...&format=json}); default none. Env {@code BRAIN_NOTE_WEB_SEARCH_URL}
   * @param concurrency topics researched at once; default 4
   * @param pageTimeout time per fetched page in deep mode; default 10s
   */
  public record Note(URI webSearchUrl, int concurrency, Duration pageTimeout) {
    public Note {
      if (concurrency < 1) {
        throw new IllegalArgumentException("concurrency must be positive, got " + concurrency);
      }
      Objects.requireNonNull(pageTimeout, "pageTimeout");
    }
  }

  /**
   * {@code collections:}: the folders {@code brain add} remembered, in file order. Only {@code
   * brain add} and {@code brain remove} write this section ({@link dev.brain.index.CollectionsFile}
   * rewrites it alone, keeping every other byte of {@code brain.yaml}); environment variables and
   * flags do not touch it.
   *
   * <pre>
   * collections:
   *   - name: "notes"
   *     root: "/home/me/notes"
   *     excludes: ["drafts/"]
   * </pre>
   *
   * @param roots the collections; default none
   */
  public record Collections(List<dev.brain.index.CollectionRoot> roots) {
    public Collections {
      roots = roots == null ? List.of() : List.copyOf(roots);
    }

    /** The collection named {@code name}, if there is one. */
    public java.util.Optional<dev.brain.index.CollectionRoot> named(String name) {
      return roots.stream().filter(c -> c.name().equals(name)).findFirst();
    }
  }

  /**
   * {@code mcp.*}: the MCP server.
   *
   * @param allowWrites offer the one writing tool, {@code brain_research_note}; default false. Env
   *     {@code BRAIN_MCP_ALLOW_WRITES}
   */
  public record Mcp(boolean allowWrites) {}

  /**
   * The configuration of {@code dataDir}: its {@code brain.yaml}, overridden by the process's
   * environment.
   *
   * @throws BrainConfigException if the file or a variable holds something brain cannot use
   */
  public static BrainConfig load(Path dataDir) {
    return load(dataDir, System.getenv(), List.of());
  }

  /**
   * The configuration of {@code dataDir}: {@code brain.yaml} (if present), overridden by {@code
   * env}, overridden by {@code flags}.
   *
   * @throws BrainConfigException naming the file and line (or variable, or flag), the key and the
   *     allowed values, if a value cannot be used or a key of the file is unknown
   */
  public static BrainConfig load(Path dataDir, Map<String, String> env, List<Flag> flags) {
    var r = ConfigReader.open(dataDir.resolve(FILE), env, flags);
    var config =
        new BrainConfig(
            dataDir,
            index(r),
            retrieval(r),
            research(r),
            chat(r, env),
            server(r),
            traces(r),
            agent(r),
            note(r),
            mcp(r),
            new Collections(r.collections()),
            null);
    r.rejectUnknownKeys();
    return new BrainConfig(
        config.dataDir,
        config.index,
        config.retrieval,
        config.research,
        config.chat,
        config.server,
        config.traces,
        config.agent,
        config.note,
        config.mcp,
        config.collections,
        r.settings());
  }

  /** Every default, ignoring any file and the environment. */
  public static BrainConfig defaults(Path dataDir) {
    return load(dataDir.resolve(".no-config-here"), Map.of(), List.of()).withDataDir(dataDir);
  }

  /** This configuration for another data directory (the values are kept). */
  public BrainConfig withDataDir(Path value) {
    return new BrainConfig(
        value,
        index,
        retrieval,
        research,
        chat,
        server,
        traces,
        agent,
        note,
        mcp,
        collections,
        settings);
  }

  /** This configuration with another server section. */
  public BrainConfig withServer(Server value) {
    return new BrainConfig(
        dataDir,
        index,
        retrieval,
        research,
        chat,
        value,
        traces,
        agent,
        note,
        mcp,
        collections,
        settings);
  }

  /** This configuration with another agent section. */
  public BrainConfig withAgent(Agent value) {
    return new BrainConfig(
        dataDir,
        index,
        retrieval,
        research,
        chat,
        server,
        traces,
        value,
        note,
        mcp,
        collections,
        settings);
  }

  /** This configuration with another chat section. */
  public BrainConfig withChat(Chat value) {
    return new BrainConfig(
        dataDir,
        index,
        retrieval,
        research,
        value,
        server,
        traces,
        agent,
        note,
        mcp,
        collections,
        settings);
  }

  /** This configuration with another note research section. */
  public BrainConfig withNote(Note value) {
    return new BrainConfig(
        dataDir,
        index,
        retrieval,
        research,
        chat,
        server,
        traces,
        agent,
        value,
        mcp,
        collections,
        settings);
  }

  /** This configuration with another MCP section. */
  public BrainConfig withMcp(Mcp value) {
    return new BrainConfig(
        dataDir,
        index,
        retrieval,
        research,
        chat,
        server,
        traces,
        agent,
        note,
        value,
        collections,
        settings);
  }

  /** The index configuration of this data directory. */
  public IndexConfig indexConfig() {
    return index.toIndexConfig(dataDir);
  }

  private static Index index(ConfigReader r) {
    var models = new LinkedHashMap<String, EmbeddingModel>();
    EmbeddingModel.bundled().forEach(m -> models.put(m.id(), m));
    var formats = new LinkedHashMap<String, VectorFormat>();
    for (VectorFormat f : VectorFormat.values()) {
      formats.put(f.name().toLowerCase(Locale.ROOT), f);
    }
    var d = IndexConfig.defaults(Path.of("."));
    EmbeddingModel model = r.choice("index.model", "BRAIN_INDEX_MODEL", d.model(), models);
    VectorFormat format = r.choice("index.vector-format", null, d.vectorFormat(), formats);
    int maxTokens = r.integer("index.chunk-max-tokens", null, d.chunkMaxTokens(), 16, 8192);
    return new Index(
        model,
        format,
        maxTokens,
        r.integer("index.chunk-overlap-tokens", null, d.chunkOverlapTokens(), 0, maxTokens / 2),
        r.integer("index.embed-batch-size", null, d.embedBatchSize(), 1, 4096));
  }

  private static Retrieval retrieval(ConfigReader r) {
    var d = SearchOptions.defaults();
    var fusions = new LinkedHashMap<String, FusionMode>();
    for (FusionMode f : FusionMode.values()) {
      fusions.put(f.wireName(), f);
    }
    int limit = r.integer("retrieval.limit", null, d.limit(), 1, SearchOptions.MAX_LIMIT);
    FusionMode fusion = r.choice("retrieval.fusion", null, d.fusion(), fusions);
    int rrfK = r.integer("retrieval.rrf-k", null, d.rrfK(), 1, 10_000);
    var weights = new LinkedHashMap<Lane, Double>();
    for (Lane lane : List.of(Lane.BM25, Lane.VECTOR, Lane.EXACT_TAG)) {
      String name = lane.name().toLowerCase(Locale.ROOT).replace('_', '-');
      weights.put(lane, r.decimal("retrieval.weights." + name, null, d.weight(lane), 0, 100));
    }
    int depth = r.integer("retrieval.depth", null, d.depth(), 1, 10_000);
    return new Retrieval(limit, fusion, rrfK, weights, depth);
  }

  private static Research research(ConfigReader r) {
    var o = ResearchOptions.defaults();
    var b = RunBudgets.defaults();
    return new Research(
        r.integer("research.limit", null, o.limit(), 1, ResearchOptions.MAX_LIMIT),
        r.integer("research.max-chars-per-doc", null, o.maxCharsPerDoc(), 40, 100_000),
        r.duration("research.deadline", null, b.deadline(), Duration.ofSeconds(1)),
        r.integer("research.max-steps", null, b.maxSteps(), 1, 100),
        r.integer("research.max-retrieval-passes", null, b.maxRetrievalPasses(), 1, 2),
        r.duration("research.planner-timeout", null, b.planning(), Duration.ofMillis(1)),
        r.duration("research.synthesis-timeout", null, b.synthesis(), Duration.ofMillis(1)));
  }

  private static Chat chat(ConfigReader r, Map<String, String> env) {
    String allowed = "extractive, ollama/<model>, openai/<model>";
    String url = "an http:// or https:// URL";
    var d = ChatConfig.defaults();
    String model =
        r.checked("chat.model", "BRAIN_MODEL", ChatModels.EXTRACTIVE, BrainConfig::spec, allowed);
    String planner =
        r.checked("chat.planner-model", "BRAIN_PLANNER_MODEL", null, BrainConfig::spec, allowed);
    String ollama =
        r.checked(
            "chat.ollama-url",
            ChatConfig.ENV_OLLAMA_URL,
            d.ollamaUrl().toString(),
            BrainConfig::url,
            url);
    String openAi =
        r.checked(
            "chat.openai-url",
            ChatConfig.ENV_OPENAI_URL,
            d.openAiUrl().toString(),
            BrainConfig::url,
            url);
    boolean hosted = r.bool("chat.allow-hosted", ChatConfig.ENV_ALLOW_HOSTED, false);
    String key = env.get(ChatConfig.ENV_OPENAI_API_KEY);
    if (key == null || key.isBlank()) {
      key = env.get(ChatConfig.ENV_OPENAI_API_KEY_FALLBACK);
    }
    return new Chat(model, planner, URI.create(ollama), URI.create(openAi), hosted, key);
  }

  private static Server server(ConfigReader r) {
    return new Server(
        r.string("server.host", "BRAIN_SERVER_HOST", Server.DEFAULT_HOST),
        r.integer("server.port", "BRAIN_SERVER_PORT", Server.DEFAULT_PORT, 0, 65_535),
        r.bool("server.allow-remote", "BRAIN_SERVER_ALLOW_REMOTE", false),
        r.secret("server.token", "BRAIN_SERVER_TOKEN"),
        r.integer("server.max-body-bytes", null, 64 * 1024, 1, Integer.MAX_VALUE),
        r.integer("server.max-pack-body-bytes", null, 4 * 1024 * 1024, 1, Integer.MAX_VALUE),
        r.duration("server.heartbeat-interval", null, Duration.ofSeconds(5), Duration.ofMillis(1)),
        r.integer("server.max-concurrent-runs", null, 2, 1, 1000),
        r.list("server.allowed-hosts", "BRAIN_SERVER_ALLOWED_HOSTS"));
  }

  private static Traces traces(ConfigReader r) {
    return new Traces(
        r.integer(
            "traces.keep-newest", null, RetentionPolicy.DEFAULT_KEEP_NEWEST, 0, Integer.MAX_VALUE),
        r.duration("traces.max-age", null, RetentionPolicy.DEFAULT_MAX_AGE, Duration.ZERO));
  }

  private static Agent agent(ConfigReader r) {
    String allowed = "ollama/<model>, openai/<model>";
    return new Agent(
        r.checked("agent.model", "BRAIN_AGENT_MODEL", null, BrainConfig::spec, allowed),
        r.checked(
            "agent.worker-model", "BRAIN_AGENT_WORKER_MODEL", null, BrainConfig::spec, allowed),
        r.integer("agent.max-turns", null, 8, 1, 100),
        r.integer("agent.max-tool-calls", null, 16, 0, 1_000),
        r.integer("agent.max-tool-output-chars", null, 12_000, 200, 1_000_000),
        r.duration("agent.deadline", null, Duration.ofMinutes(3), Duration.ofSeconds(1)),
        r.integer("agent.worker-max-tokens", null, 800, 0, 100_000),
        r.duration("agent.worker-timeout", null, Duration.ofSeconds(60), Duration.ofSeconds(1)),
        r.list("agent.allow", null),
        r.list("agent.deny", null),
        r.list("agent.mcp-configs", null),
        r.checked("agent.hooks.halt", null, null, v -> hookRules(v, null), HOOK_HALT),
        r.checked("agent.hooks.set", null, null, v -> hookRules(null, v), HOOK_SET));
  }

  private static final String HOOK_HALT =
      "comma-separated TOOL or TOOL:REGEX (a tool name or a prefix ending in *)";
  private static final String HOOK_SET = "comma-separated TOOL.ARG=VALUE";

  /** The rules as written, once they parse. */
  private static String hookRules(String halt, String set) {
    try {
      dev.brain.research.agent.HookRules.parse(halt, set);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not usable (" + e.getMessage() + ")", e);
    }
    return halt != null ? halt : set;
  }

  private static Note note(ConfigReader r) {
    String url =
        r.checked(
            "note.web-search-url",
            "BRAIN_NOTE_WEB_SEARCH_URL",
            null,
            BrainConfig::url,
            "an http:// or https:// URL of a SearxNG-compatible JSON search endpoint");
    return new Note(
        url == null ? null : URI.create(url),
        r.integer("note.concurrency", null, 4, 1, 64),
        r.duration("note.page-timeout", null, Duration.ofSeconds(10), Duration.ofMillis(1)));
  }

  private static Mcp mcp(ConfigReader r) {
    return new Mcp(r.bool("mcp.allow-writes", "BRAIN_MCP_ALLOW_WRITES", false));
  }

  private static String spec(String value) {
    String v = value.strip();
    if (ChatModels.isExtractive(v)) {
      return ChatModels.EXTRACTIVE;
    }
    int slash = v.indexOf('/');
    String provider = slash < 0 ? "" : v.substring(0, slash);
    if ((!provider.equals("ollama") && !provider.equals("openai")) || slash == v.length() - 1) {
      throw new IllegalArgumentException("not a chat model");
    }
    return v;
  }

  private static String url(String value) {
    URI uri;
    try {
      uri = URI.create(value.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not a URL");
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw new IllegalArgumentException("not an http(s) URL");
    }
    return uri.toString();
  }
}
