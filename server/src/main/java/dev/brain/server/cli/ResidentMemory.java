package dev.brain.server.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * A process's resident memory as the kernel counts it (Linux {@code /proc/<pid>/status}: {@code
 * VmRSS} now, {@code VmHWM} its high-water mark), native memory included: ONNX Runtime's model and
 * the tokenizers live outside the Java heap, so the JVM's own figures would understate it. Other
 * systems have no such file and no portable equivalent: there it is unknown.
 *
 * @param bytes resident now
 * @param peakBytes the most it has been resident
 */
record ResidentMemory(long bytes, long peakBytes) {

  /** {@code pid}'s resident memory; empty where the system does not say (not Linux, gone). */
  static Optional<ResidentMemory> of(long pid) {
    if (pid <= 0) {
      return Optional.empty();
    }
    return parse(Path.of("/proc", Long.toString(pid), "status"));
  }

  static Optional<ResidentMemory> parse(Path status) {
    String text;
    try {
      text = Files.readString(status, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // no /proc here, or the process is gone
    }
    long rss = -1;
    long hwm = -1;
    for (String line : text.split("\n")) {
      if (line.startsWith("VmRSS:")) {
        rss = kilobytes(line);
      } else if (line.startsWith("VmHWM:")) {
        hwm = kilobytes(line);
      }
    }
    return rss < 0 ? Optional.empty() : Optional.of(new ResidentMemory(rss, Math.max(hwm, rss)));
  }

  /** "VmRSS:\t 187364 kB" in bytes; -1 when the line is not of that form. */
  private static long kilobytes(String line) {
    String[] parts = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
    if (parts.length != 2 || !parts[1].equals("kB")) {
      return -1;
    }
    try {
      return Long.parseLong(parts[0]) * 1024;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** "resident memory 182 MiB (peak 210 MiB)". */
  String describe() {
    return String.format(
        Locale.ROOT, "resident memory %s (peak %s)", mebibytes(bytes), mebibytes(peakBytes));
  }

  private static String mebibytes(long bytes) {
    return String.format(Locale.ROOT, "%.0f MiB", bytes / (1024.0 * 1024.0));
  }
}
