package dev.brain.server.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.agent.AgentTool;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Tools imported from the MCP servers of {@code .mcp.json} files (see {@link McpConfigFile} for the
 * format), connected with the MCP Java SDK client: stdio servers are started as child processes,
 * HTTP servers reached over Streamable HTTP. Each tool is named {@code <server>__<tool>} unless
 * aliased.
 *
 * <p>A file brain cannot read stops the import ({@link McpConfigException}); a server that does not
 * start, answer or list its tools is reported in {@link #failures()} and the other servers still
 * load. Tools a file's {@code x-brain.deny} names stay registered but are in {@link #denied()}, so
 * that the agent's policy hides them from the model and refuses a call anyway. Imported tools are
 * not evidence: their output cannot back a cited key. Close the import to stop its child processes.
 */
public final class McpToolImport implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<McpSyncClient> clients;
  private final List<AgentTool> tools;
  private final Set<String> denied;
  private final List<Failure> failures;

  /**
   * A server that could not be used.
   *
   * @param file the {@code .mcp.json} file that lists it
   * @param server its name under {@code mcpServers}
   * @param message what went wrong
   */
  public record Failure(Path file, String server, String message) {
    /** One line for a terminal or a log. */
    public String line() {
      return "MCP server '" + server + "' (" + file + "): " + message;
    }
  }

  private McpToolImport(
      List<McpSyncClient> clients, List<AgentTool> tools, Set<String> denied, List<Failure> f) {
    this.clients = List.copyOf(clients);
    this.tools = List.copyOf(tools);
    this.denied = Set.copyOf(denied);
    this.failures = List.copyOf(f);
  }

  /** An import of nothing. */
  public static McpToolImport none() {
    return new McpToolImport(List.of(), List.of(), Set.of(), List.of());
  }

  /**
   * Reads every file, then connects every server and lists its tools.
   *
   * @param files {@code .mcp.json} files, in order; a server name already seen is reported and
   *     skipped
   * @param env the environment for {@code ${VAR}} expansion (the process's)
   * @param reserved tool names already taken (brain's local and worker tools); an imported tool
   *     that would take one is reported and skipped
   * @param timeout how long a server may take to start and answer a request
   * @throws McpConfigException if a file is not a usable {@code .mcp.json}
   */
  public static McpToolImport connect(
      List<Path> files, Map<String, String> env, Collection<String> reserved, Duration timeout) {
    var configs = files.stream().map(f -> McpConfigFile.read(f, env)).toList();
    var clients = new ArrayList<McpSyncClient>();
    var tools = new LinkedHashMap<String, AgentTool>();
    var denied = new HashSet<String>();
    var failures = new ArrayList<Failure>();
    var seen = new LinkedHashMap<String, Path>();
    var taken = new HashSet<>(reserved);
    for (McpConfigFile config : configs) {
      for (McpConfigFile.Server server : config.servers()) {
        Path file = config.file();
        Path first = seen.putIfAbsent(server.name(), file);
        if (first != null) {
          failures.add(
              new Failure(file, server.name(), "skipped: a server of this name is in " + first));
          continue;
        }
        String missing = missingProgram(server);
        if (missing != null) {
          // The SDK's client would wait out its whole initialization timeout for a process that
          // never started; a program path that does not exist is reported at once.
          failures.add(new Failure(file, server.name(), "did not start: " + missing));
          continue;
        }
        McpSyncClient client;
        List<McpSchema.Tool> listed;
        try {
          client =
              McpClient.sync(transport(server))
                  .requestTimeout(timeout)
                  .initializationTimeout(timeout)
                  .build();
        } catch (RuntimeException e) {
          failures.add(new Failure(file, server.name(), "cannot connect: " + reason(e)));
          continue;
        }
        try {
          client.initialize();
          listed = allTools(client);
        } catch (RuntimeException e) {
          failures.add(new Failure(file, server.name(), "did not start: " + reason(e)));
          closeQuietly(client);
          continue;
        }
        clients.add(client);
        for (McpSchema.Tool tool : listed) {
          if (!server.allow().isEmpty() && !server.allow().contains(tool.name())) {
            continue;
          }
          String name = server.aliases().getOrDefault(tool.name(), defaultName(server, tool));
          if (!taken.add(name)) {
            failures.add(
                new Failure(
                    file,
                    server.name(),
                    "tool '" + tool.name() + "' skipped: the name '" + name + "' is taken"));
            continue;
          }
          tools.put(name, new Imported(name, server, tool, client));
          if (server.deny().contains(tool.name())) {
            denied.add(name);
          }
        }
      }
    }
    return new McpToolImport(clients, List.copyOf(tools.values()), denied, failures);
  }

  /** The imported tools, denied ones included (see {@link #denied()}). */
  public List<AgentTool> tools() {
    return tools;
  }

  /** Names of imported tools that {@code x-brain.deny} names: add them to the policy's denylist. */
  public Set<String> denied() {
    return denied;
  }

  /** The servers that could not be used. */
  public List<Failure> failures() {
    return failures;
  }

  /** Closes every client; stdio servers' processes end. */
  @Override
  public void close() {
    clients.forEach(McpToolImport::closeQuietly);
  }

  private static void closeQuietly(McpSyncClient client) {
    try {
      client.closeGracefully();
    } catch (RuntimeException e) {
      client.close();
    }
  }

  /**
   * Why a stdio server's program cannot run, or null: a command written as a path (with a
   * separator) that names no file. A bare name is looked up on the child's PATH by the system.
   */
  static String missingProgram(McpConfigFile.Server server) {
    if (server.url() != null || server.command().isEmpty()) {
      return null;
    }
    String program = server.command().get(0);
    if (program.indexOf('/') < 0 && program.indexOf('\\') < 0) {
      return null;
    }
    try {
      if (java.nio.file.Files.isRegularFile(Path.of(program))) {
        return null;
      }
    } catch (java.nio.file.InvalidPathException e) {
      return "the command '" + program + "' is no valid path";
    }
    return "no program at '" + program + "'; fix \"command\" in the MCP config";
  }

  private static McpClientTransport transport(McpConfigFile.Server server) {
    var mapper = new JacksonMcpJsonMapper(JSON);
    if (server.url() == null) {
      List<String> cmd = server.command();
      var params =
          ServerParameters.builder(cmd.get(0))
              .args(cmd.subList(1, cmd.size()))
              .env(server.env())
              .build();
      return new StdioClientTransport(params, mapper);
    }
    if (server.type() != null && !server.type().equals("http")) {
      throw new IllegalArgumentException(
          "type '" + server.type() + "' is not supported; brain speaks Streamable HTTP ('http')");
    }
    URI url = server.url();
    String base = url.getScheme() + "://" + url.getRawAuthority();
    String endpoint =
        (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
            + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
    var request = HttpRequest.newBuilder();
    server.headers().forEach(request::header);
    return HttpClientStreamableHttpTransport.builder(base)
        .endpoint(endpoint)
        .requestBuilder(request)
        .jsonMapper(mapper)
        .build();
  }

  private static List<McpSchema.Tool> allTools(McpSyncClient client) {
    var out = new ArrayList<McpSchema.Tool>();
    var cursors = new LinkedHashSet<String>();
    McpSchema.ListToolsResult page = client.listTools();
    out.addAll(page.tools());
    while (page.nextCursor() != null && cursors.add(page.nextCursor())) {
      page = client.listTools(page.nextCursor());
      out.addAll(page.tools());
    }
    return out;
  }

  private static String defaultName(McpConfigFile.Server server, McpSchema.Tool tool) {
    String name = (server.name() + "__" + tool.name()).replaceAll("[^A-Za-z0-9_-]", "_");
    return name.length() <= 64 ? name : name.substring(0, 64);
  }

  /** The innermost message of a failure, without Java class names. */
  private static String reason(Throwable e) {
    Throwable t = e;
    String message = null;
    while (t != null) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        message = t.getMessage();
      }
      t = t.getCause() == t ? null : t.getCause();
    }
    return message == null ? "no reason given" : message.lines().findFirst().orElse(message);
  }

  /** One tool of one server. */
  private record Imported(
      String name, McpConfigFile.Server server, McpSchema.Tool tool, McpSyncClient client)
      implements AgentTool {

    @Override
    public String description() {
      String d = tool.description() == null ? "" : tool.description();
      return d + (d.isEmpty() ? "" : " ") + "(MCP server '" + server.name() + "')";
    }

    @Override
    public String parametersJsonSchema() {
      try {
        return tool.inputSchema() == null
            ? "{\"type\":\"object\"}"
            : JSON.writeValueAsString(tool.inputSchema());
      } catch (JsonProcessingException e) {
        return "{\"type\":\"object\"}";
      }
    }

    /**
     * Read-only when the server says so ({@code readOnlyHint}) or when the file's {@code
     * x-brain.allow} names the tool (an explicit allowance).
     */
    @Override
    public boolean readOnly() {
      var hints = tool.annotations();
      return hints != null && Boolean.TRUE.equals(hints.readOnlyHint())
          || server.allow().contains(tool.name());
    }

    @Override
    public String call(JsonNode arguments) throws ToolFailure {
      Map<String, Object> args = JSON.convertValue(arguments, BrainTools.MAP_TYPE);
      McpSchema.CallToolResult result;
      try {
        result =
            client.callTool(McpSchema.CallToolRequest.builder(tool.name()).arguments(args).build());
      } catch (RuntimeException e) {
        throw new ToolFailure("MCP server '" + server.name() + "' failed: " + reason(e), e);
      }
      String text =
          result.content() == null
              ? ""
              : result.content().stream()
                  .map(
                      c ->
                          c instanceof McpSchema.TextContent t
                              ? t.text()
                              : "[" + c.type() + " content omitted]")
                  .collect(Collectors.joining("\n"));
      if (Boolean.TRUE.equals(result.isError())) {
        throw new ToolFailure(text.isBlank() ? "the tool reported an error" : text);
      }
      if (result.structuredContent() != null) {
        try {
          return JSON.writeValueAsString(result.structuredContent());
        } catch (JsonProcessingException e) {
          return text;
        }
      }
      return text;
    }
  }
}
