/**
 * The front door of brain: {@link dev.brain.Brain} opens a data directory and gives index, search,
 * research, note research, traces and status; {@link dev.brain.BrainConfig} is the one typed
 * configuration it is opened with (read from {@code brain.yaml}, then the environment, then flags).
 * Every surface — the CLI, the HTTP and MCP servers, the agent's tools, the evals — takes its
 * options, requests and models from here.
 */
package dev.brain;
