package dev.brain.server.chat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.brain.research.json.Json;
import dev.brain.research.run.RunId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The conversation files of one folder on disk: read (bounded, versioned), listed without reading
 * their turns, and written whole to a private temporary sibling that is renamed into place
 * atomically. Callers serialize writes.
 */
final class ConversationFiles {
  private static final ObjectMapper JSON =
      Json.newMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final boolean POSIX =
      FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private final Path root;

  ConversationFiles(Path root) {
    this.root = root;
  }

  /** The folder. */
  Path root() {
    return root;
  }

  static ConversationException notFound(String ref) {
    return new ConversationException(
        ConversationException.Kind.NOT_FOUND,
        "no saved conversation '"
            + ref
            + "' in "
            + ConversationStore.DIRECTORY
            + "; list them with 'brain chat list'",
        "id");
  }

  /** The conversation of an exact id. */
  Conversation read(String id) throws IOException {
    Path file = root.resolve(id + ".json");
    try {
      if (Files.size(file) > ConversationStore.MAX_FILE_BYTES) {
        throw unreadable(id, "larger than " + ConversationStore.MAX_FILE_BYTES + " bytes");
      }
      JsonNode tree = JSON.readTree(file.toFile());
      if (!ConversationStore.SCHEMA_VERSION.equals(tree.path("schema_version").asText())) {
        throw unreadable(
            id,
            "schema '"
                + tree.path("schema_version").asText()
                + "', this brain reads "
                + ConversationStore.SCHEMA_VERSION);
      }
      return JSON.treeToValue(tree, Conversation.class);
    } catch (NoSuchFileException e) {
      throw notFound(id);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw unreadable(id, "not valid JSON: " + e.getOriginalMessage());
    }
  }

  private static ConversationException unreadable(String id, String why) {
    return new ConversationException(
        ConversationException.Kind.UNREADABLE,
        "the saved conversation " + id + " cannot be read (" + why + ")",
        "id");
  }

  /** Writes a conversation: a private temporary sibling, then an atomic rename over the file. */
  void write(Conversation conversation) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(conversation);
    if (bytes.length > ConversationStore.MAX_FILE_BYTES) {
      throw new ConversationException(
          ConversationException.Kind.TOO_LARGE,
          "the conversation would take "
              + bytes.length
              + " bytes; at most "
              + ConversationStore.MAX_FILE_BYTES
              + ": start a new chat",
          "turns");
    }
    createRoot();
    Path target = root.resolve(conversation.id() + ".json");
    Path temporary = Files.createTempFile(root, ".tmp-" + conversation.id() + "-", ".json");
    try {
      Files.write(temporary, bytes);
      try {
        Files.move(
            temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException(
            "cannot rename "
                + temporary
                + " into place atomically; keep the data directory on a"
                + " local file system",
            e);
      }
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  private void createRoot() throws IOException {
    if (Files.isDirectory(root)) {
      return;
    }
    Files.createDirectories(root.getParent());
    try {
      if (POSIX) {
        Files.createDirectory(
            root,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } else {
        Files.createDirectory(root);
      }
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // Another writer made it first.
    }
  }

  /** The conversation files (named by an id, no temporary ones). */
  List<Path> list() throws IOException {
    var out = new ArrayList<Path>();
    if (!Files.isDirectory(root)) {
      return out;
    }
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(root, "*.json")) {
      for (Path file : dir) {
        if (RunId.matches(idOf(file)) && Files.isRegularFile(file)) {
          out.add(file);
        }
      }
    }
    out.sort(Comparator.comparing(Path::getFileName).reversed());
    return out;
  }

  static String idOf(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
  }

  /** A file's summary, read without building its turns (files can be large). */
  Conversation.Summary summary(Path file) throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    int turns = 0;
    try (InputStream in = Files.newInputStream(file);
        JsonParser p = JSON.getFactory().createParser(in)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException("not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (name.equals("turns") && value == JsonToken.START_ARRAY) {
          while (p.nextToken() != JsonToken.END_ARRAY) {
            turns++;
            p.skipChildren();
          }
        } else if (value.isScalarValue()) {
          fields.put(name, p.getValueAsString());
        } else {
          p.skipChildren();
        }
      }
    }
    if (!ConversationStore.SCHEMA_VERSION.equals(fields.get("schema_version"))) {
      throw new IOException("not " + ConversationStore.SCHEMA_VERSION);
    }
    return new Conversation.Summary(
        idOf(file),
        fields.get("title"),
        Instant.parse(fields.get("created_at")),
        Instant.parse(fields.get("updated_at")),
        turns);
  }
}
