package dev.brain.server.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.research.json.Json;
import dev.brain.research.run.RunId;
import dev.brain.research.trace.Redactor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The saved Chat conversations of a data root: {@code <data>/chat-transcripts/<id>.json}, the
 * folder the importers already leave out, so a data directory inside a vault never indexes them.
 *
 * <p>A save merges the posted turns into the file by their {@code id} (the Chat keeps only its last
 * turns in the tab, the file keeps them all), drops turns marked {@code "unsaved": true} (the
 * Chat's "Don't save this question"), redacts what it adds as the trace writer does, and writes a
 * temporary sibling that is renamed into place atomically, so a reader (another tab, {@code brain
 * chat export}) sees the old file or the new one, never half of one ({@link ConversationFiles}).
 * Files are the owner's only. Bounded: {@value #MAX_TURNS} turns, {@value #MAX_TITLE_CHARS} title
 * characters, {@value #MAX_QUESTION_CHARS} question characters, {@value #MAX_FILE_BYTES} bytes a
 * file. Thread-safe within one process (writes are serialized).
 */
public final class ConversationStore {
  /** The folder under the data root. */
  public static final String DIRECTORY = "chat-transcripts";

  /** The schema of a saved conversation. */
  public static final String SCHEMA_VERSION = "brain_conversation.v1";

  /** Most turns one conversation keeps. */
  public static final int MAX_TURNS = 200;

  /** Longest title. */
  public static final int MAX_TITLE_CHARS = 200;

  /** Longest question of a turn. */
  public static final int MAX_QUESTION_CHARS = 8_000;

  /** Largest file. */
  public static final long MAX_FILE_BYTES = 16L * 1024 * 1024;

  /** How much of the first question a default title keeps. */
  static final int DEFAULT_TITLE_CHARS = 80;

  private static final ObjectMapper JSON = Json.newMapper();

  private final ConversationFiles files;
  private final Redactor redactor;

  /** The conversations of {@code dataRoot}, redacted by {@code redactor}. */
  public ConversationStore(Path dataRoot, Redactor redactor) {
    this.files = new ConversationFiles(dataRoot.toAbsolutePath().normalize().resolve(DIRECTORY));
    this.redactor = redactor;
  }

  /** The conversations of a configuration's data directory, redacted as its traces are. */
  public static ConversationStore of(BrainConfig config) {
    return new ConversationStore(config.dataDir(), Brain.traces(config).redactor());
  }

  /** The folder, {@code <data>/chat-transcripts}. */
  public Path root() {
    return files.root();
  }

  /** The redactor saves and exports pass. */
  public Redactor redactor() {
    return redactor;
  }

  /** The saved conversations, last saved first; a file that cannot be read is left out. */
  public List<Conversation.Summary> list() throws IOException {
    var out = new ArrayList<Conversation.Summary>();
    for (Path file : files.list()) {
      try {
        out.add(files.summary(file));
      } catch (IOException | RuntimeException e) {
        // A damaged file is skipped here; showing or exporting it says why.
      }
    }
    out.sort(
        Comparator.comparing(Conversation.Summary::updatedAt, Comparator.reverseOrder())
            .thenComparing(Conversation.Summary::id, Comparator.reverseOrder()));
    return out;
  }

  /**
   * The conversation named by {@code ref}: its id, a unique prefix of one, or {@code latest} (the
   * last saved).
   *
   * @throws ConversationException {@code NOT_FOUND} when none matches, {@code INVALID} for a ref
   *     that is no id or matches several, {@code UNREADABLE} for a damaged file
   */
  public Conversation find(String ref) throws IOException {
    String r = ref == null ? "" : ref.strip();
    if (r.equals("latest") || r.equals("last")) {
      List<Conversation.Summary> all = list();
      if (all.isEmpty()) {
        throw ConversationFiles.notFound(r);
      }
      return files.read(all.get(0).id());
    }
    if (!r.matches("[0-9A-Za-z][0-9A-Za-z.-]{0,40}")) {
      throw new ConversationException(
          ConversationException.Kind.INVALID,
          "'"
              + r
              + "' is not a conversation id; give an id (or a unique prefix of one) as 'brain chat"
              + " list' or GET /api/conversations lists them",
          "id");
    }
    var matches = new ArrayList<String>();
    for (Path file : files.list()) {
      String id = ConversationFiles.idOf(file);
      if (id.equals(r)) {
        return files.read(id);
      }
      if (id.startsWith(r)) {
        matches.add(id);
      }
    }
    if (matches.isEmpty()) {
      throw ConversationFiles.notFound(r);
    }
    if (matches.size() > 1) {
      throw new ConversationException(
          ConversationException.Kind.INVALID,
          "'"
              + r
              + "' matches "
              + matches.size()
              + " conversations ("
              + String.join(", ", matches.subList(0, Math.min(5, matches.size())))
              + "); give more of the id",
          "id");
    }
    return files.read(matches.get(0));
  }

  /**
   * Saves turns: a new conversation when {@code id} is {@code null}, else merged into that one. A
   * posted turn replaces the saved turn of the same {@code id} and is added otherwise (a turn
   * without an id gets the next one); turns marked {@code "unsaved": true} are dropped. The title
   * is {@code title} when given, else the saved one, else the first question's start.
   *
   * @return the saved conversation, or empty when nothing was to be saved (no turn left of a new
   *     conversation)
   * @throws ConversationException {@code INVALID} for a malformed id, title or turn, {@code
   *     NOT_FOUND} for an id with no file (it was deleted), {@code TOO_LARGE} past a bound
   */
  public synchronized Optional<Conversation> save(String id, String title, List<ObjectNode> turns)
      throws IOException {
    String cleanTitle = title == null ? null : title(title);
    var kept = new ArrayList<ObjectNode>();
    for (int i = 0; i < turns.size(); i++) {
      ObjectNode turn = turns.get(i);
      validate(turn, i);
      if (!turn.path("unsaved").asBoolean(false)) {
        kept.add(turn.deepCopy());
      }
    }
    Instant now = Instant.now();
    Conversation saved = id == null ? null : find(requireId(id));
    if (saved == null && kept.isEmpty()) {
      return Optional.empty();
    }
    // What is added is redacted as one document, as a trace's files are.
    ObjectNode added = JSON.createObjectNode();
    added.set("turns", JSON.valueToTree(kept));
    if (cleanTitle != null) {
      added.put("title", cleanTitle);
    }
    redactor.redactTree(added);
    kept.clear();
    added.withArray("turns").forEach(t -> kept.add((ObjectNode) t));
    if (cleanTitle != null) {
      cleanTitle = added.path("title").asText();
    }
    List<ObjectNode> merged = merge(saved == null ? List.of() : saved.turns(), kept);
    if (merged.size() > MAX_TURNS) {
      throw new ConversationException(
          ConversationException.Kind.TOO_LARGE,
          "a conversation keeps at most " + MAX_TURNS + " turns; start a new chat",
          "turns");
    }
    String newTitle =
        cleanTitle != null
            ? cleanTitle
            : saved != null && saved.title() != null ? saved.title() : defaultTitle(merged);
    var conversation =
        new Conversation(
            SCHEMA_VERSION,
            saved == null ? RunId.next(now) : saved.id(),
            newTitle,
            saved == null ? now : saved.createdAt(),
            now,
            merged);
    files.write(conversation);
    return Optional.of(conversation);
  }

  /**
   * Renames a conversation.
   *
   * @throws ConversationException {@code NOT_FOUND}, or {@code INVALID} for a blank or long title
   */
  public synchronized Conversation rename(String id, String title) throws IOException {
    Conversation saved = find(requireId(id));
    if (title == null) {
      throw new ConversationException(
          ConversationException.Kind.INVALID, "give the new \"title\"", "title");
    }
    String clean = redactor.redact(title(title));
    var renamed =
        new Conversation(
            SCHEMA_VERSION, saved.id(), clean, saved.createdAt(), Instant.now(), saved.turns());
    files.write(renamed);
    return renamed;
  }

  /**
   * Deletes a conversation's file.
   *
   * @throws ConversationException {@code NOT_FOUND} when there is none
   */
  public synchronized void delete(String id) throws IOException {
    String exact = requireId(id);
    if (!Files.deleteIfExists(files.root().resolve(exact + ".json"))) {
      throw ConversationFiles.notFound(exact);
    }
  }

  /** An exact conversation id (run-id shaped); {@code INVALID} otherwise. */
  private static String requireId(String id) {
    String s = id == null ? "" : id.strip();
    if (!RunId.matches(s)) {
      throw new ConversationException(
          ConversationException.Kind.INVALID,
          "'" + s + "' is not a conversation id (like 20261129T003000.123Z-0123456789ab)",
          "id");
    }
    return s;
  }

  private static String title(String title) {
    String t = title.strip().replaceAll("\\s+", " ");
    if (t.isEmpty()) {
      throw new ConversationException(
          ConversationException.Kind.INVALID, "the title is empty; give a few words", "title");
    }
    if (t.length() > MAX_TITLE_CHARS) {
      throw new ConversationException(
          ConversationException.Kind.TOO_LARGE,
          "the title has " + t.length() + " characters; at most " + MAX_TITLE_CHARS,
          "title");
    }
    return t;
  }

  private static void validate(ObjectNode turn, int index) {
    JsonNode question = turn.get("question");
    String where = "turns[" + index + "]";
    if (question == null || !question.isTextual() || question.asText().isBlank()) {
      throw new ConversationException(
          ConversationException.Kind.INVALID,
          where + " has no \"question\": each turn is an object with its question text",
          where + ".question");
    }
    if (question.asText().length() > MAX_QUESTION_CHARS) {
      throw new ConversationException(
          ConversationException.Kind.TOO_LARGE,
          where + ".question has more than " + MAX_QUESTION_CHARS + " characters",
          where + ".question");
    }
    JsonNode id = turn.get("id");
    if (id != null && !id.isNull() && !(id.canConvertToInt() && id.isIntegralNumber())) {
      throw new ConversationException(
          ConversationException.Kind.INVALID,
          where + ".id must be a whole number (the turn's number in the conversation)",
          where + ".id");
    }
  }

  /** The saved turns with the posted ones in place by id, new ones after, ordered by id. */
  private static List<ObjectNode> merge(List<ObjectNode> saved, List<ObjectNode> posted) {
    var byId = new TreeMap<Long, ObjectNode>();
    long next = 1;
    for (ObjectNode t : saved) {
      long id = t.path("id").asLong(next);
      byId.put(id, t);
      next = Math.max(next, id + 1);
    }
    for (ObjectNode t : posted) {
      long id;
      if (t.hasNonNull("id")) {
        id = t.get("id").asLong();
      } else {
        id = Math.max(next, byId.isEmpty() ? 1 : byId.lastKey() + 1);
        t.put("id", id);
      }
      byId.put(id, t);
      next = Math.max(next, id + 1);
    }
    return new ArrayList<>(byId.values());
  }

  private static String defaultTitle(List<ObjectNode> turns) {
    String first = turns.isEmpty() ? "" : turns.get(0).path("question").asText().strip();
    String line = first.replaceAll("\\s+", " ");
    return line.length() <= DEFAULT_TITLE_CHARS
        ? line
        : line.substring(0, DEFAULT_TITLE_CHARS - 1).strip() + "…";
  }
}
