/**
 * brain's web server on Helidon SE: the JSON API, the SSE research and agent endpoints, the {@code
 * /api/cli} endpoint {@code bin/brain} sends read-only commands to, and the web UI.
 *
 * <p>{@link dev.brain.server.http.BrainServer} is the entry point (and {@link
 * dev.brain.server.http.ServerStartException} why it could not listen). {@link
 * dev.brain.server.http.CliRunner}, {@link dev.brain.server.http.CliProof} and {@link
 * dev.brain.server.http.ReadDeadlines} are public only for the {@code cli} and {@code mcp}
 * packages. The rest is package-private: one {@code HttpService} per concern, the request guard,
 * strict JSON reading and the mapping of every error to the {@code ApiError} envelope.
 */
package dev.brain.server.http;
