package dev.brain;

import dev.brain.index.IndexConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * brain's one configuration: a record per section ({@link ServerSettings}, {@link ChatSettings},
 * ...), each value with its default documented beside it. {@link #load(Path)} reads {@code
 * <data>/brain.yaml} (Helidon Config), then environment variables, then CLI flags (each wins over
 * the one before) and remembers where every value came from ({@link #settings()}, printed by {@code
 * brain config}).
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
    IndexSettings index,
    RetrievalSettings retrieval,
    ResearchSettings research,
    ChatSettings chat,
    ServerSettings server,
    TraceSettings traces,
    AgentSettings agent,
    NoteSettings note,
    McpSettings mcp,
    CollectionSettings collections,
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
            IndexSettings.read(r),
            RetrievalSettings.read(r),
            ResearchSettings.read(r),
            ChatSettings.read(r, env),
            ServerSettings.read(r),
            TraceSettings.read(r),
            AgentSettings.read(r),
            NoteSettings.read(r),
            McpSettings.read(r),
            new CollectionSettings(r.collections()),
            null);
    r.rejectUnknownKeys();
    return config.copy(c -> c.settings = r.settings());
  }

  /** Every default, ignoring any file and the environment. */
  public static BrainConfig defaults(Path dataDir) {
    return load(dataDir.resolve(".no-config-here"), Map.of(), List.of()).withDataDir(dataDir);
  }

  /** This configuration for another data directory (the values are kept). */
  public BrainConfig withDataDir(Path value) {
    return copy(c -> c.dataDir = value);
  }

  /**
   * This configuration for an evaluation's own data directory {@code dir}: the same settings, on an
   * embedded index under {@code dir}, so an evaluation never writes into the user's index or Solr
   * collection.
   */
  public BrainConfig forEvaluation(Path dir) {
    return copy(
        c -> {
          c.dataDir = dir;
          c.index = c.index.embedded();
        });
  }

  /**
   * This configuration for an evaluation of the configured backend itself ({@code brain eval
   * beir}): the same settings with {@code index} for the index section, on an embedded index under
   * {@code dir}, or on SolrCloud in a collection of its own ({@code <collection>-eval-<name>}), so
   * an evaluation never writes into the user's index or Solr collection.
   */
  public BrainConfig forBackendEvaluation(Path dir, String name, IndexSettings index) {
    return copy(
        c -> {
          c.dataDir = dir;
          c.index = index.forEvaluation(name);
        });
  }

  /** This configuration with another server section. */
  public BrainConfig withServer(ServerSettings value) {
    return copy(c -> c.server = value);
  }

  /** This configuration with another agent section. */
  public BrainConfig withAgent(AgentSettings value) {
    return copy(c -> c.agent = value);
  }

  /** This configuration with another chat section. */
  public BrainConfig withChat(ChatSettings value) {
    return copy(c -> c.chat = value);
  }

  /** This configuration with another MCP section. */
  public BrainConfig withMcp(McpSettings value) {
    return copy(c -> c.mcp = value);
  }

  /** The index configuration of this data directory. */
  public IndexConfig indexConfig() {
    return index.toIndexConfig(dataDir, chat.chatConfig());
  }

  private BrainConfig copy(Consumer<Copy> change) {
    var copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** The fields of a {@code BrainConfig} to change before building a checked copy. */
  private static final class Copy {
    Path dataDir;
    IndexSettings index;
    RetrievalSettings retrieval;
    ResearchSettings research;
    ChatSettings chat;
    ServerSettings server;
    TraceSettings traces;
    AgentSettings agent;
    NoteSettings note;
    McpSettings mcp;
    CollectionSettings collections;
    List<Setting> settings;

    Copy(BrainConfig c) {
      dataDir = c.dataDir;
      index = c.index;
      retrieval = c.retrieval;
      research = c.research;
      chat = c.chat;
      server = c.server;
      traces = c.traces;
      agent = c.agent;
      note = c.note;
      mcp = c.mcp;
      collections = c.collections;
      settings = c.settings;
    }

    BrainConfig build() {
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
          mcp,
          collections,
          settings);
    }
  }
}
