package dev.brain.research.agent;

/** Receives the events of an agent run as they happen, on the run's thread. */
@FunctionalInterface
public interface AgentListener {

  /** A listener that ignores events. */
  AgentListener NONE = event -> {};

  /** The next event. */
  void onEvent(AgentEvent event);
}
