package dev.brain.server.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The body of every error response: {@code {"error": {"code", "message", "field"}}}.
 *
 * @param code a stable machine-readable code: {@code bad_json}, {@code empty_question}, {@code
 *     missing_parameter}, {@code not_found}, {@code body_too_large}, {@code invalid_option}, {@code
 *     model_unavailable}, {@code busy}, {@code internal}
 * @param message what went wrong and how to fix it, for people
 * @param field the request field at fault (wire name), or {@code null}
 * @param allowedValues the values {@code field} accepts when it is an enumeration; omitted if empty
 * @param answerStatus for synthesis endpoints: {@code unavailable} or {@code error}; else omitted
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
record ApiError(
    String code,
    String message,
    @JsonInclude(JsonInclude.Include.ALWAYS) String field,
    List<String> allowedValues,
    String answerStatus) {

  ApiError {
    allowedValues = allowedValues == null ? List.of() : List.copyOf(allowedValues);
  }

  /** The envelope around this error. */
  Envelope envelope() {
    return new Envelope(this);
  }

  /** {@code {"error": ...}}. */
  record Envelope(ApiError error) {}
}
