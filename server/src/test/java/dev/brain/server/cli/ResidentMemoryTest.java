package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class ResidentMemoryTest {
  @TempDir Path tmp;

  @Test
  void readsResidentAndPeakKilobytesFromAProcStatusFile() throws Exception {
    Path status = tmp.resolve("status");
    Files.writeString(
        status,
        "Name:\tjava\nVmPeak:\t 9000000 kB\nVmHWM:\t  215040 kB\nVmRSS:\t  186368 kB\n"
            + "Threads:\t42\n");

    var memory = ResidentMemory.parse(status).orElseThrow();

    assertThat(memory.bytes()).isEqualTo(186_368L * 1024);
    assertThat(memory.peakBytes()).isEqualTo(215_040L * 1024);
    assertThat(memory.describe()).isEqualTo("resident memory 182 MiB (peak 210 MiB)");
  }

  @Test
  void isUnknownWhereTheSystemHasNoStatusFileOrNoResidentLine() throws Exception {
    assertThat(ResidentMemory.parse(tmp.resolve("no-such-status"))).isEmpty();
    Path kernelThread = tmp.resolve("status");
    Files.writeString(kernelThread, "Name:\tkthreadd\nThreads:\t1\n");
    assertThat(ResidentMemory.parse(kernelThread)).isEmpty();
    assertThat(ResidentMemory.of(0)).isEmpty();

    var unknown =
        new ServerStatus(1234, "http://127.0.0.1:1/", false, null, "kill 1234", null, null);
    assertThat(unknown.memory()).isEqualTo("resident memory unknown");
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void readsThisProcesssResidentMemoryOnLinux() {
    var memory = ResidentMemory.of(ProcessHandle.current().pid()).orElseThrow();

    // A JVM with JUnit loaded is resident in at least tens of MB and at most its peak.
    assertThat(memory.bytes()).isGreaterThan(10L << 20);
    assertThat(memory.peakBytes()).isGreaterThanOrEqualTo(memory.bytes());
  }
}
