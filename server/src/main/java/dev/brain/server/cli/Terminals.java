package dev.brain.server.cli;

/** Whether output goes to a person's terminal (then progress bars are drawn) or to a pipe/file. */
final class Terminals {
  private Terminals() {}

  /**
   * True when stderr is an interactive terminal. JDK 22+ returns a console even for pipes, so its
   * {@code isTerminal()} is asked when present; {@code BRAIN_PROGRESS=always|never} overrides.
   */
  static boolean stderrIsTerminal() {
    var forced = System.getenv("BRAIN_PROGRESS");
    if ("always".equalsIgnoreCase(forced)) {
      return true;
    }
    if ("never".equalsIgnoreCase(forced) || "true".equalsIgnoreCase(System.getenv("CI"))) {
      return false;
    }
    var console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) console.getClass().getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // JDK 21: a non-null console is a terminal
    }
  }
}
