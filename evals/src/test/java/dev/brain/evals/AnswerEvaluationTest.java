package dev.brain.evals;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The answer-containment check of {@link AnswerEvaluation}. */
class AnswerEvaluationTest {

  @Test
  void containmentIgnoresCasePunctuationAndAccents() {
    assertThat(AnswerEvaluation.contains("Manchester City F.C. won [1].", "Manchester City F.C."))
        .isTrue();
    assertThat(AnswerEvaluation.contains("The MVP was LEBRON JAMES.", "LeBron James")).isTrue();
    assertThat(AnswerEvaluation.contains("Pelé scored", "Pele")).isTrue();
    assertThat(AnswerEvaluation.contains("It won in 2023, again.", "2023")).isTrue();
  }

  @Test
  void containmentMatchesWholeWordsOnly() {
    assertThat(AnswerEvaluation.contains("He won seventeen titles.", "seven")).isFalse();
    assertThat(AnswerEvaluation.contains("anything", "")).isFalse();
  }

  @Test
  void looseContainmentWantsEveryGoldWordAsTheStartOfAWord() {
    assertThat(AnswerEvaluation.containsLoosely("announced in December 2023", "Dec 2023")).isTrue();
    assertThat(AnswerEvaluation.containsLoosely("Manchester City won", "Manchester City F.C."))
        .isTrue();
    assertThat(AnswerEvaluation.containsLoosely("Manchester won", "Manchester City F.C."))
        .isFalse();
  }
}
