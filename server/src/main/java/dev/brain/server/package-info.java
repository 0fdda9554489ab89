/**
 * The {@code brain} application's entry point and what its surfaces share: {@link
 * dev.brain.server.Main} (what {@code bin/brain} runs), {@link dev.brain.server.BuildInfo} (version
 * and commit) and {@link dev.brain.server.StrictUtf8} (bytes from outside read as strict UTF-8).
 * These are public for the {@code cli}, {@code http} and {@code mcp} packages, not as a library
 * API; putting stderr back on descriptor 2 is package-private.
 */
package dev.brain.server;
