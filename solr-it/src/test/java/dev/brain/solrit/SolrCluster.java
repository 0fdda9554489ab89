package dev.brain.solrit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real SolrCloud (ZooKeeper and Solr nodes on 127.0.0.1) in a JVM of its own, started from the
 * module {@code solr-cluster} (Solr 9.10 and its Lucene 9 on that JVM's classpath only), driven by
 * its stdin and stdout protocol. Closing it shuts the cluster down and checks that no process of it
 * is left.
 */
final class SolrCluster implements AutoCloseable {

  private final Process process;
  private final Writer commands;
  private final BlockingQueue<String> lines;
  private final List<String> urls;
  private final String zkHost;

  private SolrCluster(Process process, String ready, BlockingQueue<String> lines) {
    this.process = process;
    this.lines = lines;
    this.commands = process.outputWriter(StandardCharsets.UTF_8);
    String[] words = ready.split(" ");
    this.urls = List.of(words[1].split(","));
    this.zkHost = words[2];
  }

  /** Starts {@code nodes} Solr nodes and waits until every one is up. */
  static SolrCluster start(int nodes, Path log) throws IOException, InterruptedException {
    Path target = Path.of(System.getProperty("brain.solr.cluster.dir", "../solr-cluster/target"));
    Path classpath = target.resolve("cluster.classpath");
    if (!Files.exists(classpath)) {
      throw new IllegalStateException(
          classpath
              + " is missing: build the module solr-cluster first (./mvnw -pl solr-cluster package)");
    }
    // An argument file: the classpath is longer than some platforms' command lines.
    Path args = Files.createTempFile("brain-solr-cluster", ".args");
    Files.writeString(
        args,
        "-cp \""
            + target.resolve("classes").toAbsolutePath()
            + ":"
            + Files.readString(classpath).strip()
            + "\"");
    String java = ProcessHandle.current().info().command().orElse("java");
    var command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx1g",
                "@" + args,
                "dev.brain.solrcluster.LocalCluster",
                "--nodes",
                Integer.toString(nodes)));
    Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
    var reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    var queue = new LinkedBlockingQueue<String>();
    Thread.ofPlatform()
        .daemon()
        .name("solr-cluster-stdout")
        .start(
            () -> {
              try {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                  queue.add(line);
                }
              } catch (IOException e) {
                // the process ended
              }
            });
    String ready = awaitLine(queue, process, "READY", 180, log);
    return new SolrCluster(process, ready, queue);
  }

  private static String awaitLine(
      BlockingQueue<String> queue, Process process, String prefix, int seconds, Path log)
      throws InterruptedException, IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      String line = queue.poll(1, TimeUnit.SECONDS);
      if (line != null && line.startsWith(prefix)) {
        return line;
      }
      if (line == null && !process.isAlive()) {
        throw new IllegalStateException(
            "the Solr cluster JVM exited with " + process.exitValue() + "; its log: " + tail(log));
      }
    }
    throw new IllegalStateException(
        "no '" + prefix + "' from the Solr cluster within " + seconds + " s; log: " + tail(log));
  }

  private static String tail(Path log) throws IOException {
    List<String> all = Files.readAllLines(log);
    return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
  }

  /** The nodes' base URLs, {@code http://127.0.0.1:PORT/solr}. */
  List<String> urls() {
    return urls;
  }

  /** ZooKeeper's {@code host:port/chroot}. */
  String zkHost() {
    return zkHost;
  }

  /** Stops node {@code n} (from 0) and waits until it is down. */
  void stop(int n) throws IOException, InterruptedException {
    send("stop " + n, "STOPPED " + n);
  }

  private void send(String command, String reply) throws IOException, InterruptedException {
    commands.write(command + "\n");
    commands.flush();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(1, TimeUnit.SECONDS);
      if (reply.equals(line)) {
        return;
      }
    }
    throw new IllegalStateException(
        "no '" + reply + "' from the Solr cluster after '" + command + "'");
  }

  /** Shuts the cluster down; fails if its JVM (or anything it started) is still running. */
  @Override
  public void close() throws IOException {
    List<ProcessHandle> children = process.descendants().toList();
    try {
      shutDown(children);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while the Solr cluster shut down", e);
    }
  }

  private void shutDown(List<ProcessHandle> children) throws InterruptedException {
    try {
      commands.write("quit\n");
      commands.close();
    } catch (IOException e) {
      // already gone
    }
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    assertThat(exited).as("the Solr cluster JVM exits when asked").isTrue();
    assertThat(process.isAlive()).isFalse();
    assertThat(children.stream().filter(ProcessHandle::isAlive).toList())
        .as("processes the cluster JVM started")
        .isEmpty();
  }

  @Override
  public String toString() {
    return "SolrCluster" + Arrays.asList(urls) + " zk " + zkHost;
  }
}
