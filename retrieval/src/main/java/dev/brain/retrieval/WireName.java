package dev.brain.retrieval;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * An enum whose wire name — in JSON, traces, the CLI and eval files — is its constant's name in
 * lower case ({@code ENOUGH_EVIDENCE} is {@code enough_evidence}). brain's enums implement this
 * instead of each writing the same method.
 */
public interface WireName {
  /** The constant's name ({@link Enum#name()}). */
  String name();

  /** The lower-case wire name. */
  @JsonValue
  default String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
