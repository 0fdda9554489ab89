package dev.brain;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.plan.ChatContinuity;
import dev.brain.research.plan.ConversationTurn;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.retrieval.InvalidSearchException;
import java.util.List;

/**
 * A research request as every surface receives it: the body of {@code POST /api/research} (pack
 * only) and {@code POST /api/research/run} (pack, answer, verification), and the arguments of the
 * MCP tool {@code brain_research_pack}, read from JSON with snake_case names. Its names, limits and
 * errors live here once: {@link #validate()} and {@link #validateForPack()} throw {@link
 * InvalidSearchException} naming the field (an empty question is its {@code question}), which each
 * surface words its own way (HTTP 400/422, an MCP tool error). {@link Brain#pack(ResearchRequest)}
 * and {@link Brain#request(ResearchRequest, dev.brain.models.chat.ChatModel)} complete it from
 * {@code brain.yaml}. Every field but {@code question} is optional; {@code null} means the default.
 *
 * @param question the question; must contain a searchable word
 * @param sourceTypes only evidence of these source types
 * @param limit most evidence rows, 1 to 100; default 8
 * @param maxCharsPerDoc longest excerpt per row; default 700 (the web Chat sends 4,000)
 * @param includeRelated add link neighbours of the top rows; default false
 * @param relatedLimit most related rows; default 5
 * @param includeTopicBrief force a topic brief on or off; default automatic
 * @param semantic use the vector lane; default true
 * @param priorQuestions earlier questions of the chat, oldest first, at most {@value
 *     #MAX_PRIOR_QUESTIONS}; they shape the search of a follow-up. Earlier answers are never sent:
 *     model output is not evidence
 * @param conversation the conversation's earlier turns, oldest first, at most {@value
 *     #MAX_CONVERSATION_TURNS}: each turn's {@code question}, {@code cited_keys} and {@code
 *     evidence_keys}. A short follow-up ("and for the V60?") keeps the earlier turn's intent; the
 *     turns' keys are recorded as prior evidence, never taken as proof. Earlier answers are never
 *     sent
 * @param pinnedKeys record keys the user pinned, at most {@value #MAX_PINNED_KEYS}; added to the
 *     evidence (after the ranked rows) so the answer may cite them
 * @param synthesize run only: write an answer; default true ({@code false}: evidence only)
 * @param model run only: {@code extractive}, {@code ollama/<model>} or {@code openai/<model>};
 *     default the server's {@code chat.model}
 * @param maxEvidenceChars run only: the synthesis evidence budget; default {@code
 *     research.max-evidence-chars} (24,000)
 * @param priorEvidenceKeys run only: keys earlier turns cited; recorded in the trace, never merged
 *     into the evidence
 * @param trace run only: write a trace under {@code <data>/research-runs/}; default {@code
 *     chat.save-traces} (true)
 * @param surface run only: who asks, recorded in the trace ({@code web_chat} from the web Chat);
 *     default {@code web_api}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ResearchRequest(
    String question,
    List<String> sourceTypes,
    Integer limit,
    Integer maxCharsPerDoc,
    Boolean includeRelated,
    Integer relatedLimit,
    Boolean includeTopicBrief,
    Boolean semantic,
    List<String> priorQuestions,
    List<ConversationTurn> conversation,
    List<String> pinnedKeys,
    Boolean synthesize,
    String model,
    Integer maxEvidenceChars,
    List<String> priorEvidenceKeys,
    Boolean trace,
    String surface) {

  /** Most {@link #priorQuestions()}: the Chat keeps the last 8 turns. */
  public static final int MAX_PRIOR_QUESTIONS = 8;

  /** Most {@link #conversation()} turns. */
  public static final int MAX_CONVERSATION_TURNS = 10;

  /** Most cited or evidence keys of one conversation turn. */
  public static final int MAX_TURN_KEYS = 100;

  /** Most {@link #pinnedKeys()}. */
  public static final int MAX_PINNED_KEYS = 24;

  /** Most {@link #priorEvidenceKeys()}. */
  public static final int MAX_PRIOR_EVIDENCE_KEYS = 200;

  /** Longest {@link #question()} and prior question: the one cap every surface applies. */
  public static final int MAX_QUESTION_CHARS = ResearchOptions.MAX_QUESTION_CHARS;

  /** Longest record key in {@link #pinnedKeys()} and {@link #priorEvidenceKeys()}. */
  public static final int MAX_KEY_CHARS = 1_024;

  /** The fields only a run reads ({@code POST /api/research/run}); a pack request refuses them. */
  public static final List<String> RUN_ONLY_FIELDS =
      List.of(
          "synthesize", "model", "max_evidence_chars", "prior_evidence_keys", "trace", "surface");

  /** The fields a pack request reads, in wire form. */
  public static final List<String> PACK_FIELDS =
      List.of(
          "question",
          "source_types",
          "limit",
          "max_chars_per_doc",
          "include_related",
          "related_limit",
          "include_topic_brief",
          "semantic",
          "prior_questions",
          "conversation",
          "pinned_keys");

  /** A request for {@code question} with every option at its default. */
  public static ResearchRequest of(String question) {
    return new ResearchRequest(
        question, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null);
  }

  public ResearchRequest {
    priorQuestions = priorQuestions == null ? List.of() : List.copyOf(priorQuestions);
    conversation = conversation == null ? List.of() : List.copyOf(conversation);
    pinnedKeys = pinnedKeys == null ? List.of() : List.copyOf(pinnedKeys);
    priorEvidenceKeys = priorEvidenceKeys == null ? List.of() : List.copyOf(priorEvidenceKeys);
  }

  /**
   * Checks what the research options do not (they check their own ranges when applied).
   *
   * @return this request
   * @throws InvalidSearchException naming the field: {@code question} when it is empty or too long,
   *     else the list or name that is out of bounds
   */
  public ResearchRequest validate() {
    if (question == null || question.isBlank()) {
      throw InvalidSearchException.empty(
          "question", "the question is empty; send {\"question\": \"...\"}");
    }
    if (question.length() > MAX_QUESTION_CHARS) {
      throw invalid(
          "the question is "
              + question.length()
              + " characters long; at most "
              + MAX_QUESTION_CHARS
              + " are accepted",
          "question");
    }
    if (sourceTypes != null && sourceTypes.stream().anyMatch(t -> t == null || t.isBlank())) {
      throw invalid(
          "source_types must list source type names such as note or pdf, without nulls or blanks",
          "source_types");
    }
    for (String prior : priorQuestions) {
      if (prior == null || prior.length() > MAX_QUESTION_CHARS) {
        throw invalid(
            "each prior question must be a string of at most " + MAX_QUESTION_CHARS + " characters",
            "prior_questions");
      }
    }
    validateConversation();
    for (var keys : List.of(pinnedKeys, priorEvidenceKeys)) {
      for (String key : keys) {
        if (key == null || key.isBlank() || key.length() > MAX_KEY_CHARS) {
          throw invalid(
              "record keys must be non-empty strings of at most " + MAX_KEY_CHARS + " characters",
              keys == pinnedKeys ? "pinned_keys" : "prior_evidence_keys");
        }
      }
    }
    if (priorQuestions.size() > MAX_PRIOR_QUESTIONS) {
      throw invalid(
          "at most " + MAX_PRIOR_QUESTIONS + " prior questions, got " + priorQuestions.size(),
          "prior_questions");
    }
    if (surface != null && !surface.matches("[a-z_]{1,24}")) {
      throw invalid(
          "surface must be a short lower-case name such as web_chat, got '" + surface + "'",
          "surface");
    }
    if (priorEvidenceKeys.size() > MAX_PRIOR_EVIDENCE_KEYS) {
      throw invalid(
          "at most " + MAX_PRIOR_EVIDENCE_KEYS + " prior evidence keys", "prior_evidence_keys");
    }
    if (pinnedKeys.size() > MAX_PINNED_KEYS) {
      throw invalid(
          "at most " + MAX_PINNED_KEYS + " pinned keys, got " + pinnedKeys.size(), "pinned_keys");
    }
    return this;
  }

  private void validateConversation() {
    validateConversation(conversation);
  }

  /** The error for {@code field}, worded as {@code message} says it. */
  private static InvalidSearchException invalid(String message, String field) {
    return new InvalidSearchException(field, message);
  }

  /**
   * Checks the {@code conversation} field of a research or agent request.
   *
   * @throws InvalidSearchException naming the turn and field that is out of bounds
   */
  public static void validateConversation(List<ConversationTurn> conversation) {
    if (conversation.size() > MAX_CONVERSATION_TURNS) {
      throw invalid(
          "at most " + MAX_CONVERSATION_TURNS + " conversation turns, got " + conversation.size(),
          "conversation");
    }
    for (int i = 0; i < conversation.size(); i++) {
      ConversationTurn turn = conversation.get(i);
      String field = "conversation[" + i + "]";
      if (turn == null || turn.question().isEmpty()) {
        throw invalid(field + " must be an object with a non-empty question", field + ".question");
      }
      if (turn.question().length() > MAX_QUESTION_CHARS) {
        throw invalid(
            field + ".question is at most " + MAX_QUESTION_CHARS + " characters",
            field + ".question");
      }
      checkTurnKeys(turn.citedKeys(), field + ".cited_keys");
      checkTurnKeys(turn.evidenceKeys(), field + ".evidence_keys");
    }
  }

  private static void checkTurnKeys(List<String> keys, String field) {
    if (keys.size() > MAX_TURN_KEYS) {
      throw invalid(field + " lists at most " + MAX_TURN_KEYS + " keys, got " + keys.size(), field);
    }
    for (String key : keys) {
      if (key == null || key.isBlank() || key.length() > MAX_KEY_CHARS) {
        throw invalid(
            "record keys must be non-empty strings of at most " + MAX_KEY_CHARS + " characters",
            field);
      }
    }
  }

  /**
   * Checks a pack request, which reads no run-only field.
   *
   * @return this request
   * @throws InvalidSearchException naming a run-only field that was sent (as for any unknown field,
   *     with the fields a pack request reads), else as {@link #validate()}
   */
  public ResearchRequest validateForPack() {
    List<Object> runOnly =
        java.util.Arrays.asList(
            synthesize,
            model,
            maxEvidenceChars,
            priorEvidenceKeys.isEmpty() ? null : "",
            trace,
            surface);
    for (int i = 0; i < runOnly.size(); i++) {
      if (runOnly.get(i) != null) {
        String field = RUN_ONLY_FIELDS.get(i);
        throw new InvalidSearchException(
            field,
            "unknown field '" + field + "' (only a run, POST /api/research/run, reads it)",
            PACK_FIELDS.stream().sorted().toList());
      }
    }
    return validate();
  }

  /**
   * The research options: {@code defaults} (the configured {@code research.*}) with every given
   * field applied (checked there).
   */
  public ResearchOptions options(ResearchOptions defaults) {
    var o = defaults;
    if (sourceTypes != null) {
      o = o.withSourceTypes(sourceTypes);
    }
    if (limit != null) {
      o = o.withLimit(limit);
    }
    if (maxCharsPerDoc != null) {
      o = o.withMaxCharsPerDoc(maxCharsPerDoc);
    }
    if (includeRelated != null) {
      o = o.withIncludeRelated(includeRelated);
    }
    if (relatedLimit != null) {
      o = o.withRelatedLimit(relatedLimit);
    }
    if (includeTopicBrief != null) {
      o = o.withIncludeTopicBrief(includeTopicBrief);
    }
    if (semantic != null) {
      o = o.withSemantic(semantic);
    }
    return o;
  }

  /** The synthesis options of a run: {@code defaults} (the configured ones) with its budget. */
  public SynthesisOptions synthesisOptions(SynthesisOptions defaults) {
    return maxEvidenceChars == null ? defaults : defaults.withMaxEvidenceChars(maxEvidenceChars);
  }

  /** Whether a run writes an answer. */
  public boolean wantsAnswer() {
    return synthesize == null || synthesize;
  }

  /** The chat continuity of a run: earlier questions and keys, never earlier answers. */
  public ChatContinuity continuity() {
    ChatContinuity turns = ChatContinuity.of(conversation);
    return new ChatContinuity(
        concat(turns.priorQuestions(), priorQuestions),
        pinnedKeys,
        concat(turns.priorEvidenceKeys(), priorEvidenceKeys));
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }

  /** Whether a run writes a trace; {@code fallback} ({@code chat.save-traces}) when not said. */
  public boolean wantsTrace(boolean fallback) {
    return trace == null ? fallback : trace;
  }

  /** The surface recorded in the trace. */
  public String surfaceName() {
    return surface == null ? "web_api" : surface;
  }

  /** The question as the research module reads it: chat-shaped when there are earlier ones. */
  public String searchQuestion() {
    return continuity().retrievalQuestion(question);
  }
}
