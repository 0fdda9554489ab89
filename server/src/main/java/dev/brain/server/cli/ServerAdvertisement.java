package dev.brain.server.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.brain.ServerSettings;
import dev.brain.server.BuildInfo;
import dev.brain.server.http.BrainServer;
import dev.brain.server.http.CliProof;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;

/**
 * What {@code brain serve} tells other {@code brain} commands on the same data directory: the file
 * {@code <data>/server.json} (mode 600) with the server's process id, URL, a token (its {@code
 * server.token}, else a random one) that clients send as {@code Authorization: Bearer <token>}, the
 * secret with which the server proves itself ({@link CliProof}) before a client sends the token,
 * and the login link that signs a browser in to the Chat's writes. Written when the server is up,
 * removed when it shuts down; a file left behind by a killed server, or copied with its data
 * directory, is recognised as stale by {@link RunningServer}.
 *
 * @param pid the server's process id
 * @param url the base URL, e.g. {@code http://127.0.0.1:8742/}
 * @param token the server's {@code server.token}, else 32 random bytes in hex; an advertisement
 *     whose token is not a bearer token's characters ({@link ServerSettings#isBearerToken}) is not
 *     read: the CLI then runs in-process
 * @param secret the server's proof secret, 64 hex digits
 * @param version the brain version that serves
 * @param loginUrl the link that signs a browser in, {@code url} with {@code ?login=<secret>}
 * @param background whether a command started the server in the background (false when absent, as
 *     in files of older versions): {@code brain serve} takes such a server's place ({@link
 *     ServerLock})
 * @param startedAt when the server started listening; null in files of older versions
 */
record ServerAdvertisement(
    long pid,
    String url,
    String token,
    String secret,
    String version,
    String loginUrl,
    boolean background,
    Instant startedAt) {

  /** The file name in the data directory. */
  static final String FILE = "server.json";

  private static final ObjectMapper MAPPER = dev.brain.research.json.Json.newMapper();

  /** The advertisement file of {@code dataDir}. */
  static Path file(Path dataDir) {
    return dataDir.resolve(FILE);
  }

  /**
   * Reads the advertisement of {@code dataDir}; empty when there is none, it is unreadable, or its
   * token or secret are not what a server writes (nothing of it then reaches a request).
   */
  static Optional<ServerAdvertisement> read(Path dataDir) {
    Path file = file(dataDir);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      var ad = MAPPER.readValue(file.toFile(), ServerAdvertisement.class);
      return ad.url() == null
              || !ServerSettings.isBearerToken(ad.token())
              || !CliProof.isHex32(ad.secret())
          ? Optional.empty()
          : Optional.of(ad);
    } catch (IOException e) {
      return Optional.empty(); // half-written or foreign: not a server we can use
    }
  }

  /** Advertises {@code server}, started by {@code brain serve}, in {@code dataDir}. */
  static Published publish(Path dataDir, BrainServer server) throws IOException {
    return publish(dataDir, server, false);
  }

  /**
   * Advertises {@code server} in {@code dataDir} (started in the {@code background} by a command,
   * or not), replacing an older advertisement atomically. The returned handle removes the file
   * again (if it is still this server's) when closed.
   */
  static Published publish(Path dataDir, BrainServer server, boolean background)
      throws IOException {
    var ad =
        new ServerAdvertisement(
            ProcessHandle.current().pid(),
            server.url().toString(),
            server.clientToken(),
            server.cliSecret(),
            BuildInfo.current().version(),
            server.loginUrl().toString(),
            background,
            Instant.now());
    // A server.token outside RFC 6750's b64token (a passphrase) is advertised too, for the login
    // link and other clients; brain's own clients read only a b64token and otherwise run
    // in-process (read() here, the regular expression of bin/brain).
    if (!CliProof.isHex32(ad.secret())) {
      throw new IllegalArgumentException("the server's CLI secret is not 64 hex digits");
    }
    Files.createDirectories(dataDir);
    Path tmp = privateTempFile(dataDir);
    try {
      MAPPER.writeValue(tmp.toFile(), ad);
      try {
        Files.move(tmp, file(dataDir), StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file(dataDir), StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
    return new Published(dataDir, ad);
  }

  /** Since when the server runs: its advertised start, else its process's. */
  Optional<Instant> since() {
    return startedAt != null
        ? Optional.of(startedAt)
        : ProcessHandle.of(pid).flatMap(p -> p.info().startInstant());
  }

  /** A temp file only the owner can read, in {@code dir}; plain where POSIX modes do not exist. */
  private static Path privateTempFile(Path dir) throws IOException {
    try {
      return Files.createTempFile(
          dir,
          ".server",
          ".json",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (UnsupportedOperationException e) {
      return Files.createTempFile(dir, ".server", ".json");
    }
  }

  /** A live advertisement; {@link #close()} withdraws it. */
  record Published(Path dataDir, ServerAdvertisement advertisement) implements AutoCloseable {
    /** Removes the file unless another server has advertised itself there since. */
    @Override
    public void close() {
      var current = read(dataDir);
      // The secret is new with every start; a configured server.token is the same for all.
      if (current.isPresent() && !current.get().secret().equals(advertisement.secret())) {
        return;
      }
      try {
        Files.deleteIfExists(file(dataDir));
      } catch (IOException e) {
        // Left behind: clients see a dead pid and ignore it.
      }
    }
  }
}
