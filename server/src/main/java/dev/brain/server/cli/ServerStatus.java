package dev.brain.server.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The server on a data directory, for {@code brain status} and for a {@code brain serve} that finds
 * one there: the holder of its {@link ServerLock}, described by its advertisement.
 *
 * @param pid the server's process id (0 when it has not written it yet)
 * @param url where it serves; null while it starts (it has not advertised itself yet)
 * @param background whether a command started it in the background (it exits when idle)
 * @param since when it started, if known
 * @param stop how to stop it, for people
 * @param residentBytes its resident memory now ({@link ResidentMemory}); null where the system does
 *     not say (not Linux)
 * @param peakResidentBytes the most it has been resident; null where the system does not say
 */
record ServerStatus(
    long pid,
    String url,
    boolean background,
    Instant since,
    String stop,
    Long residentBytes,
    Long peakResidentBytes) {

  /** The server holding {@code dataDir}'s lock, if one does. */
  static Optional<ServerStatus> of(Path dataDir) {
    var holder = ServerLock.holder(dataDir);
    if (holder.isEmpty()) {
      return Optional.empty();
    }
    long pid = holder.getAsLong();
    return Optional.of(
        ServerLock.advertisementOf(dataDir, pid)
            .map(ServerStatus::of)
            .orElseGet(
                () ->
                    withMemory(
                        pid, null, false, null, pid > 0 ? "kill " + pid : "wait until it is up")));
  }

  /** The server {@code ad} advertises. */
  static ServerStatus of(ServerAdvertisement ad) {
    return withMemory(
        ad.pid(),
        ad.url(),
        ad.background(),
        ad.since().orElse(null),
        ad.background() ? "kill " + ad.pid() : "Ctrl-C in its terminal, or kill " + ad.pid());
  }

  private static ServerStatus withMemory(
      long pid, String url, boolean background, Instant since, String stop) {
    var memory = ResidentMemory.of(pid);
    return new ServerStatus(
        pid,
        url,
        background,
        since,
        stop,
        memory.map(ResidentMemory::bytes).orElse(null),
        memory.map(ResidentMemory::peakBytes).orElse(null));
  }

  /** "resident memory 182 MiB (peak 210 MiB)", or that it is unknown here. */
  String memory() {
    return residentBytes == null
        ? "resident memory unknown"
        : new ResidentMemory(residentBytes, peakResidentBytes).describe();
  }

  /**
   * "http://127.0.0.1:8742/ (pid 1234, brain serve, since 2026-11-29 01:10:00 UTC (3 min ago))".
   */
  String describe() {
    if (url == null) {
      return "starting" + (pid > 0 ? " (pid " + pid + ")" : "") + ", not listening yet";
    }
    return url
        + " (pid "
        + pid
        + ", "
        + (background ? "started in the background by a command" : "brain serve")
        + (since != null ? ", since " + HumanTime.of(since) : "")
        + ")";
  }

  /** "stop it with Ctrl-C in its terminal or `kill 1234`". */
  String howToStop() {
    if (pid <= 0) {
      return "wait until it is up";
    }
    if (url == null) {
      return "stop it with `kill " + pid + "`"; // who started it is not known yet
    }
    return background
        ? "stop it with `kill " + pid + "` (it also exits by itself when idle)"
        : "stop it with Ctrl-C in its terminal or `kill " + pid + "`";
  }

  /** The line {@code brain status} prints about {@code dataDir}'s server. */
  static String line(Path dataDir) {
    var status = of(dataDir);
    if (status.isPresent()) {
      var server = status.get();
      return "server: " + server.describe() + "; " + server.memory() + "; " + server.howToStop();
    }
    return BackgroundServer.starting(dataDir)
        ? "server: one is starting in the background"
        : "server: none on this data directory (`brain serve` starts one)";
  }
}
