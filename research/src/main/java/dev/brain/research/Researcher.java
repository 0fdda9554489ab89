package dev.brain.research;

import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.pack.EvidenceMerge;
import dev.brain.research.pack.MergeReport;
import dev.brain.research.pack.PackBuilder;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.plan.ModelPlanner;
import dev.brain.research.plan.PlannerInfo;
import dev.brain.research.plan.QueryAnalyzer;
import dev.brain.research.plan.Strategy;
import dev.brain.research.synthesis.ExtractiveSynthesizer;
import dev.brain.research.synthesis.ModelSynthesizer;
import dev.brain.research.synthesis.PreparedSynthesis;
import dev.brain.research.synthesis.ResearchResult;
import dev.brain.research.synthesis.SynthesisInput;
import dev.brain.research.synthesis.SynthesisOptions;
import dev.brain.research.synthesis.SynthesisResult;
import dev.brain.research.synthesis.Verification;
import dev.brain.research.synthesis.Verifier;
import dev.brain.retrieval.InvalidSearchException;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Researches questions over a brain index: the research module's entry point. Read-only and
 * thread-safe; one researcher per index is enough.
 *
 * <p>The steps can run one by one (a web client shows the pack before the answer streams) or
 * together:
 *
 * <pre>{@code
 * var researcher = new Researcher(new Retriever(index));
 * ResearchPack pack = researcher.pack("what do I know about espresso?", ResearchOptions.defaults());
 * PreparedSynthesis prepared = researcher.prepare(pack, SynthesisOptions.defaults());
 * SynthesisResult answer = researcher.synthesize(prepared, null, SynthesisOptions.defaults(), null);
 * Verification check = researcher.verify(pack, answer);
 *
 * ResearchResult all = researcher.research("what do I know about espresso?", ResearchOptions.defaults());
 * }</pre>
 *
 * A {@code null} chat model means: the deterministic planner, and the built-in extractive
 * synthesizer. Model output is derived text; it never becomes evidence.
 */
public final class Researcher {

  private final Retriever retriever;

  /** A researcher over {@code retriever}'s index. */
  public Researcher(Retriever retriever) {
    this.retriever = Objects.requireNonNull(retriever, "retriever");
  }

  /**
   * A pack with the records the user pinned, and what pinning did.
   *
   * @param pack the pack with a row for every pinned record it did not hold yet
   * @param report the keys added ({@code accepted}) and those not added, with why ({@code
   *     rejected}: already in the pack, not in the index)
   */
  public record Pinned(ResearchPack pack, MergeReport report) {}

  /**
   * Adds the records the user pinned to a pack exactly as a research run does: after the ranked
   * rows, before related rows, each a whole-record row windowed on the plan's concepts, with
   * relationship and signal {@code pinned} and no lane scores (the user chose them; nothing ranked
   * them). Surfaces that build packs themselves use this so their pinned rows match a run's.
   *
   * @throws IOException if the index cannot be read
   */
  public Pinned pin(ResearchPack pack, List<String> keys, ResearchOptions options)
      throws IOException {
    var merged = EvidenceMerge.pinned(retriever, pack, keys, options);
    return new Pinned(merged.pack(), merged.report());
  }

  /**
   * Adds an earlier turn's evidence to a follow-up's pack exactly as a research run does: when the
   * pack's plan continues an earlier question ({@code query_plan.follow_up}), the records of {@code
   * keys} are read again and added as candidate rows (signal {@code earlier_turn}) only when they
   * match every required concept; otherwise the pack is returned as it is.
   *
   * @throws IOException if the index cannot be read
   */
  public ResearchPack withEarlierTurns(
      ResearchPack pack, List<String> keys, ResearchOptions options) throws IOException {
    if (pack.queryPlan().followUp() == null || keys.isEmpty()) {
      return pack;
    }
    return EvidenceMerge.earlierTurns(retriever, pack, keys, options).pack();
  }

  /**
   * Builds the research pack of a question with the deterministic planner alone.
   *
   * @param question a plain question or a chat-shaped prompt ({@code Current question:}, {@code
   *     Recent user questions:})
   * @throws InvalidSearchException if the question is empty or has no searchable word, an option is
   *     out of range, or a source type is unknown
   * @throws IOException if the index cannot be read
   */
  public ResearchPack pack(String question, ResearchOptions options) throws IOException {
    return pack(question, options, null);
  }

