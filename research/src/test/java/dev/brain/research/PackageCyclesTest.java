package dev.brain.research;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The research packages depend on each other one way only. The graph is read from the main sources
 * (the build compiles for Java 21, whose test code has no class-file API): every import and every
 * fully qualified name of a research type outside comments is an edge from the file's package to
 * that type's package. {@code jdeps -verbose:package research/target/classes} shows the same edges
 * from the compiled classes.
 */
class PackageCyclesTest {

  private static final Path SOURCES = Path.of("src/main/java");
  private static final String ROOT = "dev.brain.research";
  private static final Pattern REFERENCE =
      Pattern.compile("\\b(dev\\.brain\\.research(?:\\.[a-z][a-z0-9_]*)*)\\.(?:[A-Z]|\\*)");

  @Test
  void researchPackagesFormNoCycle() throws IOException {
    Map<String, Set<String>> graph = packageGraph();

    // The reader works: it sees the edges we know of (trace renders runs; the runner reads plans).
    assertThat(graph.get(ROOT + ".trace")).contains(ROOT + ".run");
    assertThat(graph.get(ROOT + ".run")).contains(ROOT + ".plan");

    assertThat(cycle(graph)).as("a package cycle in research (edges: %s)", graph).isEmpty();
  }

  /** Package to the research packages its main sources name. */
  private static Map<String, Set<String>> packageGraph() throws IOException {
    var graph = new TreeMap<String, Set<String>>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(SOURCES.resolve(ROOT.replace('.', '/')))) {
      files = walk.filter(f -> f.toString().endsWith(".java")).toList();
    }
    for (Path file : files) {
      String from = SOURCES.relativize(file.getParent()).toString().replace('/', '.');
      Set<String> to = graph.computeIfAbsent(from, k -> new TreeSet<>());
      for (String line : Files.readAllLines(file)) {
        Matcher m = REFERENCE.matcher(code(line));
        while (m.find()) {
          if (!m.group(1).equals(from)) {
            to.add(m.group(1));
          }
        }
      }
    }
    return graph;
  }

  /** The code of a line: nothing of a comment line, nothing after {@code //}. */
  private static String code(String line) {
    String t = line.strip();
    if (t.startsWith("*") || t.startsWith("/*") || t.startsWith("//")) {
      return "";
    }
    int comment = line.indexOf("//");
    return comment < 0 ? line : line.substring(0, comment);
  }

  /** A cycle as its packages in order (the first again at the end), or an empty list. */
  private static List<String> cycle(Map<String, Set<String>> graph) {
    var done = new TreeSet<String>();
    for (String start : graph.keySet()) {
      List<String> found = cycleFrom(start, graph, new ArrayList<>(), done);
      if (!found.isEmpty()) {
        return found;
      }
    }
    return List.of();
  }

  private static List<String> cycleFrom(
      String node, Map<String, Set<String>> graph, List<String> path, Set<String> done) {
    int seen = path.indexOf(node);
    if (seen >= 0) {
      var cycle = new ArrayList<>(path.subList(seen, path.size()));
      cycle.add(node);
      return cycle;
    }
    if (done.contains(node)) {
      return List.of();
    }
    path.add(node);
    for (String next : graph.getOrDefault(node, Set.of())) {
      List<String> found = cycleFrom(next, graph, path, done);
      if (!found.isEmpty()) {
        return found;
      }
    }
    path.remove(path.size() - 1);
    done.add(node);
    return List.of();
  }
}
