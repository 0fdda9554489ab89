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
  private final String problem;
  private final List<String> allowedValues;
  private final boolean empty;

  /**
   * @param field the request field at fault, in wire form ({@code query}, {@code lanes}, {@code
   *     source_types}, {@code limit}, ...)
   * @param problem what is wrong, naming the value
   * @param allowedValues the values the field accepts, or empty when it is not an enumeration
   */
  public InvalidSearchException(String field, String problem, List<String> allowedValues) {
    this(field, problem, allowedValues, false);
  }

  private InvalidSearchException(
      String field, String problem, List<String> allowedValues, boolean empty) {
    super(message(field, problem, allowedValues));
    this.field = field;
    this.problem = problem;
    this.allowedValues = List.copyOf(allowedValues);
    this.empty = empty;
  }

  /**
   * The error of a request whose query or question is empty: nothing to search for, which surfaces
   * tell apart from a value out of range (HTTP 400 {@code empty_question} rather than 422).
   */
  public static InvalidSearchException empty(String field, String problem) {
    return new InvalidSearchException(field, problem, List.of(), true);
  }

  /** An error for a field that is not an enumeration. */
  public InvalidSearchException(String field, String problem) {
    this(field, problem, List.of());
  }

  /**
   * The same error naming the field as a surface spells it: {@code q} for the query of {@code GET
   * /api/search}, {@code --source-type} for {@code source_types} on the command line.
   */
  public InvalidSearchException named(String surfaceField) {
    return new InvalidSearchException(surfaceField, problem, allowedValues, empty);
  }

  /** The request field at fault, in wire form ({@code query}, {@code lanes}, ...). */
  public String field() {
    return field;
  }

  /** Whether the request had nothing to search for (see {@link #empty}). */
  public boolean isEmptyInput() {
    return empty;
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