  /**
   * Builds the research pack of a question, asking {@code planner} (when not {@code null}) for
   * extra concepts and variants. A planner failure or timeout never fails the pack: the
   * deterministic plan is used and {@code query_plan.planner_error} says why.
   *
   * @throws InvalidSearchException as for {@link #pack(String, ResearchOptions)}
   * @throws IOException if the index cannot be read
   */
  public ResearchPack pack(String question, ResearchOptions options, ChatModel planner)
      throws IOException {
    Objects.requireNonNull(options, "options");
    Strategy strategy = QueryAnalyzer.analyze(question, options.semantic());
    PlannerInfo info = PlannerInfo.DETERMINISTIC;
    if (planner != null) {
      ModelPlanner.Outcome planned = ModelPlanner.plan(planner, strategy, options.plannerTimeout());
      strategy = planned.strategy();
      info = planned.info();
    }
    return new PackBuilder(retriever).build(strategy, options, info).pack();
  }

  /**
   * Builds the synthesis input of a pack under the evidence budget, with full truncation metadata.
   * Deterministic: the same pack and options give the same input.
   *
   * @throws InvalidSearchException if the pack is not a {@value ResearchPack#SCHEMA_VERSION}
   */
  public PreparedSynthesis prepare(ResearchPack pack, SynthesisOptions options) {
    Objects.requireNonNull(pack, "pack");
    Objects.requireNonNull(options, "options");
    if (!ResearchPack.SCHEMA_VERSION.equals(pack.schemaVersion())) {
      throw new InvalidSearchException(
          "research_pack",
          "schema_version is '"
              + pack.schemaVersion()
              + "'; send the pack exactly as research returned it ("
              + ResearchPack.SCHEMA_VERSION
              + ")");
    }
    return SynthesisInput.prepare(pack, options, retriever);
  }

  /**
   * Answers from a prepared synthesis: with {@code model}, streaming its tokens to {@code listener}
   * (which may be {@code null}); without one, with the extractive synthesizer (which streams
   * nothing). Never throws for model failures: an unreachable model gives {@code unavailable}, a
   * failing one {@code error}, both with the reason in {@link SynthesisResult#error()}.
   */
  public SynthesisResult synthesize(
      PreparedSynthesis prepared,
      ChatModel model,
      SynthesisOptions options,
      ChatListener listener) {
    Objects.requireNonNull(prepared, "prepared");
    Objects.requireNonNull(options, "options");
    return model == null
        ? ExtractiveSynthesizer.answer(prepared, retriever)
        : ModelSynthesizer.answer(prepared, model, options, listener);
  }

  /** Checks an answer's citations and status against its pack (see {@link Verification}). */
  public Verification verify(ResearchPack pack, SynthesisResult synthesis) {
    return Verifier.verify(
        Objects.requireNonNull(pack, "pack"), Objects.requireNonNull(synthesis, "synthesis"));
  }

  /**
   * Pack, extractive answer and verification with the deterministic planner.
   *
   * @throws InvalidSearchException as for {@link #pack(String, ResearchOptions)}
   * @throws IOException if the index cannot be read
   */
  public ResearchResult research(String question, ResearchOptions options) throws IOException {
    return research(question, options, SynthesisOptions.defaults(), null, null, null);
  }

  /**
   * Pack, answer and verification.
   *
   * @param planner chat model asked for a plan, or {@code null} for the deterministic planner
   * @param model chat model that writes the answer, or {@code null} for the extractive synthesizer
   * @param listener receives the model's tokens as they stream, or {@code null}
   * @throws InvalidSearchException as for {@link #pack(String, ResearchOptions)}
   * @throws IOException if the index cannot be read
   */
  public ResearchResult research(
      String question,
      ResearchOptions options,
      SynthesisOptions synthesisOptions,
      ChatModel planner,
      ChatModel model,
      ChatListener listener)
      throws IOException {
    ResearchPack pack = pack(question, options, planner);
    PreparedSynthesis prepared = prepare(pack, synthesisOptions);
    SynthesisResult synthesis = synthesize(prepared, model, synthesisOptions, listener);
    Verification verification = verify(pack, synthesis);
    return new ResearchResult(
        ResearchResult.SCHEMA_VERSION,
        ResearchResult.Outcome.of(synthesis, verification),
        pack,
        prepared,
        synthesis,
        verification);
  }
}
