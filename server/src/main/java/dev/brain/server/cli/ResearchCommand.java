package dev.brain.server.cli;

import dev.brain.BrainConfig;
import dev.brain.BrainConfigException;
import dev.brain.ResearchRequest;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import dev.brain.research.pack.ResearchOptions;
import dev.brain.research.pack.ResearchPack;
import dev.brain.research.run.RunRequest;
import dev.brain.research.run.RunResult;
import dev.brain.research.synthesis.SynthesisOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code brain research QUESTION}: a research pack and a cited answer. The answer comes from the
 * built-in extractive synthesizer unless {@code --model} (or {@code BRAIN_MODEL}) names a chat
 * model; it is verified before it is printed, and an answer that fails verification is not shown as
 * an answer. Exit codes: 0 for an answer or an honest "no evidence", 1 when the model was
 * unavailable or failed or the answer failed verification, 2 for usage errors.
 *
 * <p>A question goes through the research runner (judge, at most one focused retry or related
 * expansion, step and time budgets): its stages print as a live timeline on stderr, and the run is
 * saved as a trace under {@code <data>/research-runs/} (its path is the last line) unless {@code
 * --no-trace}. {@code --retrieval-only} builds the pack alone, untraced.
 *
 * <p>When {@code brain serve} runs on the data directory and no chat model takes part, the server
 * runs the question (warm index and embedder) and this prints its result the same way; the timeline
 * follows when the run is over. {@code --local} runs it here.
 */
@Command(
    name = "research",
    mixinStandardHelpOptions = true,
    description = {
      "Research a question: plan, retrieve, rank evidence by the question's concepts, and answer"
          + " with citations of record keys (extractive by default, or a chat model with"
          + " --model). The answer is verified before it is printed."
    })
final class ResearchCommand implements Callable<Integer> {

  /** Environment variable naming the default synthesis model ({@code ollama/llama3.2}, ...). */
  static final String ENV_MODEL = "BRAIN_MODEL";

  /** Environment variable naming the default planner model. */
  static final String ENV_PLANNER_MODEL = "BRAIN_PLANNER_MODEL";

