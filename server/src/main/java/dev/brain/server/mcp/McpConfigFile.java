package dev.brain.server.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MCP servers of one {@code .mcp.json} file, the format Claude Code and other MCP clients
 * share: {@code mcpServers} maps a server name to {@code command}/{@code args}/{@code env} (stdio)
 * or {@code url}/{@code headers} (Streamable HTTP). Unknown fields are ignored; {@code ${VAR}} and
 * {@code ${VAR:-default}} are expanded from the environment. brain's own settings live only under a
 * server's {@code x-brain} object:
 *
 * <ul>
 *   <li>{@code allow}: only these tools of the server (tool or toolset names); naming a tool here
 *       also lets a tool that does not declare itself read-only run
 *   <li>{@code deny}: never these tools (tool or toolset names); shown to no model, refused if
 *       called
 *   <li>{@code aliases}: tool name → the name the model sees (instead of {@code <server>__<tool>})
 *   <li>{@code toolsets}: toolset name → tool names, for use in {@code allow} and {@code deny}
 * </ul>
 */
record McpConfigFile(Path file, List<Server> servers) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern VARIABLE =
      Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}");
  static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  /**
   * One server entry.
   *
   * @param name the key under {@code mcpServers}
   * @param command the program and its arguments (stdio), or empty
   * @param env extra environment of the program (stdio)
   * @param url the Streamable HTTP endpoint, or null
   * @param headers HTTP headers sent with every request
   * @param type the entry's {@code type} field, or null
   * @param allow {@code x-brain.allow}, toolsets expanded (empty: every tool)
   * @param deny {@code x-brain.deny}, toolsets expanded
   * @param aliases {@code x-brain.aliases}
   */
  record Server(
      String name,
      List<String> command,
      Map<String, String> env,
      URI url,
      Map<String, String> headers,
      String type,
      Set<String> allow,
      Set<String> deny,
      Map<String, String> aliases) {}

  /**
   * Reads {@code file}, expanding variables from {@code env}.
   *
   * @throws McpConfigException naming the file and the key that is wrong
   */
  static McpConfigFile read(Path file, Map<String, String> env) {
    JsonNode root;
    try {
      root = JSON.readTree(Files.readString(file));
    } catch (JsonProcessingException e) {
      var at = e.getLocation();
      throw new McpConfigException(
          file
              + (at == null ? "" : " line " + at.getLineNr() + ", column " + at.getColumnNr())
              + ": not valid JSON: "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw new McpConfigException(file + ": cannot be read: " + e.getMessage());
    }
    var reader = new Reader(file, env);
    if (root == null || !root.isObject()) {
      throw reader.error("(top level)", "expected a JSON object with 'mcpServers'");
    }
    JsonNode servers = root.get("mcpServers");
    if (servers == null) {
      throw reader.error("mcpServers", "missing; a .mcp.json file lists its servers there");
    }
    if (!servers.isObject()) {
      throw reader.error("mcpServers", "expected an object of server name to settings");
    }
    var out = new ArrayList<Server>();
    for (var entry : servers.properties()) {
      out.add(reader.server(entry.getKey(), entry.getValue()));
    }
    return new McpConfigFile(file, List.copyOf(out));
  }

  private record Reader(Path file, Map<String, String> env) {
    McpConfigException error(String key, String problem) {
      return new McpConfigException(file + ": " + key + ": " + problem);
    }

    Server server(String name, JsonNode node) {
      String at = "mcpServers." + name;
      if (!node.isObject()) {
        throw error(at, "expected an object with 'command' (stdio) or 'url' (HTTP)");
      }
      if (!TOOL_NAME.matcher(name).matches()) {
        throw error(at, "a server name may use letters, digits, '_' and '-' (at most 64)");
      }
      String type = optionalText(node, at + ".type");
      String command = optionalText(node, at + ".command");
      String url = optionalText(node, at + ".url");
      if (command == null && url == null) {
        throw error(at, "needs 'command' (a stdio server) or 'url' (a Streamable HTTP server)");
      }
      if (command != null && url != null) {
        throw error(at, "has both 'command' and 'url'; keep one");
      }
      var cmd = new ArrayList<String>();
      URI uri = null;
      if (command != null) {
        if (command.isBlank()) {
          throw error(at + ".command", "is empty");
        }
        cmd.add(command);
        cmd.addAll(strings(node.get("args"), at + ".args"));
      } else {
        try {
          uri = new URI(url);
        } catch (URISyntaxException e) {
          throw error(at + ".url", "not a URL: " + e.getMessage());
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
          throw error(at + ".url", "expected an http:// or https:// URL, got '" + url + "'");
        }
      }
      var env = stringMap(node.get("env"), at + ".env");
      var headers = stringMap(node.get("headers"), at + ".headers");
      JsonNode brain = node.get("x-brain");
      Set<String> allow = Set.of();
      Set<String> deny = Set.of();
      Map<String, String> aliases = Map.of();
      if (brain != null) {
        String xb = at + ".x-brain";
        if (!brain.isObject()) {
          throw error(xb, "expected an object with allow, deny, aliases or toolsets");
        }
        var toolsets = new LinkedHashMap<String, List<String>>();
        JsonNode sets = brain.get("toolsets");
        if (sets != null) {
          if (!sets.isObject()) {
            throw error(xb + ".toolsets", "expected an object of toolset name to tool names");
          }
          for (var set : sets.properties()) {
            toolsets.put(set.getKey(), strings(set.getValue(), xb + ".toolsets." + set.getKey()));
          }
        }
        allow = expand(strings(brain.get("allow"), xb + ".allow"), toolsets);
        deny = expand(strings(brain.get("deny"), xb + ".deny"), toolsets);
        aliases = stringMap(brain.get("aliases"), xb + ".aliases");
        for (var alias : aliases.entrySet()) {
          if (!TOOL_NAME.matcher(alias.getValue()).matches()) {
            throw error(
                xb + ".aliases." + alias.getKey(),
                "'"
                    + alias.getValue()
                    + "' is not a tool name (letters, digits, '_' and '-', at most 64)");
          }
        }
      }
      return new Server(
          name, List.copyOf(cmd), env, uri, headers, type, allow, deny, Map.copyOf(aliases));
    }

    private static Set<String> expand(List<String> names, Map<String, List<String>> toolsets) {
      var out = new LinkedHashSet<String>();
      for (String n : names) {
        out.addAll(toolsets.getOrDefault(n, List.of(n)));
      }
      return Set.copyOf(out);
    }

    private String optionalText(JsonNode node, String key) {
      JsonNode v = node.get(key.substring(key.lastIndexOf('.') + 1));
      if (v == null || v.isNull()) {
        return null;
      }
      if (!v.isTextual()) {
        throw error(key, "expected a string, got " + v);
      }
      return expandVariables(v.asText(), key);
    }

    private List<String> strings(JsonNode node, String key) {
      if (node == null || node.isNull()) {
        return List.of();
      }
      if (!node.isArray()) {
        throw error(key, "expected an array of strings, got " + node);
      }
      var out = new ArrayList<String>();
      for (int i = 0; i < node.size(); i++) {
        JsonNode v = node.get(i);
        if (!v.isTextual()) {
          throw error(key + "[" + i + "]", "expected a string, got " + v);
        }
        out.add(expandVariables(v.asText(), key + "[" + i + "]"));
      }
      return out;
    }

    private Map<String, String> stringMap(JsonNode node, String key) {
      if (node == null || node.isNull()) {
        return Map.of();
      }
      if (!node.isObject()) {
        throw error(key, "expected an object of names to strings, got " + node);
      }
      var out = new LinkedHashMap<String, String>();
      for (var e : node.properties()) {
        JsonNode v = e.getValue();
        if (!v.isTextual() && !v.isNumber() && !v.isBoolean()) {
          throw error(key + "." + e.getKey(), "expected a string, got " + v);
        }
        out.put(e.getKey(), expandVariables(v.asText(), key + "." + e.getKey()));
      }
      return out;
    }

    /** {@code ${VAR}} and {@code ${VAR:-default}} from the environment, as Claude Code does. */
    private String expandVariables(String text, String key) {
      Matcher m = VARIABLE.matcher(text);
      var out = new StringBuilder();
      while (m.find()) {
        String value = env.get(m.group(1));
        if (value == null) {
          if (m.group(2) == null) {
            throw error(
                key,
                "uses ${" + m.group(1) + "}, which is not set (give a default: ${NAME:-value})");
          }
          value = m.group(3);
        }
        m.appendReplacement(out, Matcher.quoteReplacement(value));
      }
      m.appendTail(out);
      return out.toString();
    }
  }
}
