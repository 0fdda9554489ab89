package dev.brain.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.nio.file.Path;

/**
 * brain's one JSON configuration, shared by the CLI ({@code --json}) and the HTTP API: snake_case
 * names, ISO-8601 dates and durations, paths as plain strings.
 */
public final class Json {
  private Json() {}

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
        .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);
  }
}