  @ParentCommand BrainCommand brain;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "QUESTION", description = "The question.")
  List<String> words;

  @Option(
      names = "--retrieval-only",
      description = "Print the research pack without synthesizing an answer.")
  boolean retrievalOnly;

  @Option(
      names = "--json",
      description = "Print JSON: the full result (pack, synthesis, verification), or the pack.")
  boolean json;

  @Option(
      names = "--no-trace",
      description = "Do not save the run under <data>/research-runs (saved by default).")
  boolean noTrace;

  @Option(
      names = "--deadline",
      paramLabel = "SECONDS",
      description = "Stop the run after this many seconds. Default: 180.")
  Integer deadlineSeconds;

  @Option(
      names = "--planner",
      negatable = true,
      description =
          "Ask the planner model for a plan on every question (--planner:"
              + " research.planner-policy always), or never (--no-planner: the deterministic plan"
              + " only). Default: research.planner-policy in brain.yaml, else auto (the model is"
              + " asked when the deterministic plan's evidence is weak).")
  Boolean planner;

  @Option(
      names = "--planner-timeout",
      paramLabel = "DURATION",
      description =
          "How long the planner model may take, like 500ms, 20s or 1m; then the deterministic"
              + " plan is used. Default: research.planner-timeout in brain.yaml, else 20s.")
  String plannerTimeout;

  @Option(names = "--no-semantic", description = "Switch the vector lane off (lexical only).")
  boolean noSemantic;

  @Option(
      names = "--source-type",
      paramLabel = "TYPE",
      description = "Only evidence of this source type (repeatable).")
  List<String> sourceTypes = new ArrayList<>();

  @Option(
      names = "--include-related",
      description =
          "Add the links and backlinks of the evidence rows, labelled related: to the pack with"
              + " --retrieval-only; in a full run, after the judge (retrieval never takes them).")
  boolean includeRelated;

  @Option(
      names = {"--topic-brief", "--topic"},
      negatable = true,
      description =
          "Always (--topic-brief, or --topic) or never (--no-topic-brief) build a topic brief:"
              + " include_topic_brief of the API and MCP. Default: for broad questions.")
  Boolean topicBrief;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description =
          "Evidence rows. Default: research.limit in brain.yaml, else "
              + ResearchOptions.DEFAULT_LIMIT
              + ".")
  Integer limit;

  @Option(
      names = "--max-chars-per-doc",
      paramLabel = "N",
      description =
          "Longest excerpt per evidence row. Default: research.max-chars-per-doc in brain.yaml,"
              + " else "
              + ResearchOptions.DEFAULT_MAX_CHARS_PER_DOC
              + ".")
  Integer maxCharsPerDoc;

  @Option(
      names = "--max-evidence-chars",
      paramLabel = "N",
      description =
          "Evidence budget of the synthesis input. Default: research.max-evidence-chars in"
              + " brain.yaml, else "
              + SynthesisOptions.DEFAULT_MAX_EVIDENCE_CHARS
              + ".")
  Integer maxEvidenceChars;

  @Option(
      names = "--model",
      paramLabel = "SPEC",
      description =
          "Answer with extractive (default), ollama/<model> or openai/<model>. Default: $"
              + ENV_MODEL
              + ", else extractive.")
  String model;

  @Option(
      names = "--planner-model",
      paramLabel = "SPEC",
      description =
          "Chat model asked for a search plan. Default: $"
              + ENV_PLANNER_MODEL
              + ", else the --model chat model; none with extractive.")
  String plannerModel;

  @picocli.CommandLine.Mixin ServerChoice serverChoice = new ServerChoice();

  @Override
  public Integer call() throws Exception {
    var configFlags = configFlags();
    BrainConfig config = brain.config(configFlags);
    if (Boolean.TRUE.equals(planner) && config.chat().plannerSpec() == null) {
      // A usage error of one line, as a flag's bad value is (not picocli's whole usage text).
      throw new BrainConfigException(
          "flag --planner needs a planner model: give --planner-model ollama/<model> (or"
              + " --model), or set chat.planner-model in brain.yaml",
          true);
    }
    // The request every surface makes: flags over brain.yaml over built-in defaults (a flag not
    // given leaves the configured value).
    var request =
        new ResearchRequest(
            String.join(" ", words),
            sourceTypes.isEmpty() ? null : sourceTypes,
            limit,
            maxCharsPerDoc,
            includeRelated ? Boolean.TRUE : null,
            null,
            topicBrief,
            noSemantic ? Boolean.FALSE : null,
            null,
            null,
            null,
            null,
            null,
            maxEvidenceChars,
            null,
            !noTrace,
            "cli");
    boolean semantic = request.validate().options(config.research().options()).semantic();
    PrintWriter out = TerminalText.writer(spec.commandLine().getOut());
    var answered = serverChoice.answer(brain, spec);
    if (answered.isPresent()) {
      return answered.get();
    }
    try (var lease = brain.useExisting(semantic, configFlags)) {
      var opened = lease.brain();
      // The configuration with this command's flags (inside a server, the server's brain was
      // opened without them): its models and budgets.
      var chat = config.chat();
      ChatModel plannerChat =
          Boolean.FALSE.equals(planner) ? null : opened.chatModel(chat.plannerSpec());
      if (retrievalOnly) {
        var options = request.options(opened.researchOptions());
        showPack(opened.pack(request.question(), options, plannerChat), out);
        return 0;
      }
      var budgets = config.research().budgets();
      if (deadlineSeconds != null) {
        budgets = budgets.withDeadline(Duration.ofSeconds(deadlineSeconds));
      }
      RunRequest run =
          opened
              .request(request, opened.chatModel(chat.model()))
              .withPlanner(plannerChat)
              .withBudgets(budgets);
      RunResult result = opened.run(run, new RunTimeline(spec.commandLine().getErr()));
      printOutcome(result, out);
      return ResearchOutput.exitCode(result.status());
    }
  }

  /** The configuration values this command's flags set ({@code --model}, {@code --limit}...). */
  private BrainConfig.Flag[] configFlags() {
    var flags = new ArrayList<BrainConfig.Flag>();
    if (model != null && !model.isBlank()) {
      flags.add(new BrainConfig.Flag("chat.model", model, "--model"));
    }
    if (plannerModel != null && !plannerModel.isBlank()) {
      flags.add(new BrainConfig.Flag("chat.planner-model", plannerModel, "--planner-model"));
    }
    if (Boolean.TRUE.equals(planner)) {
      flags.add(new BrainConfig.Flag("research.planner-policy", "always", "--planner"));
    }
    if (plannerTimeout != null) {
      flags.add(
          new BrainConfig.Flag("research.planner-timeout", plannerTimeout, "--planner-timeout"));
    }
    if (limit != null) {
      flags.add(new BrainConfig.Flag("research.limit", String.valueOf(limit), "--limit"));
    }
    if (maxCharsPerDoc != null) {
      flags.add(
          new BrainConfig.Flag(
              "research.max-chars-per-doc", String.valueOf(maxCharsPerDoc), "--max-chars-per-doc"));
    }
    return flags.toArray(BrainConfig.Flag[]::new);
  }

  /** Whether a running server may run this command: no chat model takes part (see below). */
  boolean servable() {
    return noChatModel(configFlags());
  }

  /**
   * Whether the run needs no chat model (no planner model, the extractive answer) and no option the
   * server's run lacks ({@code --deadline}): then a running {@code brain serve} can run it. A chat
   * model stays with this process, whose environment holds its servers and keys.
   */
  private boolean noChatModel(BrainConfig.Flag[] configFlags) {
    var chat = brain.config(configFlags).chat();
    boolean noPlannerModel = Boolean.FALSE.equals(planner) || chat.plannerSpec() == null;
    boolean extractive = chat.model() == null || ChatModels.isExtractive(chat.model());
    return noPlannerModel && (retrievalOnly || extractive && deadlineSeconds == null);
  }

  private void printOutcome(RunResult run, PrintWriter out) {
    if (json) {
      out.println(PrettyJson.pretty(run));
    } else {
      ResearchOutput.printRun(run, out);
    }
  }

  private void showPack(ResearchPack pack, PrintWriter out) {
    if (json) {
      out.println(PrettyJson.pretty(pack));
    } else {
      ResearchOutput.printPack(pack, out);
    }
  }
}
