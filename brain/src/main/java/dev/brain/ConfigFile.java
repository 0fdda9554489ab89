package dev.brain;

import io.helidon.common.media.type.MediaTypes;
import io.helidon.config.Config;
import io.helidon.config.ConfigException;
import io.helidon.config.ConfigSources;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * {@code brain.yaml} as {@link ConfigReader} sees it: its values, read by Helidon Config, and the
 * line of each key, asked once more of SnakeYAML (which Helidon parses with), so errors and {@code
 * brain config} can point at it. A missing file has no values and no lines.
 */
final class ConfigFile {
  private final Path path;
  private final Config yaml;
  private final Map<String, Integer> lines;

  private ConfigFile(Path path, Config yaml, Map<String, Integer> lines) {
    this.path = path;
    this.yaml = yaml;
    this.lines = lines;
  }

  /**
   * The file at {@code path}, which may be missing.
   *
   * @throws BrainConfigException if the file cannot be read or is not valid YAML
   */
  static ConfigFile open(Path path) {
    if (!Files.isRegularFile(path)) {
      return new ConfigFile(path, Config.empty(), Map.of());
    }
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BrainConfigException(path + ": cannot be read: " + e.getMessage());
    }
    Map<String, Integer> lines = keyLines(path, text);
    Config yaml;
    try {
      // The text already read, as a YAML source: a file source would read the file again and
      // digest it (for change polling brain does not use), which initializes the JDK's security
      // providers, a good part of a CLI command's start-up.
      yaml =
          Config.builder()
              .disableEnvironmentVariablesSource()
              .disableSystemPropertiesSource()
              .disableValueResolving()
              .addSource(ConfigSources.create(text, MediaTypes.APPLICATION_X_YAML))
              .build();
    } catch (ConfigException e) {
      throw new BrainConfigException(path + ": cannot be read: " + e.getMessage());
    }
    return new ConfigFile(path, yaml, lines);
  }

  /** Where the file is (or would be). */
  Path path() {
    return path;
  }

  /** The values of the file. */
  Config yaml() {
    return yaml;
  }

  /** {@code <file> line N} for a key of the file. */
  String where(String key) {
    Integer line = lines.get(key);
    return line == null ? path + " (" + key + ")" : path + " line " + line;
  }

  /** The line of every key in the file, by dotted key; the file's YAML errors with their line. */
  private static Map<String, Integer> keyLines(Path file, String text) {
    Node root;
    try (Reader in = new StringReader(text)) {
      root = new Yaml(new LoaderOptions()).compose(in);
    } catch (MarkedYAMLException e) {
      var mark = e.getProblemMark();
      throw new BrainConfigException(
          file
              + " line "
              + (mark.getLine() + 1)
              + ", column "
              + (mark.getColumn() + 1)
              + ": not valid YAML: "
              + e.getProblem());
    } catch (YAMLException e) {
      throw new BrainConfigException(file + ": not valid YAML: " + e.getMessage());
    } catch (IOException e) {
      throw new BrainConfigException(file + ": cannot be read: " + e.getMessage());
    }
    var lines = new HashMap<String, Integer>();
    if (root == null) {
      return lines;
    }
    if (!(root instanceof MappingNode)) {
      throw new BrainConfigException(
          file + " line 1: expected sections such as 'server:' and 'index:', found a single value");
    }
    collect((MappingNode) root, "", lines);
    return lines;
  }

  private static void collect(MappingNode node, String prefix, Map<String, Integer> lines) {
    for (NodeTuple tuple : node.getValue()) {
      if (!(tuple.getKeyNode() instanceof ScalarNode key)) {
        continue;
      }
      String name = prefix + key.getValue();
      lines.put(name, key.getStartMark().getLine() + 1);
      if (tuple.getValueNode() instanceof MappingNode child) {
        collect(child, name + ".", lines);
      }
    }
  }

  /**
   * The lines of the first {@code count} list items ({@code - name: ...}) of the block-style
   * section {@code section}; fewer when the section is written another way.
   */
  List<Integer> entryLines(String section, int count) {
    Integer sectionLine = lines.get(section);
    if (sectionLine == null || count == 0) {
      return List.of();
    }
    List<String> text;
    try {
      text = Files.readAllLines(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return List.of();
    }
    var out = new ArrayList<Integer>();
    for (int i = sectionLine; i < text.size() && out.size() < count; i++) {
      String line = text.get(i);
      boolean topLevel = !line.isEmpty() && !Character.isWhitespace(line.charAt(0));
      if (topLevel && !line.startsWith("-") && !line.startsWith("#")) {
        break;
      }
      if (line.stripLeading().startsWith("-")) {
        out.add(i + 1);
      }
    }
    return out;
  }
}
