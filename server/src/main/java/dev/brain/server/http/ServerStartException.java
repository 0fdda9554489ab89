package dev.brain.server.http;

/**
 * The server could not start listening: its port is taken, or its host is not an address of this
 * machine. The message names the address and what to pass instead.
 */
public final class ServerStartException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  ServerStartException(String message) {
    super(message);
  }
}
