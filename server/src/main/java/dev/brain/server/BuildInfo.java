package dev.brain.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What was built: the Maven version and the git commit, written into {@code build.properties} by
 * the build. {@code brain --version} and {@code GET /api/health} report them.
 *
 * @param version the Maven project version, e.g. {@code 0.1.0-SNAPSHOT}; {@code dev} when run from
 *     classes the build did not filter
 * @param commit the abbreviated git commit (12 hex digits), with {@code -dirty} when the working
 *     tree had changes; {@code unknown} when built outside a git checkout
 */
public record BuildInfo(String version, String commit) {

  private static final BuildInfo CURRENT = load();

  /** The build this code comes from. */
  public static BuildInfo current() {
    return CURRENT;
  }

  /** {@code 0.1.0-SNAPSHOT (commit 0123456789ab)}. */
  public String describe() {
    return version + " (commit " + commit + ")";
  }

  private static BuildInfo load() {
    var props = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in != null) {
        props.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read build.properties from the brain jar", e);
    }
    String version = value(props, "version", "dev");
    return new BuildInfo(version, value(props, "commit", "unknown"));
  }

  /** The property, or {@code fallback} when absent or left unfiltered ({@code ${...}}). */
  private static String value(Properties props, String key, String fallback) {
    String v = props.getProperty(key, "").strip();
    return v.isEmpty() || v.startsWith("${") ? fallback : v;
  }
}
