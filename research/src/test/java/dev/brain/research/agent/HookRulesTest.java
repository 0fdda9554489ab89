package dev.brain.research.agent;

import static dev.brain.research.agent.ScriptedTools.JSON;
import static dev.brain.research.agent.ScriptedTools.openAiAnswer;
import static dev.brain.research.agent.ScriptedTools.openAiToolCall;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.models.chat.ChatModel;
import dev.brain.models.chat.ChatModels;
import dev.brain.models.chat.FakeOpenAiServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hook rules of brain.yaml: halt by tool name or argument pattern, rewrite an argument. */
class HookRulesTest {

  @Test
  void haltsByNamePrefixOrArgumentPattern() throws Exception {
    var rules = HookRules.parse("brain_get_many, web__*, brain_search:(?i)password", null);

    assertThat(rules.beforeCall("brain_get_many", JSON.readTree("{}")).haltReason())
        .isEqualTo("halted by the hook rule 'brain_get_many' (agent.hooks.halt)");
    assertThat(rules.beforeCall("web__fetch", JSON.readTree("{}")).halted()).isTrue();
    assertThat(
            rules.beforeCall("brain_search", JSON.readTree("{\"query\":\"my PASSWORD\"}")).halted())
        .isTrue();
    var allowed = rules.beforeCall("brain_search", JSON.readTree("{\"query\":\"espresso\"}"));
    assertThat(allowed.halted()).isFalse();
    assertThat(allowed.arguments().path("query").asText()).isEqualTo("espresso");
  }

  @Test
  void setRewritesAnArgumentAsJsonOrText() throws Exception {
    var rules = HookRules.parse(null, "brain_search.limit=3, brain_search.mode=fast");

    var decision =
        rules.beforeCall("brain_search", JSON.readTree("{\"query\":\"q\",\"limit\":50}"));

    assertThat(decision.arguments().toString())
        .isEqualTo("{\"query\":\"q\",\"limit\":3,\"mode\":\"fast\"}");
    assertThat(
            rules.beforeCall("brain_get", JSON.readTree("{\"key\":\"k\"}")).arguments().toString())
        .isEqualTo("{\"key\":\"k\"}");
  }

  @Test
  void malformedRulesSayWhich() {
    assertThatThrownBy(() -> HookRules.parse("brain search", null))
        .hasMessageContaining("rule 'brain search' does not start with a tool name");
    assertThatThrownBy(() -> HookRules.parse("x:(", null))
        .hasMessageContaining("rule 'x:(' has an invalid pattern");
    assertThatThrownBy(() -> HookRules.parse(null, "brain_search.limit"))
        .hasMessageContaining("rule 'brain_search.limit' is not TOOL.ARG=VALUE");
    assertThat(HookRules.parse(" ", null).isEmpty()).isTrue();
  }

  @Test
  void inTheLoopAHaltedCallIsRefusedAndARewriteIsWhatTheToolSees() throws Exception {
    try (FakeOpenAiServer server = FakeOpenAiServer.start();
        ChatModel model = ChatModels.open("openai/controller-test", server.config())) {
      var search = ScriptedTools.Search.rows("note:vault/coffee.md", "Grind finer.");
      server.enqueue(
          openAiToolCall("c1", "brain_search", "{\"query\":\"password\"}"),
          openAiToolCall("c2", "brain_search", "{\"query\":\"espresso\",\"limit\":50}"),
          openAiAnswer("Grind finer [note:vault/coffee.md]."));
      var rules = HookRules.parse("brain_search:password", "brain_search.limit=3");

      var result =
          new AgentController(
                  model,
                  List.of(search),
                  ToolPolicy.readOnly(),
                  AgentBudgets.defaults(),
                  List.of(rules))
              .run("espresso?", null, null);

      assertThat(result.events())
          .filteredOn(e -> e.type().equals("tool_refused"))
          .extracting(AgentEvent::message)
          .singleElement()
          .asString()
          .contains("halted by the hook rule 'brain_search:password'");
      assertThat(search.calls).singleElement();
      assertThat(search.calls.get(0).path("limit").asInt()).isEqualTo(3);
    }
  }
}
