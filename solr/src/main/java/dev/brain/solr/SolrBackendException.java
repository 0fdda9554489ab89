package dev.brain.solr;

/**
 * The SolrCloud backend cannot be used as configured: Solr is not reachable, the collection is not
 * brain's, or its vector dimension is not the embedding model's. The message names what was tried
 * and the fix; surfaces show it as it is.
 */
public final class SolrBackendException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error with a message a user can act on. */
  public SolrBackendException(String message) {
    super(message);
  }

  /** An error with a message a user can act on, and its cause for the log. */
  public SolrBackendException(String message, Throwable cause) {
    super(message, cause);
  }
}
