package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.index.CollectionRoot;
import dev.brain.index.CollectionWatcher;
import dev.brain.index.CollectionsFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The collections of {@code brain.yaml}, followed: each collection's folder through a {@link
 * CollectionWatcher}, and {@code brain.yaml} itself, so that {@code brain add}, {@code brain
 * remove} or an edit by hand reach a running {@code brain watch} or {@code brain serve --watch}
 * without a restart: a new collection is synced and followed, a removed one's records are deleted.
 * The file stays the truth; this only carries it out. Used on the thread that starts it; its own
 * work runs on a thread of its own.
 */
final class FollowedCollections implements AutoCloseable {
  /** Bursts of writes to {@code brain.yaml} (an editor saving twice) become one change. */
  private static final Duration SETTLE = Duration.ofMillis(300);

  private final Brain brain;
  private final PrintWriter out;
  private final CollectionsFile file;
  private final WatchService service;
  private final Thread thread;
  private List<CollectionRoot> current;
  private CollectionWatcher watcher;

  private FollowedCollections(Brain brain, List<CollectionRoot> collections, PrintWriter out)
      throws Exception {
    this.brain = brain;
    this.out = out;
    this.file = CollectionsFile.of(brain.config().dataDir());
    this.current = collections;
    this.watcher = WatchCommand.start(brain, collections, out);
    Path dir = file.path().getParent();
    this.service = dir.getFileSystem().newWatchService();
    dir.register(
        service,
        StandardWatchEventKinds.ENTRY_CREATE,
        StandardWatchEventKinds.ENTRY_MODIFY,
        StandardWatchEventKinds.ENTRY_DELETE);
    this.thread = Thread.ofPlatform().daemon().name("brain-yaml-watch").start(this::follow);
  }

  /**
   * Follows the collections of {@code brain.yaml} with {@code brain} (which must hold the index's
   * write lock) and prints one line per sync and per change of the file to {@code out}.
   *
   * @throws dev.brain.index.CollectionException if there are no collections yet
   */
  static FollowedCollections start(Brain brain, List<CollectionRoot> collections, PrintWriter out)
      throws Exception {
    return new FollowedCollections(brain, collections, out);
  }

  private void follow() {
    try {
      while (true) {
        var key = service.take();
        boolean touched =
            key.pollEvents().stream().anyMatch(e -> file.path().getFileName().equals(e.context()));
        key.reset();
        if (touched) {
          Thread.sleep(SETTLE.toMillis());
          drain();
          reload();
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      // closed
    }
  }

  /** Drops the events of the same burst. */
  private void drain() throws InterruptedException {
    for (var key = service.poll(10, TimeUnit.MILLISECONDS);
        key != null;
        key = service.poll(10, TimeUnit.MILLISECONDS)) {
      key.pollEvents();
      key.reset();
    }
  }

  /** Carries out what changed in the file: new collections followed, removed ones deleted. */
  private synchronized void reload() {
    List<CollectionRoot> wanted;
    try {
      wanted = file.read();
    } catch (IOException | RuntimeException e) {
      println("brain.yaml changed but cannot be read (" + e.getMessage() + "); nothing changed");
      return;
    }
    if (wanted.equals(current)) {
      return;
    }
    Set<String> kept = names(wanted);
    List<String> added = new ArrayList<>(names(wanted));
    added.removeAll(names(current));
    List<String> removed = new ArrayList<>();
    try {
      for (CollectionRoot c : current) {
        if (!kept.contains(c.name())) {
          long records = brain.removeCollection(c.name());
          removed.add(c.name() + " (" + records + " records)");
        }
      }
      watcher.close();
      current = wanted;
      watcher = wanted.isEmpty() ? null : WatchCommand.start(brain, wanted, out);
      println(
          "brain.yaml changed: "
              + (added.isEmpty() ? "" : "following " + String.join(", ", added) + "; ")
              + (removed.isEmpty() ? "" : "removed " + String.join(", ", removed) + "; ")
              + wanted.size()
              + " collection(s) followed");
    } catch (Exception e) {
      println("brain.yaml changed but the change could not be carried out: " + e.getMessage());
    }
  }

  private static Set<String> names(List<CollectionRoot> collections) {
    return collections.stream().map(CollectionRoot::name).collect(Collectors.toSet());
  }

  private void println(String line) {
    synchronized (out) {
      out.println(TerminalText.text(line));
      out.flush();
    }
  }

  /** The collections followed now. */
  synchronized List<CollectionRoot> collections() {
    return List.copyOf(current);
  }

  @Override
  public synchronized void close() throws IOException {
    thread.interrupt();
    service.close();
    if (watcher != null) {
      watcher.close();
    }
  }
}
