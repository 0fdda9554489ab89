package dev.brain.research.trace;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

/**
 * A trace whose {@code run.json} carries a {@code schema_version} this brain does not read: a newer
 * brain wrote it, or it was edited. Refused rather than read as if it were a known version.
 */
public final class TraceVersionException extends IOException {
  private static final long serialVersionUID = 1L;

  TraceVersionException(String version, Set<String> known) {
    super(
        (version == null
                ? "unreadable run.json: it names no schema_version"
                : "unreadable run.json: schema_version '"
                    + version
                    + "' is not one this brain reads")
            + "; this brain reads "
            + String.join(" and ", new TreeSet<>(known))
            + " (a trace from a newer brain needs that brain)");
  }
}
