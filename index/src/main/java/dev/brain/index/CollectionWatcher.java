package dev.brain.index;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Follows the folders of collections with the JDK {@link WatchService} and syncs a collection after
 * its files change: every folder below a root is registered (folders created later too), a burst of
 * events (an editor's save storm, a {@code git checkout}) waits for a quiet period and becomes one
 * sync of just the files and folders the events named ({@link BrainIndex#syncChanged}: renames and
 * deletions included, the sync deletes what vanished there), and an {@code OVERFLOW} (events were
 * lost) resyncs every collection in full, as the first sync at start does. Syncs run on the
 * watcher's own thread through the writable {@link BrainIndex}, whose commits readers see at once.
 */
public final class CollectionWatcher implements AutoCloseable {

  private static final System.Logger LOG = System.getLogger(CollectionWatcher.class.getName());

  /** Default quiet period before a sync. */
  public static final Duration DEFAULT_DEBOUNCE = Duration.ofMillis(750);

  /** A sync waits at most this long for a burst to end. */
  static final Duration MAX_WAIT = Duration.ofSeconds(10);

  /** What the watcher did; called on its thread. */
  public interface Listener {
    /** A sync of {@code collections} finished. */
    default void synced(List<String> collections, SyncReport report) {}

    /** A sync failed; the watcher goes on and retries on the next change. */
    default void failed(List<String> collections, Exception error) {}
  }

  private final CorpusStore index;
  private final Map<String, CollectionRoot> collections = new HashMap<>();
  private final Duration debounce;
  private final Listener listener;
  private final WatchService service;
  private final Map<WatchKey, CollectionRoot> keys = new HashMap<>();
  private final Set<String> dirty = new LinkedHashSet<>();

  /** Collections to sync in full: at start (to catch up) and after lost events. */
  private final Set<String> rescan = new HashSet<>();

  /** Per collection, the files and folders events named since its last sync. */
  private final Map<String, Set<Path>> changed = new HashMap<>();

  private final Thread thread;
  private volatile boolean running = true;

  /** Whether this watcher counts among the holders of its marker (see {@link #HELD}). */
  private boolean holdsMarker;

  private long firstDirtyNanos;
  private long lastEventNanos;

  private CollectionWatcher(
      CorpusStore index, List<CollectionRoot> roots, Duration debounce, Listener listener)
      throws IOException {
    this.index = index;
    this.debounce = debounce;
    this.listener = listener;
    this.service = FileSystems.getDefault().newWatchService();
    for (CollectionRoot c : roots) {
      collections.put(c.name(), c);
      registerTree(c, c.root());
      dirty.add(c.name()); // catch up with changes made while nobody watched
      rescan.add(c.name());
    }
    this.thread = Thread.ofPlatform().name("brain-watch").daemon().unstarted(this::loop);
  }

  /**
   * Starts watching. The first sync of every collection runs at once on the watcher's thread, to
   * catch up with changes made while nothing watched.
   *
   * @param index a writable index
   * @param debounce quiet period after the last event before a sync
   */
  public static CollectionWatcher start(
      CorpusStore index, List<CollectionRoot> collections, Duration debounce, Listener listener)
      throws IOException {
    var watcher = new CollectionWatcher(index, collections, debounce, listener);
    watcher.firstDirtyNanos = System.nanoTime() - MAX_WAIT.toNanos(); // sync at once
    watcher.writeMarker();
    watcher.thread.start();
    return watcher;
  }

  /** The marker a watching process keeps beside the index: {@code <data>/watching.pid}. */
  static Path marker(IndexConfig config) {
    return config.directory().toAbsolutePath().normalize().resolveSibling("watching.pid");
  }

  /**
   * Markers this process holds, with how many of its watchers hold each. A process must never open
   * and close a second channel to a file it holds locked: on POSIX systems closing any descriptor
   * of a file drops every lock the process has on it. The locked channel is kept here, not by the
   * watcher that opened it: watchers may stop in any order, and whichever is last closes it.
   */
  private static final Map<Path, Held> HELD = new HashMap<>();

  /** A marker this process holds: how many of its watchers hold it, and the channel locking it. */
  private record Held(int holders, FileChannel channel) {}

  /**
   * Whether a live watcher (of this process or another) follows the collections of {@code config}'s
   * data directory: one holds an OS lock on its marker for as long as it runs. The pid in the
   * marker is for people: a watcher killed without closing leaves the file, but the OS releases its
   * lock, so a stale file, or one naming a pid reused by an unrelated process, does not count.
   */
  public static boolean isWatching(IndexConfig config) {
    Path marker = marker(config);
    synchronized (HELD) {
      if (HELD.containsKey(marker)) {
        return true;
      }
      if (!Files.exists(marker)) {
        return false;
      }
      try (FileChannel channel = FileChannel.open(marker, StandardOpenOption.READ)) {
        FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
        if (probe == null) {
          return true; // another process holds it
        }
        probe.release();
        return false;
      } catch (IOException e) {
        return false;
      }
    }
  }

  /** Locks the marker for this watcher's life and writes the pid into it, if none holds it. */
  private void writeMarker() {
    Path marker = marker(index.config());
    synchronized (HELD) {
      Held held = HELD.get(marker);
      if (held != null) {
        HELD.put(marker, new Held(held.holders() + 1, held.channel()));
        holdsMarker = true;
        return;
      }
      try {
        FileChannel channel =
            FileChannel.open(
                marker,
                StandardOpenOption.CREATE,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock();
        if (lock == null) {
          channel.close(); // another process watches; its lock stays, as it is not ours
          return;
        }
        // Held from here on, so the last watcher to stop closes the channel even if the pid
        // (which is for people only) cannot be written.
        HELD.put(marker, new Held(1, channel));
        holdsMarker = true;
        channel.truncate(0);
        channel.write(
            ByteBuffer.wrap(
                (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "cannot write the watch marker", e);
      }
    }
  }

  /** Deletes and unlocks the marker when this is the last of the process's watchers to stop. */
  private void deleteMarker() {
    if (!holdsMarker) {
      return;
    }
    holdsMarker = false;
    Path marker = marker(index.config());
    synchronized (HELD) {
      Held held = HELD.get(marker);
      if (held == null) {
        return;
      }
      if (held.holders() > 1) {
        HELD.put(marker, new Held(held.holders() - 1, held.channel()));
        return;
      }
      HELD.remove(marker);
      try {
        Files.deleteIfExists(marker); // while locked: no other watcher can have taken it over
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "cannot delete the watch marker", e);
      }
      try {
        held.channel().close(); // releases the lock
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "cannot unlock the watch marker", e);
      }
    }
  }

  /** True while the watcher runs. */
  public boolean watching() {
    return running && thread.isAlive();
  }

  /** Names of the collections watched. */
  public Set<String> collections() {
    return Set.copyOf(collections.keySet());
  }

  private void registerTree(CollectionRoot collection, Path start) throws IOException {
    if (!Files.isDirectory(start)) {
      return;
    }
    Files.walkFileTree(
        start,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            if (!dir.equals(collection.root()) && ignored(dir)) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            keys.put(dir.register(service, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY), collection);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE;
          }
        });
  }

  /** Folders the sync leaves out anyway: hidden ones (.obsidian, .git, .trash), node_modules. */
  private static boolean ignored(Path dir) {
    String name = dir.getFileName().toString();
    return name.startsWith(".") || name.equals("node_modules");
  }

  private void loop() {
    while (running) {
      try {
        WatchKey key = service.poll(100, TimeUnit.MILLISECONDS);
        if (key != null) {
          handle(key);
        }
        syncIfQuiet();
      } catch (InterruptedException | java.nio.file.ClosedWatchServiceException e) {
        return;
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.WARNING, "watch loop error; going on", e);
      }
    }
  }

  private void handle(WatchKey key) {
    CollectionRoot collection = keys.get(key);
    Path dir = (Path) key.watchable();
    for (WatchEvent<?> event : key.pollEvents()) {
      if (event.kind() == OVERFLOW) {
        rescan.addAll(collections.keySet()); // events were lost: rescan everything
        markDirty(collections.keySet());
        continue;
      }
      if (collection == null) {
        continue;
      }
      Path child = dir.resolve((Path) event.context());
      if (event.kind() == ENTRY_CREATE && Files.isDirectory(child) && !ignored(child)) {
        try {
          registerTree(collection, child); // files may already be inside: the sync reads them
        } catch (IOException e) {
          LOG.log(System.Logger.Level.WARNING, "cannot watch " + child, e);
        }
      }
      changed.computeIfAbsent(collection.name(), n -> new LinkedHashSet<>()).add(child);
      markDirty(Set.of(collection.name()));
    }
    if (!key.reset()) {
      keys.remove(key); // the folder is gone
    }
  }

  private void markDirty(Set<String> names) {
    long now = System.nanoTime();
    if (dirty.isEmpty()) {
      firstDirtyNanos = now;
    }
    dirty.addAll(names);
    lastEventNanos = now;
  }

  private void syncIfQuiet() {
    if (dirty.isEmpty()) {
      return;
    }
    long now = System.nanoTime();
    boolean quiet = now - lastEventNanos >= debounce.toNanos();
    boolean waitedEnough = now - firstDirtyNanos >= MAX_WAIT.toNanos();
    if (!quiet && !waitedEnough) {
      return;
    }
    List<String> names = List.copyOf(dirty);
    dirty.clear();
    List<String> full = names.stream().filter(rescan::contains).toList();
    rescan.removeAll(full);
    var paths = new HashMap<String, Set<Path>>();
    for (String name : names) {
      Set<Path> p = changed.remove(name);
      if (!full.contains(name) && p != null) {
        paths.put(name, p);
      }
    }
    List<CollectionRoot> roots =
        full.stream().map(collections::get).filter(c -> Files.exists(c.root())).toList();
    if (!roots.isEmpty()) {
      try {
        listener.synced(full, index.syncCollections(roots, SyncListener.NONE));
      } catch (IOException | RuntimeException e) {
        listener.failed(full, e);
      }
    }
    paths.forEach(this::syncChanged);
  }

  /** Syncs only what events named in one collection; a failure is retried as a full rescan. */
  private void syncChanged(String name, Set<Path> paths) {
    CollectionRoot c = collections.get(name);
    if (!Files.exists(c.root())) {
      return;
    }
    try {
      listener.synced(List.of(name), index.syncChanged(c, paths, SyncListener.NONE));
    } catch (IOException | RuntimeException e) {
      rescan.add(name); // the next change of this collection syncs it whole
      listener.failed(List.of(name), e);
    }
  }

  /** Stops watching and waits for a running sync to finish. */
  @Override
  public void close() throws IOException {
    running = false;
    service.close();
    try {
      thread.join(TimeUnit.MINUTES.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      deleteMarker();
    }
  }
}
