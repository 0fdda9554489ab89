package dev.brain.research;

import dev.brain.index.BrainIndex;
import dev.brain.retrieval.Retriever;
import java.io.IOException;
import java.util.Objects;

/** Researches questions over a brain index: the research module's entry point. */
public final class Researcher {

  private final BrainIndex index;
  private final Retriever retriever;

  /** A researcher over {@code index} with its own retriever. */
  public Researcher(BrainIndex index) {
    this(index, new Retriever(index));
  }

  /** A researcher over {@code index} sharing {@code retriever} (which must search that index). */
  public Researcher(BrainIndex index, Retriever retriever) {
    this.index = Objects.requireNonNull(index, "index");
    this.retriever = Objects.requireNonNull(retriever, "retriever");
  }

  /** Builds the research pack of a question with the deterministic planner. */
  public ResearchPack pack(String question, ResearchOptions options) throws IOException {
    Objects.requireNonNull(options, "options");
    Strategy strategy = QueryAnalyzer.analyze(question, options.semantic());
    return new PackBuilder(index, retriever)
        .build(strategy, options, PackBuilder.PlannerInfo.DETERMINISTIC);
  }
}
