package dev.brain.research.plan;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What a chat follow-up carries over from earlier turns. Only the user's own words and record keys
 * cross turns: earlier model answers are derived text and are never part of it, so they can never
 * become evidence or synthesis input.
 *
 * <ul>
 *   <li>{@code priorQuestions} give a short follow-up ("and the grind size?") its context: they
 *       shape the retrieval question, never the evidence;
 *   <li>{@code pinnedEvidenceKeys} are records the user pinned: they are read from the index and
 *       added to the evidence before synthesis (after the judge), marked {@code pinned};
 *   <li>{@code priorEvidenceKeys} are the keys earlier turns cited or gathered: for a short
 *       follow-up that continues the earlier question (it has a {@link FollowUp}) they are read
 *       again and enter as candidate rows, kept only when they match the follow-up's required
 *       concepts, never as proof; otherwise (a correction, a question of its own) they are recorded
 *       in the trace only, so a corrective follow-up does not anchor on evidence the user rejected.
 * </ul>
 *
 * @param priorQuestions earlier user questions, oldest first (at most {@value #MAX_PRIOR_QUESTIONS}
 *     kept, the newest)
 * @param pinnedEvidenceKeys record keys the user pinned (at most {@value #MAX_PINNED} kept)
 * @param priorEvidenceKeys record keys of earlier turns' evidence
 */
public record ChatContinuity(
    @JsonProperty("prior_questions") List<String> priorQuestions,
    @JsonProperty("pinned_evidence_keys") List<String> pinnedEvidenceKeys,
    @JsonProperty("prior_evidence_keys") List<String> priorEvidenceKeys) {

  /** Most earlier questions kept (a chat keeps its last 8 turns). */
  public static final int MAX_PRIOR_QUESTIONS = 8;

  /** Most pinned keys kept. */
  public static final int MAX_PINNED = 24;

  /** No continuity: a first question. */
  public static final ChatContinuity NONE = new ChatContinuity(List.of(), List.of(), List.of());

  public ChatContinuity {
    priorQuestions = last(clean(priorQuestions), MAX_PRIOR_QUESTIONS);
    pinnedEvidenceKeys = clean(pinnedEvidenceKeys).stream().distinct().limit(MAX_PINNED).toList();
    priorEvidenceKeys = clean(priorEvidenceKeys).stream().distinct().toList();
  }

  /**
   * {@code question} as retrieval reads it: chat-shaped ({@code Current question:}, {@code Recent
   * user questions:}) when there are earlier questions, else the question alone. Earlier answers
   * never enter it. The runner searches with this; surfaces that build packs themselves use it too.
   */
  public String retrievalQuestion(String question) {
    return retrievalQuestion(question, this);
  }

  /**
   * The continuity of a conversation's earlier turns, oldest first: their questions, and their
   * cited then gathered record keys as prior evidence (the newest turn's first). Nothing is pinned.
   */
  public static ChatContinuity of(List<ConversationTurn> turns) {
    var questions = new ArrayList<String>();
    var keys = new LinkedHashSet<String>();
    for (int i = turns.size() - 1; i >= 0; i--) {
      keys.addAll(turns.get(i).citedKeys());
      keys.addAll(turns.get(i).evidenceKeys());
    }
    turns.forEach(t -> questions.add(t.question()));
    return new ChatContinuity(questions, List.of(), List.copyOf(keys));
  }

  /** Whether there is nothing to carry over. */
  @JsonIgnore
  public boolean isEmpty() {
    return priorQuestions.isEmpty() && pinnedEvidenceKeys.isEmpty() && priorEvidenceKeys.isEmpty();
  }

  private static List<String> clean(List<String> values) {
    if (values == null) {
      return List.of();
    }
    return values.stream().filter(v -> v != null && !v.isBlank()).map(String::strip).toList();
  }

  private static List<String> last(List<String> values, int n) {
    return values.size() <= n ? values : values.subList(values.size() - n, values.size());
  }

  /**
   * The question to research: the current question, plus the earlier user questions of a chat (from
   * the continuity and from a chat-shaped question). Previous answers, prior evidence and pinned
   * keys written into a chat-shaped question are dropped here, so they reach neither the search nor
   * the synthesis input.
   */
  private static String retrievalQuestion(String question, ChatContinuity continuity) {
    QuestionText text = QuestionText.parse(question);
    var prior = new LinkedHashSet<String>();
    for (String q : continuity.priorQuestions()) {
      String current = QuestionText.parse(q).current().strip();
      if (!current.isEmpty()) {
        prior.add(current);
      }
    }
    prior.addAll(text.priorQuestions());
    prior.remove(text.current());
    if (prior.isEmpty()) {
      return text.current();
    }
    var out =
        new StringBuilder("Current question: ")
            .append(text.current())
            .append("\nRecent user questions:\n");
    List<String> last = new ArrayList<>(prior);
    last = last.subList(Math.max(0, last.size() - ChatContinuity.MAX_PRIOR_QUESTIONS), last.size());
    last.forEach(q -> out.append("- ").append(oneLine(q)).append('\n'));
    return out.toString().strip();
  }

  private static String oneLine(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }
}
