package dev.brain.server.http;

import io.helidon.http.Status;
import java.util.List;

/**
 * A request the API answers with an error status and the structured envelope. Thrown by handlers;
 * mapped once by {@link ErrorMapping}.
 */
final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Status status;
  private final transient ApiError error;
  private final long retryAfterSeconds;

  ApiException(Status status, ApiError error, long retryAfterSeconds) {
    super(error.message());
    this.status = status;
    this.error = error;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  ApiException(Status status, String code, String message, String field) {
    this(status, new ApiError(code, message, field, List.of(), null), 0);
  }

  static ApiException badRequest(String code, String message, String field) {
    return new ApiException(Status.BAD_REQUEST_400, code, message, field);
  }

  static ApiException notFound(String message, String field) {
    return new ApiException(Status.NOT_FOUND_404, "not_found", message, field);
  }

  static ApiException invalidOption(String message, String field) {
    return new ApiException(Status.UNPROCESSABLE_CONTENT_422, "invalid_option", message, field);
  }

  /** An {@code invalid_option} error naming the values {@code field} allows. */
  static ApiException invalidOption(String message, String field, List<String> allowed) {
    return new ApiException(
        Status.UNPROCESSABLE_CONTENT_422,
        new ApiError("invalid_option", message, field, allowed, null),
        0);
  }

  static ApiException tooLarge(long limit, String endpoint) {
    return new ApiException(
        Status.REQUEST_ENTITY_TOO_LARGE_413,
        "body_too_large",
        "the request body is larger than "
            + limit
            + " bytes, the limit of "
            + endpoint
            + " (server.max-body-bytes / server.max-pack-body-bytes in brain.yaml)",
        null);
  }

  Status status() {
    return status;
  }

  ApiError error() {
    return error;
  }

  /** Seconds for a {@code Retry-After} header, or 0 for none. */
  long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
