package dev.brain.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The machine the report is rendered on (the one the benchmarks ran on, with bench/run). */
record Machine(String cpu, int cores, long memoryBytes, String os, String load) {

  static Machine current() {
    return new Machine(
        firstValue(Path.of("/proc/cpuinfo"), "model name").orElse("unknown CPU"),
        Runtime.getRuntime().availableProcessors(),
        memTotal(),
        System.getProperty("os.name") + " " + System.getProperty("os.version"),
        loadAverage());
  }

  private static java.util.Optional<String> firstValue(Path file, String key) {
    for (String line : lines(file)) {
      int colon = line.indexOf(':');
      if (colon > 0 && line.substring(0, colon).strip().equals(key)) {
        return java.util.Optional.of(line.substring(colon + 1).strip());
      }
    }
    return java.util.Optional.empty();
  }

  private static long memTotal() {
    return firstValue(Path.of("/proc/meminfo"), "MemTotal")
        .map(v -> Long.parseLong(v.replace("kB", "").strip()) * 1024)
        .orElse(0L);
  }

  private static String loadAverage() {
    List<String> lines = lines(Path.of("/proc/loadavg"));
    if (lines.isEmpty()) {
      return "unknown";
    }
    String[] f = lines.getFirst().split(" ");
    return f[0] + " " + f[1] + " " + f[2];
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      return List.of();
    }
  }
}
