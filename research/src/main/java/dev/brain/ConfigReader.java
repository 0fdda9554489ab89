package dev.brain;

import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import io.helidon.config.Config;
import io.helidon.config.ConfigException;
import io.helidon.config.ConfigSources;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Reads one value at a time from the layers of {@link BrainConfig} (flag, environment variable,
 * {@code brain.yaml}, default) and remembers where each came from. The file is read by Helidon
 * Config; SnakeYAML (which Helidon parses with) is asked once more for the line of each key, so
 * errors and {@code brain config} can point at it.
 */
final class ConfigReader {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

  /** Keys that moved, with their new name. */
  private static final Map<String, String> MOVED =
      Map.of(
          "server.model", "chat.model",
          "server.heartbeat-interval-ms", "server.heartbeat-interval (a duration such as 5s)");

  private final Path file;
  private final Config yaml;
  private final Map<String, Integer> lines;
  private final Map<String, String> env;
  private final Map<String, BrainConfig.Flag> flags;
  private final Map<String, BrainConfig.Setting> settings = new LinkedHashMap<>();

  private ConfigReader(
      Path file,
      Config yaml,
      Map<String, Integer> lines,
      Map<String, String> env,
      Map<String, BrainConfig.Flag> flags) {
    this.file = file;
    this.yaml = yaml;
    this.lines = lines;
    this.env = env;
    this.flags = flags;
  }

  /**
   * A reader over {@code file} (which may be missing), {@code env} and {@code flags}.
   *
   * @throws BrainConfigException if the file cannot be read or is not valid YAML
   */
  static ConfigReader open(Path file, Map<String, String> env, List<BrainConfig.Flag> flags) {
    var byKey = new HashMap<String, BrainConfig.Flag>();
    flags.forEach(f -> byKey.put(f.key(), f));
    if (!Files.isRegularFile(file)) {
      return new ConfigReader(file, Config.empty(), Map.of(), env, byKey);
    }
    Map<String, Integer> lines = keyLines(file);
    Config yaml;
    try {
      yaml =
          Config.builder()
              .disableEnvironmentVariablesSource()
              .disableSystemPropertiesSource()
              .disableValueResolving()
              .addSource(ConfigSources.file(file))
              .build();
    } catch (ConfigException e) {
      throw new BrainConfigException(file + ": cannot be read: " + e.getMessage());
    }
    return new ConfigReader(file, yaml, lines, env, byKey);
  }

