package dev.brain.research.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a short follow-up is told from a question of its own, and what it inherits. */
class FollowUpTest {

  private static final String ESPRESSO = "What grind size do I use for espresso?";

  private static Strategy followUp(String question, String... earlier) {
    var turns = List.of(earlier).stream().map(q -> new ConversationTurn(q, null, null)).toList();
    return QueryAnalyzer.analyze(ChatContinuity.of(turns).retrievalQuestion(question), false);
  }

  private static List<String> required(Strategy s) {
    return s.required().stream().map(Concept::key).toList();
  }

  @Test
  void aCuedFragmentReplacesTheEarlierPhraseAndKeepsItsConcepts() {
    Strategy s = followUp("and for the V60?", ESPRESSO);

    assertThat(s.followUp()).isNotNull();
    assertThat(s.followUp().resolvedQuestion()).isEqualTo("What grind size do I use for the V60?");
    assertThat(s.followUp().previousQuestion()).isEqualTo(ESPRESSO);
    assertThat(s.followUp().replaced()).isEqualTo("for espresso");
    assertThat(s.followUp().inheritedConcepts()).anyMatch(k -> k.contains("grind"));
    assertThat(required(s)).anyMatch(k -> k.contains("grind")).anyMatch(k -> k.contains("v60"));
    assertThat(required(s)).noneMatch(k -> k.contains("espresso"));
    assertThat(s.currentQuestion()).isEqualTo("and for the V60?");
  }

  @Test
  void whatAboutAndHowAboutAreCuesToo() {
    assertThat(followUp("what about the V60?", ESPRESSO).followUp()).isNotNull();
    assertThat(followUp("How about for the V60?", ESPRESSO).followUp()).isNotNull();
  }

  @Test
  void aFullNewQuestionDoesNotInherit() {
    Strategy s = followUp("How much did the Gaggia Classic Pro cost?", ESPRESSO);

    assertThat(s.followUp()).isNull();
    assertThat(required(s)).noneMatch(k -> k.contains("grind"));
  }

  @Test
  void aCuedQuestionOfItsOwnIsNotAFragment() {
    assertThat(FollowUp.fragment("and how long does the bloom take?")).isNull();
    assertThat(FollowUp.fragment("and for the V60?")).isEqualTo("for the V60");
  }

  @Test
  void aBareWhyAsksWhyOfTheEarlierQuestionAndKeepsAllItsConcepts() {
    for (String why :
        List.of("why?", "Why is that?", "why not?", "How come?", "why so?", "and why's that?")) {
      Strategy s = followUp(why, ESPRESSO);

      assertThat(s.followUp()).as(why).isNotNull();
      assertThat(s.followUp().resolvedQuestion())
          .as(why)
          .startsWith("Why ")
          .endsWith("what grind size do I use for espresso?");
      assertThat(s.followUp().previousQuestion()).isEqualTo(ESPRESSO);
      assertThat(s.followUp().inheritedConcepts())
          .as(why)
          .anyMatch(k -> k.contains("grind"))
          .anyMatch(k -> k.contains("espresso"));
      assertThat(s.followUp().reason()).as(why).contains("the reason behind its answer");
    }
    assertThat(followUp("why not?", ESPRESSO).followUp().resolvedQuestion()).startsWith("Why not ");
  }

  @Test
  void aWhyQuestionNamingThingsIsNotABareWhy() {
    assertThat(FollowUp.asksWhy("why does the shot run fast?")).isFalse();
    assertThat(FollowUp.asksWhy("why the V60?")).isFalse();
    assertThat(FollowUp.asksWhy("why?")).isTrue();
  }

  @Test
  void withoutEarlierTurnsNothingIsInherited() {
    assertThat(QueryAnalyzer.analyze("and for the V60?", false).followUp()).isNull();
  }

  @Test
  void aChainOfFollowUpsResolvesOneAfterAnother() {
    Strategy s = followUp("and with the Gaggia?", ESPRESSO, "and for the V60?");

    assertThat(s.followUp()).isNotNull();
    assertThat(s.followUp().previousQuestion()).isEqualTo("What grind size do I use for the V60?");
  }

  @Test
  void anEarlierQuestionWithoutSearchableWordsIsIgnored() {
    Strategy s = followUp("and for the V60?", "the of and?");

    assertThat(s.followUp()).isNull();
    assertThat(required(s)).anyMatch(k -> k.contains("v60"));
  }
}
