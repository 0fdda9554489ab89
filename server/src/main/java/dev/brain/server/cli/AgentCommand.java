package dev.brain.server.cli;

import dev.brain.Brain;
import dev.brain.BrainConfig;
import dev.brain.models.chat.ChatModel;
import dev.brain.research.agent.AgentResult;
import dev.brain.server.mcp.AgentToolbox;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
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
      "--demo runs a scripted controller and worker over the sample vault in a temporary data"
          + " directory (no network, no model)."
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
                    ? "trace: " + run.runId() + " (in the demo's temporary data directory)"
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
    Path data = Files.createTempDirectory("brain-agent-demo-");
    try (var scripted = new ScriptedAgentServer()) {
      // A banner, not output: stderr, so --json prints JSON alone.
      PrintWriter err = TerminalText.err(spec);
      err.println("brain agent --demo: SCRIPTED controller and worker (no language model), real");
      err.println("tools over " + vault + " indexed into a temporary data directory.");
      err.println("task: " + task);
      err.flush();
      var base = BrainConfig.defaults(data);
      var config =
          base.withChat(base.chat().withServers(scripted.chatConfig()))
              .withAgent(
                  base.agent()
                      .withModel(ScriptedAgentServer.CONTROLLER)
                      .withWorkerModel(ScriptedAgentServer.WORKER));
      try (var opened = Brain.open(config)) {
        opened.index(vault);
        return run(
            opened,
            opened.chatModel(ScriptedAgentServer.CONTROLLER),
            opened.chatModel(ScriptedAgentServer.WORKER),
            task,
            out);
      }
    } finally {
      deleteTree(data);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
