package dev.brain.research.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.models.chat.ChatException;
import dev.brain.research.fixtures.ScriptedChatModel;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Sanitizing, bounding and merging a model plan; no index needed. */
class ModelPlannerTest {

  private static final Strategy BASE =
      QueryAnalyzer.analyze("How often should I descale the espresso machine?", true);

  private static ModelPlanner.Outcome plan(String answer) {
    return ModelPlanner.plan(ScriptedChatModel.answering(answer), BASE, Duration.ofSeconds(5));
  }

  @Test
  void stripsMarkupKeysUrlsAndControlCharactersFromModelStrings() {
    assertThat(
            ModelPlanner.clean("  **Descaling**\u0007 [note:x.md] https://evil.example {x} ", 60))
        .isEqualTo("descaling x");
    assertThat(ModelPlanner.clean("<<<>>>", 60)).isEmpty();
    assertThat(ModelPlanner.clean("a very long phrase indeed", 12)).isEqualTo("a very long");
  }

  @Test
  void boundsConceptsTermsAndVariants() {
    var concepts = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      concepts
          .append(i == 0 ? "" : ",")
          .append("{\"preferred\":\"idea")
          .append(i)
          .append("\",\"terms\":[\"a")
          .append(i)
          .append("\",\"b")
          .append(i)
          .append("\",\"c")
          .append(i)
          .append("\",\"d")
          .append(i)
          .append("\",\"e")
          .append(i)
          .append("\",\"f")
          .append(i)
          .append("\",\"g")
          .append(i)
          .append("\"]}");
    }
    var variants = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      variants.append(i == 0 ? "" : ",").append("{\"query\":\"search ").append(i).append("\"}");
    }

    var outcome = plan("{\"concepts\":[" + concepts + "],\"variants\":[" + variants + "]}");

    var expansions =
        outcome.strategy().concepts().stream()
            .filter(c -> c.role() == Concept.Role.EXPANSION)
            .toList();
    assertThat(expansions).hasSize(ModelPlanner.MAX_CONCEPTS);
    assertThat(expansions)
        .allSatisfy(c -> assertThat(c.terms()).hasSize(1 + ModelPlanner.MAX_TERMS));
    assertThat(outcome.strategy().variants()).hasSize(QueryPlan.MAX_VARIANTS);
    // Deterministic variants come first; the model fills the remaining slots, at least three.
    assertThat(BASE.variants())
        .hasSizeLessThanOrEqualTo(QueryPlan.MAX_VARIANTS - ModelPlanner.MODEL_VARIANT_SLOTS);
    assertThat(outcome.strategy().variants())
        .startsWith(BASE.variants().toArray(Strategy.Variant[]::new));
    assertThat(outcome.strategy().variants().stream().filter(v -> v.origin().equals("model")))
        .hasSizeBetween(ModelPlanner.MODEL_VARIANT_SLOTS, ModelPlanner.MAX_VARIANTS);
  }

  @Test
  void modelOnlyConceptsNeverBecomeRequiredAndKnownOnesKeepTheirRole() {
    var outcome =
        plan(
            "```json\n{\"concepts\":[{\"preferred\":\"limescale\",\"terms\":[\"scale\"]},"
                + "{\"preferred\":\"descaling\",\"terms\":[\"decalcify\"]}]}\n```");

    assertThat(outcome.info().planner()).isEqualTo(QueryPlan.MODEL_ASSISTED);
    assertThat(outcome.strategy().required())
        .extracting(Concept::key)
        .isEqualTo(BASE.required().stream().map(Concept::key).toList());
    Concept descale =
        outcome.strategy().concepts().stream()
            .filter(c -> c.key().equals("descale"))
            .findFirst()
            .orElseThrow();
    assertThat(descale.terms()).contains("decalcify");
    assertThat(descale.required()).isTrue();
  }

  @Test
  void refusedModelLeavesTheDeterministicStrategyWithTheReason() {
    var outcome =
        ModelPlanner.plan(
            ScriptedChatModel.failing(ChatException.Kind.REFUSED, "hosted URL needs opt-in"),
            BASE,
            Duration.ofSeconds(5));

    assertThat(outcome.strategy()).isSameAs(BASE);
    assertThat(outcome.info().planner()).isEqualTo(QueryPlan.DETERMINISTIC);
    assertThat(outcome.info().error()).isEqualTo("refused: hosted URL needs opt-in");
    assertThat(outcome.output()).isNull();
  }

  @Test
  void emptyPlanIsReportedAsAddingNothing() {
    var outcome = plan("{\"concepts\":[],\"variants\":[]}");

    assertThat(outcome.info().error()).isEqualTo("the model plan added nothing usable");
    assertThat(outcome.strategy()).isSameAs(BASE);
  }

  @Test
  void aFollowUpIsPlannedAsTheQuestionItWasReadAs() {
    Strategy followUp =
        QueryAnalyzer.analyze(
            "Current question: and for the V60?\nRecent user questions:\n"
                + "- What grind size do I use for espresso?",
            true);

    var outcome =
        ModelPlanner.plan(ScriptedChatModel.answering("{}"), followUp, Duration.ofSeconds(5));

    assertThat(outcome.input()).contains("Question: What grind size do I use for the V60?");
    assertThat(outcome.strategy().followUp()).isEqualTo(followUp.followUp());
  }
}
