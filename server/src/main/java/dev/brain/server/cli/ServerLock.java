package dev.brain.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One server per data directory: every server ({@code brain serve}, its background start, {@code
 * brain demo}) holds an OS lock on {@code <data>/server.lock} for its whole life, and writes its
 * pid into the file for the others. The OS releases the lock when the process ends, however it
 * ends, so a file left behind by a killed server does not count. A {@code brain serve} that finds
 * the lock held by a server started in the background takes its place; any other holder is named
 * and left alone.
 */
final class ServerLock implements AutoCloseable {
  /** The lock file in the data directory; never deleted, so two servers always lock one file. */
  static final String FILE = "server.lock";

  /** How long a background server has to stop when {@code brain serve} takes over. */
  static final Duration STOP_WAIT = Duration.ofSeconds(30);

  /** How long a holder that has not advertised itself yet (still starting) is waited for. */
  static final Duration START_WAIT = Duration.ofSeconds(20);

  /**
   * The locks this process holds. A process must never open and close a second channel to a file it
   * holds locked: on POSIX systems closing any descriptor of a file drops all its locks on it.
   */
  private static final Map<Path, FileChannel> HELD = new HashMap<>();

  private final Path file;

  private ServerLock(Path file) {
    this.file = file;
  }

  static Path file(Path dataDir) {
    return dataDir.toAbsolutePath().normalize().resolve(FILE);
  }

