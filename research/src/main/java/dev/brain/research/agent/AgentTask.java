package dev.brain.research.agent;

import dev.brain.research.plan.ConversationTurn;
import java.util.List;

/**
 * The task an agent run is given when it continues a conversation: the user's task first, then the
 * earlier turns (question and the keys they cited) as context. Context only: the run's answer may
 * cite only what its own tools return, so an earlier turn's keys are read again, never taken as
 * proof.
 */
public final class AgentTask {
  private AgentTask() {}

  /** Most earlier turns given as context (the latest ones). */
  public static final int MAX_TURNS = 5;

  /** Longest earlier question kept; a longer one is cut. */
  static final int QUESTION_CHARS = 300;

  /** Most cited keys of one earlier turn named. */
  static final int KEYS = 8;

  /** {@code task} with the context of {@code conversation} (oldest first), or as it is. */
  public static String of(String task, List<ConversationTurn> conversation) {
    if (conversation == null || conversation.isEmpty()) {
      return task;
    }
    var out =
        new StringBuilder(task.strip())
            .append(
                "\n\nEarlier in this conversation (context only: search again and cite only what"
                    + " your tools return in this run):");
    List<ConversationTurn> latest =
        conversation.subList(Math.max(0, conversation.size() - MAX_TURNS), conversation.size());
    for (ConversationTurn turn : latest) {
      String q = turn.question().strip().replaceAll("\\s+", " ");
      out.append("\n- ")
          .append(q.length() <= QUESTION_CHARS ? q : q.substring(0, QUESTION_CHARS - 1) + "…");
      List<String> keys = turn.citedKeys().stream().limit(KEYS).toList();
      if (!keys.isEmpty()) {
        out.append(" (it cited ").append(String.join(", ", keys)).append(')');
      }
    }
    return out.toString();
  }
}
