package dev.brain.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.ProtocolVersions;
import io.modelcontextprotocol.util.DefaultMcpUriTemplateManagerFactory;
import io.modelcontextprotocol.util.McpUriTemplateManager;
import io.modelcontextprotocol.util.McpUriTemplateManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * brain as an MCP server: the read-only tools of {@link BrainTools}, the {@code brain_research}
 * prompt and the {@code brain://status} and {@code brain://record/{key}} resources, over stdio
 * ({@link #serveStdio}) or Streamable HTTP ({@link #httpEndpoint}). MCP never synthesizes an answer
 * and never writes a trace.
 */
public final class BrainMcp {
  private static final System.Logger LOG = System.getLogger(BrainMcp.class.getName());

  /** Largest JSON-RPC message read, on stdio and over HTTP: 4 MiB. */
  public static final int MAX_MESSAGE_BYTES = 4 << 20;

  /** The MCP protocol revisions brain speaks. */
  static final List<String> PROTOCOL_VERSIONS =
      List.of(
          ProtocolVersions.MCP_2024_11_05,
          ProtocolVersions.MCP_2025_03_26,
          ProtocolVersions.MCP_2025_06_18,
          ProtocolVersions.MCP_2025_11_25);

  static final String STATUS_URI = "brain://status";
  static final String RECORD_PREFIX = "brain://record/";
  static final String RECORD_TEMPLATE = RECORD_PREFIX + "{key}";

  /**
   * The protocol's mapper: plain Jackson, as the SDK expects (brain's records are mapped first).
   */
  private static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(new ObjectMapper());

  private BrainMcp() {}

  /**
   * Serves MCP on {@code in}/{@code out} (one JSON-RPC message per line) until {@code in} ends.
   * Nothing else may write to {@code out}.
   */
  public static void serveStdio(BrainTools tools, InputStream in, OutputStream out)
      throws InterruptedException {
    var transport = new StdioTransport(MAPPER, in, out, MAX_MESSAGE_BYTES);
    McpSyncServer server = configure(McpServer.sync(transport), tools).build();
    try {
      transport.awaitEnd();
    } finally {
      server.close();
    }
  }

  /**
   * How the hosting HTTP server reads a request body under its deadline (the web server's {@code
   * ReadDeadlines.body}): given by the host, so MCP does not depend on the HTTP package.
   */
  @FunctionalInterface
  public interface BodyDeadline {
    /** Runs {@code read}, the read of the current request's body, under the deadline. */
    <T> T read(java.util.function.Supplier<T> read);
  }

  /**
   * The Streamable HTTP endpoint, to be registered in a server's routing (at {@code /mcp}) so that
   * the routing's guards apply to it. A call of a writing tool ({@code brain_research_note}, with
   * {@code mcp.allow-writes}) is refused with a 401 unless {@code owner} accepts the request (it
   * carries the server's token); other calls are not asked for it. Close it when the server stops.
   */
  public static HttpEndpoint httpEndpoint(
      BrainTools tools, Predicate<ServerRequest> owner, BodyDeadline deadline) {
    var transport =
        new StreamableHttpTransport(
            MAPPER, MAX_MESSAGE_BYTES, ToolCatalog.writing(), owner, deadline);
    McpSyncServer server = configure(McpServer.sync(transport), tools).build();
    return new HttpEndpoint(transport, server);
  }

  /** The {@code /mcp} endpoint of a web server; {@link #close()} ends its sessions. */
  public static final class HttpEndpoint implements HttpService, AutoCloseable {
    private final StreamableHttpTransport transport;
    private final McpSyncServer server;

    private HttpEndpoint(StreamableHttpTransport transport, McpSyncServer server) {
      this.transport = transport;
      this.server = server;
    }

    @Override
    public void routing(HttpRules rules) {
      transport.routing(rules);
    }

    @Override
    public void close() {
      server.close();
    }
  }

  private static McpServer.SyncSpecification<?> configure(
      McpServer.SyncSpecification<?> spec, BrainTools tools) {
    return spec.serverInfo("brain", version())
        .jsonMapper(MAPPER)
        .instructions(instructions(tools))
        .uriTemplateManagerFactory(new RecordUris())
        .capabilities(
            McpSchema.ServerCapabilities.builder()
                .tools(false)
                .prompts(false)
                .resources(false, false)
                .build())
        .tools(toolSpecifications(tools))
        .prompts(BrainPrompt.specification())
        .resources(statusResource(tools))
        .resourceTemplates(recordResource(tools));
  }

  /** brain's version, as {@code brain --version} prints it (from the build, not the manifest). */
  static String version() {
    return dev.brain.server.BuildInfo.current().version();
  }

  /** The server's instructions: what the corpus holds and how to use the tools. */
  static String instructions(BrainTools tools) {
    String corpus;
    try {
      Map<String, Object> s = tools.status();
      @SuppressWarnings("unchecked")
      var bySourceType = (Map<String, ?>) s.get("by_source_type");
      corpus =
          s.get("records")
              + " records ("
              + ToolText.counts(bySourceType)
              + ") in "
              + s.get("chunks")
              + " chunks";
    } catch (IOException | RuntimeException e) {
      corpus = "a corpus whose counts could not be read (" + e.getMessage() + ")";
    }
    return "brain is a read-only research index of the user's own saved corpus — notes, saved"
        + " pages, PDFs, feeds, transcripts: "
        + corpus
        + ". Start with brain_research_pack for a question; inspect the strongest rows with"
        + " brain_get or brain_get_many (content=evidence with the question as query); follow"
        + " links with brain_related; use brain_topic_brief for a broad topic, brain_topic_map"
        + " for the collection's topics, brain_entities / brain_entity for who and what the"
        + " notes name, and brain_status"
        + " for counts."
        + (tools.hasWorker()
            ? " brain_summarize and brain_extract hand a text you pass to the configured worker"
                + " model (a summary, or fields matching your JSON schema); they read no index."
            : "")
        + " Cite records by their exact keys: note:<collection>/<path>, src:<12"
        + " hex>, bm:<hash>, feed-entry:<hash>, doc:<id>. The evidence is a capped working set,"
        + " not the full corpus: say so when it is weak or missing. The tools never write"
        + " anything and never answer for you."
        + (tools.allowsWrites()
            ? " Exception, allowed here by mcp.allow-writes: brain_research_note writes a cited"
                + " '## Research' section into the note it is given; call it only when the user"
                + " asks for that (over HTTP the request needs the server's token as"
                + " 'Authorization: Bearer <token>')."
            : "");
  }

  /** The tools, described by {@code mcp/tools.json}, each calling its {@link BrainTools} method. */
  static List<SyncToolSpecification> toolSpecifications(BrainTools tools) {
    Map<String, Tool> handlers = handlers(tools);
    var out = new ArrayList<SyncToolSpecification>();
    for (McpSchema.Tool tool : ToolCatalog.tools(tools.allowsWrites(), tools.hasWorker())) {
      Tool handler = handlers.get(tool.name());
      if (handler == null) {
        throw new IllegalStateException("no handler for tool " + tool.name());
      }
      out.add(
          SyncToolSpecification.builder()
              .tool(tool)
              .callHandler((exchange, request) -> call(tool.name(), handler, request.arguments()))
              .build());
    }
    return out;
  }

  /** Each tool's {@link BrainTools} method, by tool name (shared with the agent's local tools). */
  static Map<String, Tool> handlers(BrainTools tools) {
    return Map.ofEntries(
        Map.entry("brain_research_pack", tools::researchPack),
        Map.entry("brain_search", tools::search),
        Map.entry("brain_get", tools::get),
        Map.entry("brain_get_many", tools::getMany),
        Map.entry("brain_related", tools::related),
        Map.entry("brain_topic_brief", tools::topicBrief),
        Map.entry("brain_topic_map", tools::topicMap),
        Map.entry("brain_entities", tools::entities),
        Map.entry("brain_entity", tools::entity),
        Map.entry("brain_status", tools::status),
        Map.entry("brain_summarize", tools::summarize),
        Map.entry("brain_extract", tools::extract),
        Map.entry("brain_research_note", tools::researchNote));
  }

  /** A tool's implementation. */
  @FunctionalInterface
  interface Tool {
    BrainTools.ToolOutput apply(Map<String, Object> arguments) throws IOException;
  }

  /** Runs a tool; bad arguments and failures are tool errors with a message, never a trace. */
  static CallToolResult call(String name, Tool tool, Map<String, Object> arguments) {
    try {
      BrainTools.ToolOutput output = tool.apply(arguments);
      return CallToolResult.builder()
          .structuredContent(output.structured())
          .addTextContent(output.text())
          .build();
    } catch (IllegalArgumentException e) {
      return CallToolResult.builder().isError(true).addTextContent(e.getMessage()).build();
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, name + " failed", e);
      return CallToolResult.builder()
          .isError(true)
          .addTextContent(
              name + " failed: " + (e.getMessage() == null ? "internal error" : e.getMessage()))
          .build();
    }
  }

  private static SyncResourceSpecification statusResource(BrainTools tools) {
    var resource =
        McpSchema.Resource.builder(STATUS_URI, "brain_status")
            .title("Corpus status")
            .description(
                "Record and chunk counts by source type and kind, top tags, embedding model and"
                    + " index facts (the same JSON as the brain_status tool).")
            .mimeType("application/json")
            .build();
    return new SyncResourceSpecification(
        resource,
        (exchange, request) -> {
          try {
            return new McpSchema.ReadResourceResult(
                List.of(
                    new McpSchema.TextResourceContents(
                        STATUS_URI,
                        "application/json",
                        MAPPER.writeValueAsString(tools.status()),
                        null)),
                null);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  private static SyncResourceTemplateSpecification recordResource(BrainTools tools) {
    var template =
        McpSchema.ResourceTemplate.builder(RECORD_TEMPLATE, "brain_record")
            .title("A record")
            .description(
                "One record by its exact key, e.g. brain://record/note:notes/coffee/espresso.md"
                    + " (percent-encoding optional): metadata, links, backlinks and its raw text"
                    + " up to 20,000 characters, as JSON.")
            .mimeType("application/json")
            .build();
    return new SyncResourceTemplateSpecification(
        template,
        (exchange, request) -> {
          String key = recordKey(request.uri());
          try {
            var record =
                tools
                    .recordResource(key)
                    .orElseThrow(
                        () ->
                            McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND)
                                .message("no record with key '" + key + "'")
                                .build());
            return new McpSchema.ReadResourceResult(
                List.of(
                    new McpSchema.TextResourceContents(
                        request.uri(),
                        "application/json",
                        MAPPER.writeValueAsString(record),
                        null)),
                null);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  /** The key of a {@code brain://record/...} URI, percent-decoded. */
  static String recordKey(String uri) {
    String raw = uri.substring(RECORD_PREFIX.length());
    return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /**
   * URI templates as the SDK matches them, except that the record key may contain {@code /} (note
   * keys are paths): {@code brain://record/{key}} matches everything after the prefix.
   */
  private static final class RecordUris implements McpUriTemplateManagerFactory {
    private final DefaultMcpUriTemplateManagerFactory fallback =
        new DefaultMcpUriTemplateManagerFactory();

    @Override
    public McpUriTemplateManager create(String uriTemplate) {
      if (!RECORD_TEMPLATE.equals(uriTemplate)) {
        return fallback.create(uriTemplate);
      }
      return new McpUriTemplateManager() {
        @Override
        public List<String> getVariableNames() {
          return List.of("key");
        }

        @Override
        public Map<String, String> extractVariableValues(String uri) {
          return matches(uri) ? Map.of("key", recordKey(uri)) : Map.of();
        }

        @Override
        public boolean matches(String uri) {
          return uri != null
              && uri.startsWith(RECORD_PREFIX)
              && uri.length() > RECORD_PREFIX.length();
        }

        @Override
        public boolean isUriTemplate(String uri) {
          return uri != null && uri.contains("{");
        }
      };
    }
  }
}
