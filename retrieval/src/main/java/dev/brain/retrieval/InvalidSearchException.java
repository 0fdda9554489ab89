package dev.brain.retrieval;

import java.util.List;

/**
 * A search request that cannot be run as given: an empty query, an unknown lane or source type, a
 * limit out of range, a date range that ends before it starts. The message names the field, the
 * value and what is allowed; surfaces map it to a usage error (CLI exit 2, HTTP 400/422).
 */
public final class InvalidSearchException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final String field;
  private final List<String> allowedValues;

  /**
   * @param field the request field at fault, in wire form ({@code query}, {@code lanes}, {@code
   *     source_types}, {@code limit}, ...)
   * @param problem what is wrong, naming the value
   * @param allowedValues the values the field accepts, or empty when it is not an enumeration
   */
  public InvalidSearchException(String field, String problem, List<String> allowedValues) {
    super(message(field, problem, allowedValues));
    this.field = field;
    this.allowedValues = List.copyOf(allowedValues);
  }

  /** An error for a field that is not an enumeration. */
  public InvalidSearchException(String field, String problem) {
    this(field, problem, List.of());
  }

  /** The request field at fault, in wire form ({@code query}, {@code lanes}, ...). */
  public String field() {
    return field;
  }

  /** The values the field accepts; empty when the field is not an enumeration. */
  public List<String> allowedValues() {
    return allowedValues;
  }

  private static String message(String field, String problem, List<String> allowed) {
    String base = "invalid " + field + ": " + problem;
    return allowed.isEmpty() ? base : base + " (allowed: " + String.join(", ", allowed) + ")";
  }
}
