package dev.brain.research.run;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.ConversationTurn;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.retrieval.InvalidSearchException;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One research run to do. Start from {@link #of(String)} and change fields with the {@code with...}
 * methods.
 *
 * @param question the user's current question, as typed (a chat-shaped prompt is reduced to its
 *     current and earlier questions; anything else in it, such as a previous answer, is dropped)
 * @param options how the pack is built; retrieval never takes related rows in a run: with {@code
 *     include_related} the expansion stage adds the evidence rows' link neighbours after the judge
 *     (labelled related, after the question's evidence), besides any expansion the judge asks for
 * @param synthesis the evidence budget and model timeout of the answer (the timeout is capped by
 *     the synthesis budget)
 * @param budgets steps, deadline and stage budgets
 * @param planner chat model asked for a plan, or {@code null} for the deterministic planner
 * @param model chat model that writes the answer, or {@code null} for the extractive synthesizer
 * @param continuity what a chat follow-up carries over; {@link ChatContinuity#NONE} for a first
 *     question
 * @param surface who asked: {@code cli}, {@code web_chat}, {@code web_api}, {@code test}, ...
 *     (recorded in the trace)
 * @param trace whether to write a trace directory (default true)
 * @param reviewer chat model asked to review the answer against its evidence after verification
 *     (advisory, recorded, never changing the verdict), or {@code null} for no review
 */
public record RunRequest(
    String question,
    ResearchOptions options,
    SynthesisOptions synthesis,
    RunBudgets budgets,
    @JsonIgnore ChatModel planner,
    @JsonIgnore ChatModel model,
    ChatContinuity continuity,
    String surface,
    boolean trace,
    @JsonIgnore ChatModel reviewer) {

  /**
   * @throws InvalidSearchException if the question is empty or longer than {@link
   *     ResearchOptions#MAX_QUESTION_CHARS} characters (every surface refuses it the same way)
   */
  public RunRequest {
    if (question == null || question.isBlank()) {
      throw InvalidSearchException.empty("question", "the question is empty; ask something");
    }
    if (question.length() > ResearchOptions.MAX_QUESTION_CHARS) {
      throw new InvalidSearchException(
          "question",
          "the question is "
              + question.length()
              + " characters long; at most "
              + ResearchOptions.MAX_QUESTION_CHARS
              + " are accepted (to find a long text, search for a few of its words)");
    }
    options = options == null ? ResearchOptions.defaults() : options;
    synthesis = synthesis == null ? SynthesisOptions.defaults() : synthesis;
    budgets = budgets == null ? RunBudgets.defaults() : budgets;
    continuity = continuity == null ? ChatContinuity.NONE : continuity;
    surface = surface == null || surface.isBlank() ? "api" : surface.strip();
  }

  /** A traced run of {@code question} with every default: deterministic plan, extractive answer. */
  public static RunRequest of(String question) {
    return new RunRequest(question, null, null, null, null, null, null, null, true, null);
  }

  /** This request with other pack options. */
  public RunRequest withOptions(ResearchOptions value) {
    return copy(c -> c.options = Objects.requireNonNull(value, "value"));
  }

  /** This request with other synthesis options. */
  public RunRequest withSynthesis(SynthesisOptions value) {
    return copy(c -> c.synthesis = Objects.requireNonNull(value, "value"));
  }

  /** This request with other budgets. */
  public RunRequest withBudgets(RunBudgets value) {
    return copy(c -> c.budgets = Objects.requireNonNull(value, "value"));
  }

  /** This request with a model planner ({@code null}: deterministic only). */
  public RunRequest withPlanner(ChatModel value) {
    return copy(c -> c.planner = value);
  }

  /** This request with a chat model for the answer ({@code null}: extractive). */
  public RunRequest withModel(ChatModel value) {
    return copy(c -> c.model = value);
  }

  /** This request as a chat follow-up. */
  public RunRequest withContinuity(ChatContinuity value) {
    return copy(c -> c.continuity = value);
  }

  /**
   * This request as the next turn of a conversation: the earlier turns' questions give a short
   * follow-up its intent and their keys enter as candidates (see {@link ChatContinuity}); pinned
   * keys stay as they were.
   */
  public RunRequest withConversation(List<ConversationTurn> turns) {
    ChatContinuity of = ChatContinuity.of(turns);
    return withContinuity(
        new ChatContinuity(
            of.priorQuestions(), continuity.pinnedEvidenceKeys(), of.priorEvidenceKeys()));
  }

  /** This request with a model reviewing the answer ({@code null}: no review). */
  public RunRequest withReviewer(ChatModel value) {
    return copy(c -> c.reviewer = value);
  }

  /** This request from another surface. */
  public RunRequest withSurface(String value) {
    return copy(c -> c.surface = value);
  }

  /** This request with the trace switched on or off. */
  public RunRequest withTrace(boolean value) {
    return copy(c -> c.trace = value);
  }

  private RunRequest copy(Consumer<Copy> change) {
    var copy = new Copy(this);
    change.accept(copy);
    return copy.build();
  }

  /** The fields of a {@code RunRequest} to change before building a checked copy. */
  private static final class Copy {
    String question;
    ResearchOptions options;
    SynthesisOptions synthesis;
    RunBudgets budgets;
    ChatModel planner;
    ChatModel model;
    ChatContinuity continuity;
    String surface;
    boolean trace;
    ChatModel reviewer;

    Copy(RunRequest r) {
      question = r.question;
      options = r.options;
      synthesis = r.synthesis;
      budgets = r.budgets;
      planner = r.planner;
      model = r.model;
      continuity = r.continuity;
      surface = r.surface;
      trace = r.trace;
      reviewer = r.reviewer;
    }

    RunRequest build() {
      return new RunRequest(
          question,
          options,
          synthesis,
          budgets,
          planner,
          model,
          continuity,
          surface,
          trace,
          reviewer);
    }
  }
}
