package dev.brain.research.json;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.brain.chunking.ChunkRole;
import java.nio.file.Path;

/**
 * brain's one JSON configuration, shared by the HTTP API, the CLI ({@code --json}), trace files and
 * every reader of brain's own JSON: snake_case names, ISO-8601 dates and durations, paths as plain
 * strings. (The chat providers' wire JSON in {@code models} follows each provider's protocol and is
 * not brain's shape.)
 */
public final class Json {
  private Json() {}

  private static final ObjectMapper SHARED = newMapper();

  /** A shared mapper with brain's settings (compact output); never reconfigure it. */
  public static ObjectMapper mapper() {
    return SHARED;
  }

  /**
   * A new mapper with brain's settings (compact output). A new instance each call, so a caller that
   * changes settings (the CLI indents) changes only its own.
   */
  public static ObjectMapper newMapper() {
    return new ObjectMapper()
        .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .registerModule(new JavaTimeModule())
        .registerModule(new SimpleModule().addSerializer(Path.class, ToStringSerializer.instance))
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
        .addMixIn(ChunkRole.class, ChunkRoleWire.class);
  }

  /** A chunk role on the wire is its {@link ChunkRole#wireName()} ({@code raw}), everywhere. */
  private abstract static class ChunkRoleWire {
    @JsonValue
    abstract String wireName();
  }
}
