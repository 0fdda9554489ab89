package dev.brain.research.run;

import dev.brain.models.chat.ChatException;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatMessage;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A model's advisory review of an answer against the evidence it was written from: each statement
 * the evidence does not support, one per line. Advisory only: the run records what the reviewer
 * said and never changes its verdict.
 */
final class AnswerReview {
  private AnswerReview() {}

  /** The reviewer's instructions (version {@value #VERSION}). */
  static final String SYSTEM =
      "You review an answer against the evidence it was written from. Do not answer the question"
          + " yourself. List every statement of the answer that the evidence does not support,"
          + " or that cites a record whose text does not say it, one per line, each line starting"
          + " with \"- \". If every statement is supported, reply exactly: No issues.";

  /** The prompt's version, recorded with each review. */
  static final String VERSION = "research-review/1";

  /** Most characters of the reply kept. */
  static final int MAX_REPLY_CHARS = 4_000;

  /** Most findings kept. */
  static final int MAX_FINDINGS = 10;

  /**
   * What the reviewer said: its findings (empty: no issues), or why it gave no review.
   *
   * @param input the text sent (after the system prompt)
   * @param reply the raw reply, or {@code null}
   * @param findings the unsupported statements it named
   * @param error why there is no review, or {@code null}
   */
  record Outcome(String input, String reply, List<String> findings, String error) {}

  static Outcome review(ChatModel model, String evidence, String answer, Duration timeout) {
    String input = "## Evidence\n\n" + evidence.strip() + "\n\n## Answer\n\n" + answer.strip();
    var request =
        new ChatRequest(
            List.of(ChatMessage.system(SYSTEM), ChatMessage.user(input)),
            timeout,
            false,
            0.0,
            400,
            List.of());
    String reply;
    try {
      reply = model.chat(request, ChatListener.NONE).content();
    } catch (ChatException e) {
      return new Outcome(
          input, null, List.of(), e.kind().name().toLowerCase(Locale.ROOT) + ": " + e.getMessage());
    }
    String kept = reply.length() > MAX_REPLY_CHARS ? reply.substring(0, MAX_REPLY_CHARS) : reply;
    List<String> findings =
        kept.lines()
            .map(String::strip)
            .filter(l -> l.startsWith("- ") || l.startsWith("* "))
            .map(l -> l.substring(2).strip())
            .filter(l -> !l.isEmpty())
            .limit(MAX_FINDINGS)
            .toList();
    if (findings.isEmpty() && !kept.strip().toLowerCase(Locale.ROOT).startsWith("no issues")) {
      return new Outcome(
          input, kept, List.of(), "the reply listed no findings and did not say \"No issues.\"");
    }
    return new Outcome(input, kept, findings, null);
  }
}
