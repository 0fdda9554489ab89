package dev.brain.research.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.brain.research.json.Json;
import dev.brain.research.run.RunId;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.run.RunTraces;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The trace directories of a data root: {@code <data>/research-runs/<UTC timestamp>-<12 hex>/} with
 * {@code run.md}, {@code run.json} and sidecars (named in {@link RunTraces}).
 *
 * <p>A trace is built in a temporary sibling directory ({@code .tmp-<run id>}), its completion
 * marker ({@value #COMPLETE}) is written after every other file, and the directory is renamed into
 * place atomically, so concurrent runs never see each other's partial files and readers only ever
 * see complete traces: {@link #list()} and {@link #find(String)} ignore any directory without the
 * marker or with another name. Files and directories are readable by the owner only where the file
 * system has POSIX permissions. Every file's text passes the {@link Redactor} first. Traces are
 * diagnostics: nothing here is ever indexed.
 *
 * <p>Thread-safe; any number of runs may write and prune at once.
 */
public final class TraceStore implements RunTraces {

  /** The traces' directory under the data root. */
  public static final String DIRECTORY = "research-runs";

  /** The readable timeline document. */
  public static final String RUN_MD = "run.md";

  /** The structured trace ({@value ResearchTrace#SCHEMA_VERSION}). */
  public static final String RUN_JSON = "run.json";

  /**
   * The schema of an agent run's {@code run.json} ({@code agent.AgentTrace}, via {@link
   * #writeRun}).
   */
  public static final String AGENT_TRACE_VERSION = "agent_trace.v1";

  /** The completion marker, written last. */
  public static final String COMPLETE = ".complete";

  /** Prefix of a trace being written. */
  static final String TEMPORARY_PREFIX = ".tmp-";

  /** Temporary directories older than this are leftovers of crashed runs. */
  static final Duration STALE_TEMPORARY = Duration.ofDays(1);

  private static final ObjectMapper JSON =
      Json.newMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path dataRoot;
  private final Path root;
  private final Redactor redactor;
  private final RetentionPolicy retention;

  /**
   * The traces of {@code dataRoot} with the default retention, redacting credential-like
   * environment values.
   */
  public TraceStore(Path dataRoot) {
    this(dataRoot, Redactor.forDataRoot(dataRoot, List.of()), RetentionPolicy.defaults());
  }

  /** The traces of {@code dataRoot}, redacted by {@code redactor}, pruned by {@code retention}. */
  public TraceStore(Path dataRoot, Redactor redactor, RetentionPolicy retention) {
    this.dataRoot = dataRoot.toAbsolutePath().normalize();
    this.root = this.dataRoot.resolve(DIRECTORY);
    this.redactor = redactor;
    this.retention = retention;
  }

  /** The data root. */
  public Path dataRoot() {
    return dataRoot;
  }

  /** The traces' directory ({@code <data>/research-runs}). */
  public Path root() {
    return root;
  }

  /** The retention applied after each traced run. */
  public RetentionPolicy retention() {
    return retention;
  }

  /** The redactor every file passes. */
  public Redactor redactor() {
    return redactor;
  }

  /**
   * A written trace.
   *
   * @param path the trace directory
   * @param bytes bytes of its files
   */
  public record Written(Path path, long bytes) {}

  /**
   * Writes the trace of a research run ({@link ResearchTrace}), then prunes with this store's
   * retention, never {@code draft}'s trace, until the request's trace budget runs out.
   */
  @Override
  public Stored save(
      RunResult draft, RunRequest request, Instant startedAt, Map<String, String> sidecars)
      throws IOException {
    Written written =
        write(ResearchTrace.of(draft, request, startedAt, sidecars), Map.copyOf(sidecars));
    PruneReport pruned =
        prune(
            retention,
            Set.of(draft.runId()),
            Instant.now(),
            Instant.now().plus(request.budgets().trace()));
    return new Stored(written.path(), written.bytes(), pruned.deleted());
  }

  /**
   * Writes a trace: sidecars and {@code run.md} (rendered from the trace), then {@code run.json}
   * (its metrics carrying the directory's final byte count), then the marker, then the atomic
   * rename.
   */
  public Written write(ResearchTrace trace, Map<String, String> sidecars) throws IOException {
    return write(trace, TraceMarkdown.render(trace), sidecars);
  }

  /** Writes a trace with this {@code run.md} text (tests write odd markdown on purpose). */
  Written write(ResearchTrace trace, String markdown, Map<String, String> sidecars)
      throws IOException {
    return new TraceWriter(root, redactor, JSON).write(trace, markdown, sidecars);
  }

  /**
   * Writes the trace of a run that is not a research run (an agent run): {@code run.json} is {@code
   * document} serialized and {@code run.md} is {@code markdown}, redacted, built and renamed into
   * place like a research trace. {@code document} must carry {@code run_id}, {@code started_at},
   * {@code surface}, {@code question}, {@code stop_reason}, {@code status} (what listings show) and
   * {@code metrics} with {@code duration_ms} and {@code artifact_bytes} = 0 (filled with the
   * directory's final size).
   */
  public Written writeRun(String runId, Object document, String markdown) throws IOException {
    if (!RunId.matches(runId)) {
      throw new IllegalArgumentException("not a run id: " + runId);
    }
    return new TraceWriter(root, redactor, JSON).write(runId, document, markdown, Map.of());
  }

  /** The complete traces, newest first. */
  public List<TraceSummary> list() throws IOException {
    var out = new ArrayList<TraceSummary>();
    for (Path dir : completeDirectories()) {
      out.add(summary(dir));
    }
    return out;
  }

  /**
   * The trace directory named by {@code ref}: a run id, a unique prefix of one, {@code latest} (or
   * {@code last}), or a path to a trace directory.
   *
   * @throws IllegalArgumentException if a prefix matches several runs (the message lists them)
   */
  public Optional<Path> find(String ref) throws IOException {
    String r = ref.strip();
    List<Path> dirs = completeDirectories();
    if (r.equals("latest") || r.equals("last")) {
      return dirs.stream().findFirst();
    }
    Path asPath = Path.of(r);
    if (asPath.isAbsolute() || r.contains("/")) {
      Path dir = asPath.toAbsolutePath().normalize();
      return isComplete(dir) ? Optional.of(dir) : Optional.empty();
    }
    List<Path> matches =
        dirs.stream().filter(d -> d.getFileName().toString().startsWith(r)).toList();
    if (matches.size() > 1) {
      var names = matches.stream().limit(5).map(d -> d.getFileName().toString()).toList();
      throw new IllegalArgumentException(
          "'"
              + r
              + "' matches "
              + matches.size()
              + " runs ("
              + String.join(", ", names)
              + (matches.size() > 5 ? ", ..." : "")
              + "); give more of the run id");
    }
    return matches.stream().findFirst();
  }

  /** The trace versions this brain reads: research runs and agent runs. */
  static final Set<String> KNOWN_VERSIONS =
      Set.of(ResearchTrace.SCHEMA_VERSION, AGENT_TRACE_VERSION);

  /**
   * The {@code run.json} of a trace directory.
   *
   * @throws TraceVersionException if its {@code schema_version} is missing or one this brain does
   *     not read (a newer brain wrote it)
   */
  public JsonNode readJson(Path dir) throws IOException {
    JsonNode n = JSON.readTree(dir.resolve(RUN_JSON).toFile());
    String version = n == null ? null : text(n, "schema_version");
    if (version == null || !KNOWN_VERSIONS.contains(version)) {
      throw new TraceVersionException(version, KNOWN_VERSIONS);
    }
    return n;
  }

  /** The {@code run.md} of a trace directory. */
  public String readMarkdown(Path dir) throws IOException {
    return Files.readString(dir.resolve(RUN_MD), StandardCharsets.UTF_8);
  }

  /** Prunes with this store's retention, now, keeping no extra runs. */
  public PruneReport prune() throws IOException {
    return prune(retention, Set.of(), Instant.now(), null);
  }

  /**
   * Deletes the complete traces outside {@code policy} (never those in {@code active}) and leftover
   * temporary directories older than a day.
   *
   * @param stopAt stop deleting at this instant (a time budget), or {@code null} for no limit
   */
  public PruneReport prune(RetentionPolicy policy, Set<String> active, Instant now, Instant stopAt)
      throws IOException {
    List<Path> dirs = completeDirectories();
    if (policy.keepAll()) {
      return new PruneReport(dirs.size(), dirs.size(), 0, List.of(), 0, false);
    }
    var deleted = new ArrayList<String>();
    boolean exhausted = false;
    for (int i = dirs.size() - 1; i >= policy.keepNewest(); i--) {
      String id = dirs.get(i).getFileName().toString();
      Instant started = RunId.startOf(id);
      if (active.contains(id)
          || started == null
          || Duration.between(started, now).compareTo(policy.maxAge()) <= 0) {
        continue;
      }
      if (stopAt != null && Instant.now().isAfter(stopAt)) {
        exhausted = true;
        break;
      }
      // Remove the marker first: a half-deleted directory is then incomplete, never half-read.
      Files.deleteIfExists(dirs.get(i).resolve(COMPLETE));
      TraceWriter.deleteTree(dirs.get(i));
      deleted.add(id);
    }
    int stale = exhausted ? 0 : deleteStaleTemporaries(now);
    return new PruneReport(
        dirs.size(), dirs.size() - deleted.size(), deleted.size(), deleted, stale, exhausted);
  }

  private int deleteStaleTemporaries(Instant now) throws IOException {
    if (!Files.isDirectory(root)) {
      return 0;
    }
    int count = 0;
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(root, TEMPORARY_PREFIX + "*")) {
      for (Path dir : stream) {
        FileTime modified;
        try {
          modified = Files.getLastModifiedTime(dir);
        } catch (NoSuchFileException e) {
          continue;
        }
        if (Duration.between(modified.toInstant(), now).compareTo(STALE_TEMPORARY) > 0) {
          TraceWriter.deleteTree(dir);
          count++;
        }
      }
    }
    return count;
  }

  /** Complete trace directories, newest first. */
  private List<Path> completeDirectories() throws IOException {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    var out = new ArrayList<Path>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(root)) {
      for (Path dir : stream) {
        if (RunId.matches(dir.getFileName().toString()) && isComplete(dir)) {
          out.add(dir);
        }
      }
    }
    out.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
    return out;
  }

  private static boolean isComplete(Path dir) {
    return Files.isDirectory(dir) && Files.isRegularFile(dir.resolve(COMPLETE));
  }

  private TraceSummary summary(Path dir) {
    String id = dir.getFileName().toString();
    // Relative to the data directory: a listing served over HTTP shows no absolute paths.
    String path = relative(dir);
    try {
      JsonNode n = readJson(dir);
      return new TraceSummary(
          id,
          path,
          text(n, "started_at"),
          text(n, "surface"),
          text(n, "question"),
          text(n, "stop_reason"),
          text(n, "status"),
          n.path("metrics").path("duration_ms").asLong(0),
          null);
    } catch (IOException | RuntimeException e) {
      return new TraceSummary(id, path, null, null, null, null, null, 0, unreadable(e));
    }
  }

  private String relative(Path dir) {
    try {
      return dataRoot.toAbsolutePath().relativize(dir.toAbsolutePath()).toString();
    } catch (IllegalArgumentException e) {
      return dir.getFileName().toString();
    }
  }

  /** Why a {@code run.json} cannot be read, in words (no exception or type names, no paths). */
  public static String unreadable(Exception e) {
    if (e instanceof TraceVersionException) {
      return e.getMessage();
    }
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "unreadable run.json: the file is missing";
    }
    if (e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException) {
      return "unreadable run.json: it exceeds the JSON reader's size limits (a trace written by an"
          + " older version that used question text as a JSON key)";
    }
    if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
      var at = j.getLocation();
      return "unreadable run.json: not valid JSON"
          + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr());
    }
    return "unreadable run.json: "
        + (e instanceof IOException ? "cannot read the file" : "bad content");
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.path(field);
    return v.isValueNode() && !v.isNull() ? v.asText() : null;
  }
}
