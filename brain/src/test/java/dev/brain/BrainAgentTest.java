package dev.brain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.brain.models.chat.ChatListener;
import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatRequest;
import dev.brain.models.chat.ChatResponse;
import dev.brain.research.agent.AgentListener;
import dev.brain.research.agent.AgentTool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrainAgentTest {

  @TempDir Path data;

  @Test
  void anAgentFromBrainTakesItsPolicyFromBrainYamlAndSavesItsRunsWithTheResearchTraces()
      throws Exception {
    Files.writeString(data.resolve(BrainConfig.FILE), "agent:\n  deny: shell\n  max-turns: 3\n");
    try (var brain = Brain.open(data)) {
      var agent = brain.agent(List.of(tool("notes"), tool("shell"), tool("web")), List.of("web"));

      assertThat(agent.tools())
          .extracting(AgentTool::name)
          .containsExactly("notes", "shell", "web");
      var loop = agent.controller(new Answering("Nothing to look up."), null);
      assertThat(loop.visibleTools(null)).containsExactly("notes");

      var saved = agent.run(loop, "say hello", null, "cli", AgentListener.NONE, true);
      assertThat(saved.result().answer()).isEqualTo("Nothing to look up.");
      assertThat(saved.tracePath()).isDirectory().startsWith(data);
      assertThat(brain.traces().list()).extracting(t -> t.runId()).contains(saved.runId());

      var unsaved = agent.run(loop, "say hello", null, "cli", AgentListener.NONE, false);
      assertThat(unsaved.tracePath()).isNull();
      assertThat(brain.traces().list()).extracting(t -> t.runId()).doesNotContain(unsaved.runId());
    }
  }

  private static AgentTool tool(String name) {
    return new AgentTool() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return "the " + name + " tool";
      }

      @Override
      public String parametersJsonSchema() {
        return "{\"type\": \"object\"}";
      }

      @Override
      public String call(JsonNode arguments) {
        return "{}";
      }
    };
  }

  /** A controller model that answers at once, calling no tool. */
  private record Answering(String answer) implements ChatModel {
    @Override
    public String id() {
      return "answering";
    }

    @Override
    public ChatResponse chat(ChatRequest request, ChatListener listener) {
      return new ChatResponse(answer, List.of(), "answering", 1, 1);
    }

    @Override
    public void close() {}
  }
}
