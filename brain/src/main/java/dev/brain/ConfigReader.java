package dev.brain;

import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionsFile;
import io.helidon.config.Config;
import java.io.IOException;
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

/**
 * Reads one value at a time from the layers of {@link BrainConfig} (flag, environment variable,
 * {@code brain.yaml}, default) and remembers where each came from. The file and the lines of its
 * keys are {@link ConfigFile}'s; how a value is parsed and shown is {@link ConfigValues}'.
 */
final class ConfigReader {
  /** Keys that moved, with their new name. */
  private static final Map<String, String> MOVED =
      Map.of(
          "server.model", "chat.model",
          "server.heartbeat-interval-ms", "server.heartbeat-interval (a duration such as 5s)");

  private final ConfigFile file;
  private final Map<String, String> env;
  private final Map<String, BrainConfig.Flag> flags;
  private final Map<String, BrainConfig.Setting> settings = new LinkedHashMap<>();

  private ConfigReader(
      ConfigFile file, Map<String, String> env, Map<String, BrainConfig.Flag> flags) {
    this.file = file;
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
    return new ConfigReader(ConfigFile.open(file), env, byKey);
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
    Path path = file.path();
    if (!CollectionsFile.FILE_NAME.equals(String.valueOf(path.getFileName()))) {
      return List.of();
    }
    List<CollectionRoot> roots;
    try {
      roots = CollectionsFile.of(path.toAbsolutePath().getParent()).read();
    } catch (IOException e) {
      throw new BrainConfigException(path + ": cannot be read: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw new BrainConfigException(e.getMessage());
    }
    List<Integer> entryLines = file.entryLines(COLLECTIONS, roots.size());
    for (int i = 0; i < roots.size(); i++) {
      CollectionRoot c = roots.get(i);
      String key = COLLECTIONS + "." + c.name();
      String source =
          i < entryLines.size() ? path + " line " + entryLines.get(i) : file.where(COLLECTIONS);
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
   * Fails on any key of the file that no read asked for (a typo such as {@code server.prot}).
   *
   * @throws BrainConfigException naming the key, its line and the known keys of its section
   */
  void rejectUnknownKeys() {
    file.leaves()
        .forEach(
            node -> {
              String key = node.key().toString();
              if (key.equals(COLLECTIONS) || key.startsWith(COLLECTIONS + ".")) {
                return; // the collections list: read and checked by collections()
              }
              String moved = MOVED.get(key);
              if (moved != null) {
                throw new BrainConfigException(
                    file.where(key) + ": '" + key + "' is now '" + moved + "'; rename the key");
              }
              if (!settings.containsKey(key)) {
                throw new BrainConfigException(
                    file.where(key) + ": unknown key '" + key + "'; " + known(key));
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
        ConfigValues::list,
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
        v -> ConfigValues.wholeNumber(v, min, max),
        "a whole number from " + min + " to " + max,
        String::valueOf);
  }

  double decimal(String key, String envVar, double fallback, double min, double max) {
    return read(
        key,
        envVar,
        fallback,
        v -> ConfigValues.number(v, min, max),
        "a number from " + min + " to " + max,
        String::valueOf);
  }

  boolean bool(String key, String envVar, boolean fallback) {
    return read(key, envVar, fallback, ConfigValues::bool, "true, false", String::valueOf);
  }

  /** A duration from {@code min} to {@link ConfigValues#MAX_DURATION}. */
  Duration duration(String key, String envVar, Duration fallback, Duration min) {
    return duration(key, envVar, fallback, min, ConfigValues.MAX_DURATION);
  }

  Duration duration(String key, String envVar, Duration fallback, Duration min, Duration max) {
    return read(
        key,
        envVar,
        fallback,
        v -> ConfigValues.duration(v, min, max),
        "a duration from "
            + ConfigValues.show(min)
            + " to "
            + ConfigValues.show(max)
            + ", written like 500ms, 20s, 3m, 2h or 180d",
        ConfigValues::show);
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
    Config node = file.node(key);
    if (flag != null) {
      raw = flag.value();
      source = "flag " + flag.name();
    } else if (fromEnv != null && !fromEnv.isBlank()) {
      raw = fromEnv;
      source = "env " + envVar;
    } else if (node != null) {
      if (!node.isLeaf()) {
        throw new BrainConfigException(
            file.where(key) + ": '" + key + "' takes a value: " + allowed);
      }
      raw = node.asString().orElse("");
      source = file.where(key);
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
              + allowed,
          flag != null);
    }
    settings.put(key, new BrainConfig.Setting(key, shown(show, value), source, envVar));
    return value;
  }

  private static <T> String shown(Function<T, String> show, T value) {
    return value == null ? "(none)" : show.apply(value);
  }
}
