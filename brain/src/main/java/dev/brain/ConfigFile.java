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
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * {@code brain.yaml} as {@link ConfigReader} sees it: its values, read by Helidon Config, and the
 * line of each key, asked once more of SnakeYAML (which Helidon parses with), so errors and {@code
 * brain config} can point at it. A missing file has no values and no lines; a file without settings
 * (only collections, which ConfigReader reads through CollectionsFile) is not given to Helidon.
 */
final class ConfigFile {
  private final Path path;
  private final Config yaml; // null: no settings (Helidon's classes are never loaded)
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
      return new ConfigFile(path, null, Map.of());
    }
    String text;
    try {
      if (Files.size(path) > 4L * MAX_CHARS) {
        throw new BrainConfigException(
            path + ": larger than " + MAX_CHARS + " characters; that is no brain configuration");
      }
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BrainConfigException(path + ": cannot be read: " + e.getMessage());
    }
    Node root = compose(path, text);
    Map<String, Integer> lines = keyLines(path, root);
    if (onlyCollections(root) && constructs(root)) {
      // Helidon would hold nothing but the collections, which ConfigReader reads through
      // CollectionsFile and never asks it for: without building it (about 270 classes and 130
      // lambdas) a cold `brain search` uses about 40 ms less CPU
      // (bench/results/cold-cli-2026-11-29.md).
      return new ConfigFile(path, null, lines);
    }
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

  /** The file's node at the dotted {@code key}, as Helidon reads it; null when there is none. */
  Config node(String key) {
    if (yaml == null) {
      return null;
    }
    Config node = yaml.get(key);
    return node.exists() ? node : null;
  }

  /** The file's values (the leaves of its tree), as Helidon reads them. */
  Stream<Config> leaves() {
    return yaml == null ? Stream.empty() : yaml.traverse().filter(Config::isLeaf);
  }

  /** {@code <file> line N} for a key of the file. */
  String where(String key) {
    Integer line = lines.get(key);
    return line == null ? path + " (" + key + ")" : path + " line " + line;
  }

  /**
   * Most references to a list or map ({@code *name} of an {@code &name} list): no file needs any.
   */
  static final int MAX_ALIASES = 50;

  /** Most values the file may hold once its aliases are expanded: far above any real file. */
  static final int MAX_VALUES = 10_000;

  /** Most characters of the file. */
  static final int MAX_CHARS = 1 << 20;

  /**
   * The fields of a {@code collections:} entry, as {@code dev.brain.index.CollectionsFile} reads
   * them.
   */
  static final List<String> COLLECTION_FIELDS = List.of("name", "root", "excludes", "max_file_mb");

  /** The file's YAML as a node tree; its YAML errors with their line. */
  private static Node compose(Path file, String text) {
    if (text.length() > MAX_CHARS) {
      throw new BrainConfigException(
          file + ": larger than " + MAX_CHARS + " characters; that is no brain configuration");
    }
    var options = new LoaderOptions();
    options.setMaxAliasesForCollections(MAX_ALIASES);
    options.setAllowRecursiveKeys(false);
    options.setAllowDuplicateKeys(false);
    options.setCodePointLimit(MAX_CHARS);
    Node root;
    try (Reader in = new StringReader(text)) {
      root = new Yaml(options).compose(in);
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
      if (String.valueOf(e.getMessage()).contains("aliases")) {
        throw tooManyAliases(file, "more than " + MAX_ALIASES + " references to lists or maps");
      }
      throw new BrainConfigException(file + ": not valid YAML: " + e.getMessage());
    } catch (IOException e) {
      throw new BrainConfigException(file + ": cannot be read: " + e.getMessage());
    }
    return root;
  }

  /**
   * The line of every key in the file ({@code root}, as {@link #compose} made it), by dotted key.
   * The file is checked before Helidon reads it: no alias bomb (billion laughs), no duplicate key,
   * and collections with known fields and distinct names.
   */
  private static Map<String, Integer> keyLines(Path file, Node root) {
    var lines = new HashMap<String, Integer>();
    if (root == null) {
      return lines;
    }
    if (!(root instanceof MappingNode)) {
      throw new BrainConfigException(
          file + " line 1: expected sections such as 'server:' and 'index:', found a single value");
    }
    if (count(root, 0) > MAX_VALUES) {
      throw tooManyAliases(file, "its aliases expand to more than " + MAX_VALUES + " values");
    }
    collect(file, (MappingNode) root, "", lines);
    checkCollections(file, (MappingNode) root);
    return lines;
  }

  /**
   * Whether the file ({@code root}) holds no setting: nothing but a {@code collections:} list of
   * entries with scalar fields (an {@code excludes} list of scalars), as {@code brain add} writes
   * it, or nothing at all. Anything else goes through Helidon as before, whose keys, values and
   * errors ConfigReader reports.
   */
  private static boolean onlyCollections(Node root) {
    if (root == null) {
      return true;
    }
    if (!(root instanceof MappingNode map)) {
      return false;
    }
    for (NodeTuple tuple : map.getValue()) {
      if (!(tuple.getKeyNode() instanceof ScalarNode key)
          || !key.getValue().equals(ConfigReader.COLLECTIONS)
          || !(tuple.getValueNode() instanceof SequenceNode list)) {
        return false;
      }
      for (Node item : list.getValue()) {
        if (!(item instanceof MappingNode entry)) {
          return false;
        }
        // Its fields are known ones: keyLines refused the file otherwise (checkCollections).
        for (NodeTuple field : entry.getValue()) {
          if (!(field.getKeyNode() instanceof ScalarNode name)
              || !(field.getValueNode() instanceof ScalarNode
                  || name.getValue().equals("excludes")
                      && field.getValueNode() instanceof SequenceNode excludes
                      && excludes.getValue().stream().allMatch(ScalarNode.class::isInstance))) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /**
   * Whether SnakeYAML makes values of the file's node tree {@code root} (composed once, by {@link
   * #compose}) as Helidon's YAML parser does (its safe constructor, default options): an explicit
   * tag it cannot construct (such as {@code !!int abc}) fails there, and such a file goes through
   * Helidon for its error.
   */
  private static boolean constructs(Node root) {
    try {
      new SafeConstructor(new LoaderOptions()) {
        Object values() {
          return constructDocument(root);
        }
      }.values();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static BrainConfigException tooManyAliases(Path file, String what) {
    return new BrainConfigException(
        file
            + ": too many aliases ("
            + what
            + "); brain's configuration needs no YAML aliases: write the values out");
  }

  /**
   * The values under {@code node} with every alias expanded, counted up to just past {@link
   * #MAX_VALUES} (an alias to itself would never end).
   */
  private static int count(Node node, int sofar) {
    int n = sofar + 1;
    if (n > MAX_VALUES) {
      return n;
    }
    if (node instanceof MappingNode map) {
      for (NodeTuple tuple : map.getValue()) {
        n = count(tuple.getValueNode(), count(tuple.getKeyNode(), n));
        if (n > MAX_VALUES) {
          return n;
        }
      }
    } else if (node instanceof SequenceNode seq) {
      for (Node item : seq.getValue()) {
        n = count(item, n);
        if (n > MAX_VALUES) {
          return n;
        }
      }
    }
    return n;
  }

  private static void collect(
      Path file, MappingNode node, String prefix, Map<String, Integer> lines) {
    var seen = new HashMap<String, Integer>();
    for (NodeTuple tuple : node.getValue()) {
      if (!(tuple.getKeyNode() instanceof ScalarNode key)) {
        continue;
      }
      String name = prefix + key.getValue();
      int line = key.getStartMark().getLine() + 1;
      Integer first = seen.putIfAbsent(key.getValue(), line);
      if (first != null) {
        throw new BrainConfigException(
            file
                + " line "
                + line
                + ": duplicate key '"
                + name
                + "' (first on line "
                + first
                + "); keep one of them");
      }
      lines.putIfAbsent(name, line);
      if (tuple.getValueNode() instanceof MappingNode child) {
        collect(file, child, name + ".", lines);
      } else if (tuple.getValueNode() instanceof SequenceNode list) {
        for (int i = 0; i < list.getValue().size(); i++) {
          if (list.getValue().get(i) instanceof MappingNode item) {
            collect(file, item, name + "[" + (i + 1) + "].", new HashMap<>());
          }
        }
      }
    }
  }

  /** Each {@code collections:} entry has only known fields, and no two share a name. */
  private static void checkCollections(Path file, MappingNode root) {
    SequenceNode list = null;
    for (NodeTuple tuple : root.getValue()) {
      if (tuple.getKeyNode() instanceof ScalarNode key
          && key.getValue().equals(ConfigReader.COLLECTIONS)
          && tuple.getValueNode() instanceof SequenceNode seq) {
        list = seq;
      }
    }
    if (list == null) {
      return;
    }
    var names = new HashMap<String, Integer>();
    for (Node item : list.getValue()) {
      if (!(item instanceof MappingNode entry)) {
        continue; // CollectionsFile names an entry that is no map
      }
      for (NodeTuple tuple : entry.getValue()) {
        if (!(tuple.getKeyNode() instanceof ScalarNode key)) {
          continue;
        }
        int line = key.getStartMark().getLine() + 1;
        if (!COLLECTION_FIELDS.contains(key.getValue())) {
          throw new BrainConfigException(
              file
                  + " line "
                  + line
                  + ": unknown field '"
                  + key.getValue()
                  + "' in a collection; the fields of a collection are: "
                  + String.join(", ", COLLECTION_FIELDS));
        }
        if (key.getValue().equals("name") && tuple.getValueNode() instanceof ScalarNode name) {
          Integer first = names.putIfAbsent(name.getValue(), line);
          if (first != null) {
            throw new BrainConfigException(
                file
                    + " line "
                    + line
                    + ": a second collection named '"
                    + name.getValue()
                    + "' (the first is on line "
                    + first
                    + "); collection names must differ: rename or remove one");
          }
        }
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
