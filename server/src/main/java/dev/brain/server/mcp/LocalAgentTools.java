package dev.brain.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.research.agent.AgentTool;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * brain's MCP tools as the agent's local tools: the same {@link BrainTools} implementations, names,
 * descriptions and input schemas ({@code mcp/tools.json}), so an agent run and an external MCP
 * client see one tool surface. All read-only, all evidence (their record keys may be cited).
 */
public final class LocalAgentTools {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LocalAgentTools() {}

  /** The local tools over {@code tools}, in catalogue order. */
  public static List<AgentTool> over(BrainTools tools) {
    Map<String, BrainMcp.Tool> handlers = BrainMcp.handlers(tools);
    var out = new ArrayList<AgentTool>();
    for (McpSchema.Tool tool : ToolCatalog.tools()) {
      out.add(new Local(tool, handlers.get(tool.name())));
    }
    return out;
  }

  private record Local(McpSchema.Tool tool, BrainMcp.Tool handler) implements AgentTool {
    @Override
    public String name() {
      return tool.name();
    }

    @Override
    public String description() {
      return tool.description();
    }

    @Override
    public String parametersJsonSchema() {
      try {
        return JSON.writeValueAsString(tool.inputSchema());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public boolean evidence() {
      return true;
    }

    @Override
    public String call(JsonNode arguments) throws ToolFailure {
      Map<String, Object> args = JSON.convertValue(arguments, BrainTools.MAP_TYPE);
      try {
        return JSON.writeValueAsString(handler.apply(args).structured());
      } catch (IllegalArgumentException e) {
        throw new ToolFailure(e.getMessage(), e);
      } catch (IOException | RuntimeException e) {
        throw new ToolFailure(e.getMessage() == null ? "an internal error" : e.getMessage(), e);
      }
    }
  }
}