  /** The line of every key in the file, by dotted key; the file's YAML errors with their line. */
  private static Map<String, Integer> keyLines(Path file) {
    Node root;
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
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

  /** Where each value read so far came from, in reading order. */
  List<BrainConfig.Setting> settings() {
    return List.copyOf(settings.values());
  }

  /**
   * The section {@code brain add} writes; {@code dev.brain.index.CollectionsFile} reads, checks and
   * rewrites it ({@link #collections()}).
   */
  static final String COLLECTIONS = "collections";

  /**
   * The {@code collections:} list of the file, read and checked by {@link CollectionsFile} (which
   * also rewrites that section alone for {@code brain add} and {@code brain remove}); one setting
   * {@code collections.<name>} per collection, with the line of its entry.
   *
   * @throws BrainConfigException naming the file and the entry when the section is malformed
   */
  List<CollectionRoot> collections() {
    if (!CollectionsFile.FILE_NAME.equals(String.valueOf(file.getFileName()))) {
      return List.of();
    }
    List<CollectionRoot> roots;
    try {
      roots = CollectionsFile.of(file.toAbsolutePath().getParent()).read();
    } catch (IOException e) {
      throw new BrainConfigException(file + ": cannot be read: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new BrainConfigException(e.getMessage());
    }
    List<Integer> entryLines = entryLines(roots.size());
    for (int i = 0; i < roots.size(); i++) {
      CollectionRoot c = roots.get(i);
      String key = COLLECTIONS + "." + c.name();
      String source =
          i < entryLines.size() ? file + " line " + entryLines.get(i) : where(COLLECTIONS);
      settings.put(key, new BrainConfig.Setting(key, describe(c), source, null));
    }
    return roots;
  }

  /** A collection as {@code brain config} shows it: its root, excludes and size cap. */
  private static String describe(CollectionRoot c) {
    var parts = new ArrayList<String>();
    if (!c.excludes().isEmpty()) {
      parts.add("excludes " + String.join(", ", c.excludes()));
    }
    if (c.maxFileBytes() != CollectionRoot.DEFAULT_MAX_FILE_BYTES) {
      parts.add("max " + (c.maxFileBytes() >> 20) + " MB per file");
    }
    return c.root() + (parts.isEmpty() ? "" : " (" + String.join("; ", parts) + ")");
  }

  /**
   * The lines of the first {@code count} list items ({@code - name: ...}) of the block-style {@code
   * collections:} section; fewer when the section is written another way.
   */
  private List<Integer> entryLines(int count) {
    Integer sectionLine = lines.get(COLLECTIONS);
    if (sectionLine == null || count == 0) {
      return List.of();
    }
    List<String> text;
    try {
      text = Files.readAllLines(file, StandardCharsets.UTF_8);
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

  /**
   * Fails on any key of the file that no read asked for (a typo such as {@code server.prot}).
   *
   * @throws BrainConfigException naming the key, its line and the known keys of its section
   */
  void rejectUnknownKeys() {
    yaml.traverse()
        .filter(node -> node.isLeaf())
        .forEach(
            node -> {
              String key = node.key().toString();
              if (key.equals(COLLECTIONS) || key.startsWith(COLLECTIONS + ".")) {
                return; // the collections list: read and checked by collections()
              }
              String moved = MOVED.get(key);
              if (moved != null) {
                throw new BrainConfigException(
                    where(key) + ": '" + key + "' is now '" + moved + "'; rename the key");
              }
              if (!settings.containsKey(key)) {
                throw new BrainConfigException(
                    where(key) + ": unknown key '" + key + "'; " + known(key));
              }
            });
  }

  private String known(String key) {
    int dot = key.indexOf('.');
    String section = dot < 0 ? key : key.substring(0, dot);
    var inSection = new TreeSet<String>();
    var sections = new TreeSet<String>(List.of(COLLECTIONS));
    for (String k : settings.keySet()) {
      int d = k.indexOf('.');
      if (d < 0) {
        continue;
      }
      sections.add(k.substring(0, d));
      if (k.startsWith(section + ".")) {
        inSection.add(k);
      }
    }
    return inSection.isEmpty()
        ? "the sections are: " + String.join(", ", sections)
        : "the keys of '" + section + "' are: " + String.join(", ", inSection);
  }

  String string(String key, String envVar, String fallback) {
    return read(key, envVar, fallback, v -> v, "any text", v -> v);
  }

  /** A comma-separated list of words; default empty. */
  List<String> list(String key, String envVar) {
    return read(
        key,
        envVar,
        List.of(),
        v ->
            java.util.Arrays.stream(v.split(","))
                .map(String::strip)
                .filter(w -> !w.isEmpty())
                .toList(),
        "a comma-separated list",
        v -> v.isEmpty() ? "(none)" : String.join(", ", v));
  }

  String secret(String key, String envVar) {
    return read(key, envVar, null, v -> v, "any text", v -> "(set)");
  }

  int integer(String key, String envVar, int fallback, int min, int max) {
    return read(
        key,
        envVar,
        fallback,
        v -> {
          int n;
          try {
            n = Integer.parseInt(v.strip());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number");
          }
          if (n < min || n > max) {
            throw new IllegalArgumentException("out of range");
          }
          return n;
        },
        "a whole number from " + min + " to " + max,
        String::valueOf);
  }

  double decimal(String key, String envVar, double fallback, double min, double max) {
    return read(
        key,
        envVar,
        fallback,
        v -> {
          double n;
          try {
            n = Double.parseDouble(v.strip());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number");
          }
          if (!(n >= min && n <= max)) {
            throw new IllegalArgumentException("out of range");
          }
          return n;
        },
        "a number from " + min + " to " + max,
        String::valueOf);
  }

  boolean bool(String key, String envVar, boolean fallback) {
    return read(
        key,
        envVar,
        fallback,
        v -> {
          String s = v.strip().toLowerCase(Locale.ROOT);
          if (!s.equals("true") && !s.equals("false")) {
            throw new IllegalArgumentException("not a boolean");
          }
          return s.equals("true");
        },
        "true, false",
        String::valueOf);
  }

  Duration duration(String key, String envVar, Duration fallback, Duration min) {
    return read(
        key,
        envVar,
        fallback,
        v -> {
          var m = DURATION.matcher(v.strip().toLowerCase(Locale.ROOT));
          if (!m.matches()) {
            throw new IllegalArgumentException("not a duration");
          }
          long n = Long.parseLong(m.group(1));
          Duration d =
              switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
              };
          if (d.compareTo(min) < 0) {
            throw new IllegalArgumentException("too short");
          }
          return d;
        },
        "a duration of at least " + show(min) + ", written like 500ms, 20s, 3m, 2h or 180d",
        ConfigReader::show);
  }

  /** One of {@code allowed} (case-insensitive), by its name. */
  <T> T choice(String key, String envVar, T fallback, Map<String, T> allowed) {
    var byName = new LinkedHashMap<String, T>();
    allowed.forEach((name, value) -> byName.put(name.toLowerCase(Locale.ROOT), value));
    Function<T, String> name =
        value ->
            allowed.entrySet().stream()
                .filter(e -> e.getValue().equals(value))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse(String.valueOf(value));
    return read(
        key,
        envVar,
        fallback,
        v -> {
          T t = byName.get(v.strip().toLowerCase(Locale.ROOT));
          if (t == null) {
            throw new IllegalArgumentException("not one of the allowed values");
          }
          return t;
        },
        String.join(", ", allowed.keySet()),
        name);
  }

  /** A value that passes {@code check}; {@code allowed} describes what passes. */
  String checked(
      String key, String envVar, String fallback, Function<String, String> check, String allowed) {
    return read(key, envVar, fallback, check, allowed, v -> v);
  }

  private <T> T read(
      String key,
      String envVar,
      T fallback,
      Function<String, T> parse,
      String allowed,
      Function<T, String> show) {
    String raw;
    String source;
    BrainConfig.Flag flag = flags.get(key);
    String fromEnv = envVar == null ? null : env.get(envVar);
    Config node = yaml.get(key);
    if (flag != null) {
      raw = flag.value();
      source = "flag " + flag.name();
    } else if (fromEnv != null && !fromEnv.isBlank()) {
      raw = fromEnv;
      source = "env " + envVar;
    } else if (node.exists()) {
      if (!node.isLeaf()) {
        throw new BrainConfigException(where(key) + ": '" + key + "' takes a value: " + allowed);
      }
      raw = node.asString().orElse("");
      source = where(key);
    } else {
      settings.put(key, new BrainConfig.Setting(key, shown(show, fallback), "default", envVar));
      return fallback;
    }
    T value;
    try {
      value = parse.apply(raw);
    } catch (IllegalArgumentException e) {
      throw new BrainConfigException(
          source
              + ": "
              + key
              + " = '"
              + raw.strip()
              + "' is "
              + e.getMessage()
              + "; allowed: "
              + allowed);
    }
    settings.put(key, new BrainConfig.Setting(key, shown(show, value), source, envVar));
    return value;
  }

  private static <T> String shown(Function<T, String> show, T value) {
    return value == null ? "(none)" : show.apply(value);
  }

  /** {@code <file> line N} for a key of the file. */
  private String where(String key) {
    Integer line = lines.get(key);
    return line == null ? file + " (" + key + ")" : file + " line " + line;
  }

  static String show(Duration d) {
    if (d == null) {
      return "(none)";
    }
    long ms = d.toMillis();
    if (ms % 86_400_000 == 0) {
      return ms / 86_400_000 + "d";
    }
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