  /** The lock, if no server holds it (in this process or another). */
  static Optional<ServerLock> tryAcquire(Path dataDir) throws IOException {
    Path file = file(dataDir);
    synchronized (HELD) {
      if (HELD.containsKey(file)) {
        return Optional.empty();
      }
      Files.createDirectories(file.getParent());
      FileChannel channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (IOException | RuntimeException e) {
        channel.close();
        throw e;
      }
      if (lock == null) {
        channel.close(); // another process holds it; its lock stays, as this channel is not its
        return Optional.empty();
      }
      HELD.put(file, channel);
      try {
        // For people and for the other servers: who holds it.
        channel.truncate(0);
        channel.write(
            ByteBuffer.wrap(
                (ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
        channel.force(false);
      } catch (IOException e) {
        // Held all the same; the others see a holder without a pid, as if it were starting.
      }
      return Optional.of(new ServerLock(file));
    }
  }

  /**
   * The pid of the live server holding {@code dataDir}'s lock; empty when none holds it. A holder
   * that has not written its pid yet (it is starting) is reported as pid 0.
   */
  static OptionalLong holder(Path dataDir) {
    Path file = file(dataDir);
    synchronized (HELD) {
      if (HELD.containsKey(file)) {
        return OptionalLong.of(ProcessHandle.current().pid());
      }
      if (!Files.exists(file)) {
        return OptionalLong.empty();
      }
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        FileLock probe = channel.tryLock(0, Long.MAX_VALUE, true);
        if (probe != null) {
          probe.release();
          return OptionalLong.empty();
        }
        var bytes = ByteBuffer.allocate(32);
        channel.read(bytes, 0);
        String text =
            new String(bytes.array(), 0, bytes.position(), StandardCharsets.US_ASCII).strip();
        return OptionalLong.of(text.matches("\\d{1,19}") ? Long.parseLong(text) : 0);
      } catch (IOException | RuntimeException e) {
        return OptionalLong.empty();
      }
    }
  }

  /**
   * Takes the lock of {@code dataDir} for a server about to start. When a server started in the
   * background holds it and this one was not ({@code background} false), that server is asked to
   * stop (its shutdown hook withdraws its advertisement; the OS then releases its lock) and this
   * one says so on {@code err}. Any other holder is named in the exception's one line, with how to
   * stop it; a background start never takes anything over.
   *
   * @throws ServerLockException when another server keeps the data directory
   */
  static ServerLock claim(Path dataDir, boolean background, PrintWriter err)
      throws IOException, InterruptedException {
    long startDeadline = System.nanoTime() + START_WAIT.toNanos();
    while (true) {
      Optional<ServerLock> lock;
      try {
        lock = tryAcquire(dataDir);
      } catch (IOException e) {
        throw new IOException(
            "cannot lock "
                + file(dataDir)
                + " (one server per data directory): "
                + (e instanceof java.nio.file.AccessDeniedException
                    ? "permission denied"
                    : e.getMessage()),
            e);
      }
      if (lock.isPresent()) {
        return lock.get();
      }
      OptionalLong pid = holder(dataDir);
      if (pid.isEmpty()) {
        if (System.nanoTime() >= startDeadline) {
          throw new ServerLockException(
              "cannot take "
                  + file(dataDir)
                  + ": it is locked, but not by a server that can be named; try again");
        }
        Thread.sleep(50); // released between the two looks
        continue;
      }
      var ad = advertisementOf(dataDir, pid.getAsLong());
      if (ad.isEmpty()) {
        if (System.nanoTime() < startDeadline) {
          Thread.sleep(200); // starting: it advertises itself once it listens
          continue;
        }
        throw new ServerLockException(
            "another brain server"
                + (pid.getAsLong() > 0 ? " (pid " + pid.getAsLong() + ")" : "")
                + " holds "
                + file(dataDir)
                + " but has not said where it serves; "
                + (pid.getAsLong() > 0 ? "stop it with `kill " + pid.getAsLong() + "` or " : "")
                + "try again once it is up");
      }
      if (background || !ad.get().background() || ad.get().pid() == ProcessHandle.current().pid()) {
        throw new ServerLockException(
            "a server already serves this data directory: "
                + ServerStatus.of(ad.get()).describe()
                + "; "
                + ServerStatus.of(ad.get()).howToStop()
                + ", or use it as it is");
      }
      return takeOver(dataDir, ad.get(), err);
    }
  }

  /** Stops the background server {@code ad} advertises and takes its lock, within a bound. */
  private static ServerLock takeOver(Path dataDir, ServerAdvertisement ad, PrintWriter err)
      throws IOException, InterruptedException {
    var process = ProcessHandle.of(ad.pid());
    process.ifPresent(ProcessHandle::destroy);
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      var lock = tryAcquire(dataDir);
      if (lock.isPresent()) {
        err.println(
            "brain: stopped the background server (pid "
                + ad.pid()
                + ") on this data directory; serving here instead");
        err.flush();
        return lock.get();
      }
      Thread.sleep(100);
    }
    throw new ServerLockException(
        "the background server (pid "
            + ad.pid()
            + ") on this data directory did not stop within "
            + STOP_WAIT.toSeconds()
            + " s; stop it with `kill -9 "
            + ad.pid()
            + "` and run brain serve again");
  }

  /**
   * The advertisement of the server holding {@code dataDir}'s lock, pid {@code holder}: only one
   * naming that live process counts (a file left by a killed server names another).
   */
  static Optional<ServerAdvertisement> advertisementOf(Path dataDir, long holder) {
    return ServerAdvertisement.read(dataDir)
        .filter(ad -> ad.pid() == holder)
        .filter(ad -> ProcessHandle.of(ad.pid()).map(ProcessHandle::isAlive).orElse(false));
  }

  /** Releases the lock (the file stays, for the next server to lock). */
  @Override
  public void close() {
    synchronized (HELD) {
      FileChannel channel = HELD.remove(file);
      if (channel == null) {
        return;
      }
      try {
        channel.truncate(0);
      } catch (IOException e) {
        // the pid left in it is not a holder's without the lock
      }
      try {
        channel.close(); // releases the lock
      } catch (IOException e) {
        // the OS releases it when the process ends
      }
    }
  }

  /** Another server keeps the data directory; the message names it and how to stop it. */
  static final class ServerLockException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ServerLockException(String message) {
      super(message);
    }
  }
}
