package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.index.IndexLockedException;
import dev.brain.index.SyncReport;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.agent.AgentResult;
import dev.brain.server.mcp.AgentToolbox;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code brain agent}: a bounded tool-calling controller model over brain's read-only tools (the
 * MCP tools) and the {@code summarize}/{@code extract} workers, with a live timeline of tool calls
 * and a verified, cited answer. {@code --demo} runs the loop over the sample vault with scripted
 * models, offline.
 */
@Command(
    name = "agent",
    mixinStandardHelpOptions = true,
    description = {
      "Let a tool-calling model research a task with brain's read-only tools and worker tools;"
          + " prints each tool call as it happens and a cited answer (only if every cited key"
          + " came back from a tool).",
      "The controller is agent.model in brain.yaml (or --model, else chat.model); the workers use"
          + " agent.worker-model.",
      "--demo runs a scripted controller and worker over the sample vault, indexed into"
          + " <data>/demo as brain demo does and re-indexed only where it changed (no network, no"
          + " model)."
    })
final class AgentCommand implements Callable<Integer> {

  @ParentCommand BrainCommand brain;

  @Spec CommandLine.Model.CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "TASK", description = "The task.")
  List<String> words = new ArrayList<>();

  @Option(names = "--model", paramLabel = "SPEC", description = "The controller model.")
  String model;

  @Option(names = "--worker-model", paramLabel = "SPEC", description = "The workers' model.")
  String workerModel;

  @Option(
      names = "--allow",
      split = ",",
      paramLabel = "TOOL",
      description = "Only these tools (comma-separated).")
  List<String> allow;

  @Option(
      names = "--deny",
      split = ",",
      paramLabel = "TOOL",
      description = "Never these tools (comma-separated).")
  List<String> deny = new ArrayList<>();

  @Option(
      names = "--mcp-config",
      paramLabel = "FILE",
      description =
          "A .mcp.json file whose MCP servers' tools the agent may use (repeatable; besides"
              + " agent.mcp-configs).")
  List<Path> mcpConfigs = new ArrayList<>();

  @Option(names = "--max-turns", paramLabel = "N", description = "Most model turns.")
  Integer maxTurns;

  @Option(names = "--json", description = "Print the agent_run.v1 JSON instead of text.")
  boolean json;

  @Option(
      names = "--demo",
      description = "Scripted controller and worker over the sample vault (labelled as scripted).")
  boolean demo;

  /** The demo's data directory, once {@code --demo} chose it. */
  private Path demoData;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = TerminalText.out(spec);
    if (demo) {
      return runDemo(out);
    }
    String task = String.join(" ", words).strip();
    if (task.isEmpty()) {
      throw new CommandLine.ParameterException(spec.commandLine(), "give a task, or --demo");
    }
    var flags = new ArrayList<BrainConfig.Flag>();
    if (model != null && !model.isBlank()) {
      flags.add(new BrainConfig.Flag("agent.model", model, "--model"));
    }
    if (workerModel != null && !workerModel.isBlank()) {
      flags.add(new BrainConfig.Flag("agent.worker-model", workerModel, "--worker-model"));
    }
    try (var opened = brain.openExisting(flags.toArray(BrainConfig.Flag[]::new))) {
      var agent = opened.config().agent();
      String controller = agent.controllerSpec(opened.config().chat());
      if (controller == null) {
        throw new IllegalStateException(
            "the agent needs a tool-calling model: set agent.model in brain.yaml (e.g."
                + " ollama/qwen3:8b), pass --model, or try 'brain agent --demo'");
      }
      return run(
          opened,
          opened.chatModel(controller),
          opened.chatModel(agent.workerSpec(controller)),
          task,
          out);
    }
  }

  private int run(
      Brain opened, ChatModel controller, ChatModel worker, String task, PrintWriter out) {
    try (var toolbox = AgentToolbox.open(opened, worker, mcpConfigs, deny)) {
      PrintWriter err = TerminalText.err(spec);
      for (var failure : toolbox.failures()) {
        err.println("brain: " + failure.line());
      }
      err.flush();
      var controllerLoop = toolbox.agent().controller(controller, maxTurns);
      if (!json) {
        out.println("agent: " + controller.id() + ", workers: " + worker.id());
        out.println("tools: " + String.join(", ", controllerLoop.visibleTools(allow)));
        out.flush();
      }
      var run =
          toolbox
              .agent()
              .run(
                  controllerLoop,
                  task,
                  allow,
                  "cli",
                  event -> {
                    if (!json) {
                      out.println(event.line());
                      out.flush();
                    }
                  },
                  true);
      AgentResult result = run.result();
      if (json) {
        out.println(PrettyJson.pretty(result));
      } else {
        print(result, out);
        out.println(
            run.tracePath() == null
                ? "trace not saved: " + run.traceError()
                : demo
                    ? "trace: "
                        + run.runId()
                        + " (brain --data "
                        + demoData
                        + " trace show "
                        + run.runId()
                        + ")"
                    : "trace: " + run.runId() + " (brain trace show " + run.runId() + ")");
      }
      return result.answered() ? 0 : BrainCommand.EXIT_ERROR;
    }
  }

  private static void print(AgentResult result, PrintWriter out) {
    out.println();
    if (result.answered()) {
      out.println(result.answer());
      out.println();
      out.println("cited: " + String.join(", ", result.citedKeys()));
    } else {
      out.println("no answer: " + result.stopReason().wireName() + " - " + result.message());
    }
    out.println(
        "stop: "
            + result.stopReason().wireName()
            + " after "
            + result.turns()
            + " turns, "
            + result.toolCalls()
            + " tool calls");
  }

  private int runDemo(PrintWriter out) throws IOException {
    String task = words.isEmpty() ? "How do I dial in espresso?" : String.join(" ", words);
    Path vault = DemoCommand.findSampleVault();
    // The data directory `brain demo` indexes into: the first demo indexes the vault, later ones
    // (of either command) sync only what changed.
    demoData = brain.dataDir().resolve(DemoCommand.DEMO_DIR);
    try (var scripted = new ScriptedAgentServer()) {
      // A banner, not output: stderr, so --json prints JSON alone.
      PrintWriter err = TerminalText.err(spec);
      err.println("brain agent --demo: SCRIPTED controller and worker (no language model), real");
      err.println("tools over " + vault + " indexed into " + demoData + ".");
      err.println("task: " + task);
      err.flush();
      var base = brain.config().withDataDir(demoData);
      var config =
          base.withChat(base.chat().withServers(scripted.chatConfig()))
              .withAgent(
                  base.agent()
                      .withModel(ScriptedAgentServer.CONTROLLER)
                      .withWorkerModel(ScriptedAgentServer.WORKER));
      try (var opened = openDemo(config, vault, err)) {
        return run(
            opened,
            opened.chatModel(ScriptedAgentServer.CONTROLLER),
            opened.chatModel(ScriptedAgentServer.WORKER),
            task,
            out);
      }
    }
  }

  /**
   * The demo's brain with the sample vault synced; read-only when a {@code brain demo} serving it
   * holds the index (that server keeps it in sync).
   */
  private static Brain openDemo(BrainConfig config, Path vault, PrintWriter err)
      throws IOException {
    Brain opened;
    try {
      opened = Brain.open(config);
    } catch (IndexLockedException e) {
      return Brain.openReadOnly(config);
    }
    try {
      SyncReport report = opened.index(vault);
      err.println(
          "index: "
              + report.unchanged()
              + " records unchanged, "
              + (report.added() + report.updated())
              + " indexed");
      err.flush();
      return opened;
    } catch (IOException | RuntimeException e) {
      opened.close();
      throw e;
    }
  }
}
