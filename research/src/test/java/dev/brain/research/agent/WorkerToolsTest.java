package dev.brain.research.agent;

import static dev.brain.research.agent.ScriptedTools.JSON;
import static dev.brain.research.agent.ScriptedTools.ollamaAnswer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import dev.brain.models.chat.FakeOllamaServer;
import org.junit.jupiter.api.Test;

class WorkerToolsTest {
  private static final String SCHEMA =
      "{\"type\":\"object\",\"required\":[\"grinder\",\"grams\"],"
          + "\"properties\":{\"grinder\":{\"type\":\"string\"},\"grams\":{\"type\":\"number\"}}}";

  @Test
  void extractReturnsObjectValidAgainstTheSchema() throws Exception {
    try (FakeOllamaServer worker = FakeOllamaServer.start();
        ChatModel model = ChatModels.open("ollama/worker-test", worker.config())) {
      worker.enqueue(ollamaAnswer("{\"grinder\":\"Niche Zero\",\"grams\":18}"));

      String out =
          WorkerTools.extract(model, WorkerTools.Budgets.defaults())
              .call(
                  JSON.readTree("{\"text\":\"18 g in the Niche Zero\",\"schema\":" + SCHEMA + "}"));

      assertThat(JSON.readTree(out).path("extracted").path("grams").asInt()).isEqualTo(18);
      assertThat(worker.lastRequest().json().path("messages").get(1).path("content").asText())
          .contains("\"grinder\"")
          .contains("18 g in the Niche Zero");
    }
  }

  @Test
  void extractRetriesOnceWithTheProblemWhenTheAnswerIsInvalid() throws Exception {
    try (FakeOllamaServer worker = FakeOllamaServer.start();
        ChatModel model = ChatModels.open("ollama/worker-test", worker.config())) {
      worker.enqueue(
          ollamaAnswer("Sure! {\"grinder\": "),
          ollamaAnswer("{\"grinder\":\"Niche\",\"grams\":18}"));

      String out =
          WorkerTools.extract(model, WorkerTools.Budgets.defaults())
              .call(JSON.readTree("{\"text\":\"18 g Niche\",\"schema\":" + SCHEMA + "}"));

      assertThat(JSON.readTree(out).path("extracted").path("grinder").asText()).isEqualTo("Niche");
      var retry = worker.requests().get(1).json().path("messages");
      assertThat(retry.get(retry.size() - 1).path("content").asText())
          .contains("not a JSON object");
    }
  }

  @Test
  void extractFailsClearlyAfterTwoAnswersThatMissTheSchema() throws Exception {
    try (FakeOllamaServer worker = FakeOllamaServer.start();
        ChatModel model = ChatModels.open("ollama/worker-test", worker.config())) {
      worker.enqueue(ollamaAnswer("{\"grinder\":\"Niche\"}"), ollamaAnswer("{\"grams\":\"many\"}"));
      var extract = WorkerTools.extract(model, WorkerTools.Budgets.defaults());

      assertThatThrownBy(
              () -> extract.call(JSON.readTree("{\"text\":\"t\",\"schema\":" + SCHEMA + "}")))
          .isInstanceOf(AgentTool.ToolFailure.class)
          .hasMessageContaining("twice")
          .hasMessageContaining("schema");
      assertThat(worker.requests().get(1).json().path("messages").get(3).path("content").asText())
          .contains("does not match the schema");
    }
  }

  @Test
  void summarizeRejectsMissingText() throws Exception {
    try (FakeOllamaServer worker = FakeOllamaServer.start();
        ChatModel model = ChatModels.open("ollama/worker-test", worker.config())) {
      var summarize = WorkerTools.summarize(model, WorkerTools.Budgets.defaults());

      assertThatThrownBy(() -> summarize.call(JSON.readTree("{\"goal\":\"g\"}")))
          .isInstanceOf(AgentTool.ToolFailure.class)
          .hasMessageContaining("'text' is required");
      assertThat(worker.requests()).isEmpty();
    }
  }
}
