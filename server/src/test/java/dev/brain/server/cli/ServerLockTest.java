package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ServerLock} without a server: what counts as held, and by whom. */
class ServerLockTest {
  @TempDir Path data;

  @Test
  void aLockFileLeftByAKilledServerDoesNotCountAndIsTakenOver() throws Exception {
    // A server killed with -9 leaves the file and its pid; the OS released its lock.
    Files.writeString(data.resolve(ServerLock.FILE), ProcessHandle.current().pid() + "\n");
    assertThat(ServerLock.holder(data)).isEmpty();
    assertThat(ServerStatus.of(data)).isEmpty();
    assertThat(ServerStatus.line(data)).startsWith("server: none on this data directory");

    var err = new StringWriter();
    var lock = ServerLock.claim(data, false, new PrintWriter(err, true));
    try {
      assertThat(ServerLock.holder(data)).hasValue(ProcessHandle.current().pid());
      assertThat(ServerLock.tryAcquire(data)).isEmpty();
      // Held but not advertised yet: a server that is starting.
      long pid = ProcessHandle.current().pid();
      assertThat(ServerStatus.line(data))
          .startsWith("server: starting (pid " + pid + "), not listening yet; resident memory ")
          .endsWith("; stop it with `kill " + pid + "`");
    } finally {
      lock.close();
    }
    assertThat(err.toString()).isEmpty();
    assertThat(ServerLock.holder(data)).isEmpty();
    assertThat(Files.exists(data.resolve(ServerLock.FILE))).isTrue(); // kept, for the next server
  }
}
