package dev.brain.solrcluster;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * A local SolrCloud for brain: an embedded ZooKeeper and {@code --nodes} Solr nodes on 127.0.0.1,
 * from Solr's own Maven artifacts ({@code MiniSolrCloudCluster}). It runs in a JVM of its own (Solr
 * 9 runs on Lucene 9, brain on Lucene 10) and is driven through stdin and stdout:
 *
 * <ul>
 *   <li>prints {@code READY <url>,<url>,... <zk host:port>} once every node is up;
 *   <li>{@code stop N} stops node N (from 0) and prints {@code STOPPED N}; {@code start N} starts
 *       it again on the same port and prints {@code STARTED N};
 *   <li>{@code quit}, or the end of stdin (its parent died), shuts everything down and exits.
 * </ul>
 *
 * <p>Arguments: {@code --nodes N} (default 2), {@code --port P} (node i listens on P + i; default
 * any free port), {@code --dir DIR} (ZooKeeper and index data; default a new temporary folder,
 * deleted on exit), {@code --until-killed} (ignore stdin and run until the process is stopped, as
 * {@code bin/solr-cluster} does; the cluster shuts down on the way out).
 */
public final class LocalCluster {
  private LocalCluster() {}

  public static void main(String[] args) throws Exception {
    int nodes = 2;
    int port = 0;
    Path dir = null;
    boolean untilKilled = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--nodes" -> nodes = Integer.parseInt(args[++i]);
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--dir" -> dir = Path.of(args[++i]);
        case "--until-killed" -> untilKilled = true;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    boolean temporary = dir == null;
    if (temporary) {
      dir = Files.createTempDirectory("brain-solr-cluster");
    }
    Files.createDirectories(dir);
    // Loopback only.
    System.setProperty("host", "127.0.0.1");
    System.setProperty("solr.jetty.host", "127.0.0.1");
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    var cluster = new MiniSolrCloudCluster.Builder(0, dir).build();
    try {
      var runners = new ArrayList<JettySolrRunner>();
      for (int i = 0; i < nodes; i++) {
        int p = port == 0 ? 0 : port + i;
        runners.add(
            cluster.startJettySolrRunner(
                "node" + i,
                "/solr",
                JettyConfig.builder().setPort(p).stopAtShutdown(true).build()));
      }
      cluster.waitForAllNodes(60);
      out.println("READY " + urls(runners) + " " + cluster.getZkServer().getZkAddress());
      if (untilKilled) {
        waitForShutdown(cluster);
        return;
      }
      serve(cluster, runners, out);
    } finally {
      cluster.shutdown();
      if (temporary) {
        deleteQuietly(dir);
      }
    }
    out.println("BYE");
    System.exit(0); // Solr and ZooKeeper leave non-daemon threads behind
  }

  private static void serve(
      MiniSolrCloudCluster cluster, List<JettySolrRunner> runners, PrintStream out)
      throws Exception {
    var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] words = line.strip().split("\\s+");
      switch (words[0]) {
        case "stop" -> {
          int n = Integer.parseInt(words[1]);
          cluster.stopJettySolrRunner(runners.get(n));
          cluster.waitForJettyToStop(runners.get(n));
          out.println("STOPPED " + n);
        }
        case "start" -> {
          int n = Integer.parseInt(words[1]);
          cluster.startJettySolrRunner(runners.get(n), true);
          cluster.waitForNode(runners.get(n), 60);
          out.println("STARTED " + n);
        }
        case "quit" -> {
          return;
        }
        default -> out.println("UNKNOWN " + line);
      }
    }
  }

  /** Blocks until the JVM is asked to stop (Ctrl-C, kill), then shuts the cluster down. */
  private static void waitForShutdown(MiniSolrCloudCluster cluster) throws InterruptedException {
    var done = new java.util.concurrent.CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    cluster.shutdown();
                  } catch (Exception e) {
                    System.err.println("shutting the cluster down failed: " + e);
                  }
                  done.countDown();
                }));
    done.await();
  }

  private static String urls(List<JettySolrRunner> runners) {
    var urls = new ArrayList<String>();
    runners.forEach(r -> urls.add(r.getBaseUrl().toString()));
    return String.join(",", urls);
  }

  private static void deleteQuietly(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (Exception e) {
      // a temporary folder; the OS cleans up what is left
    }
  }
}
