package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The soft gate: which paragraphs of an answer state something without citing a record. */
class UncitedClaimsTest {

  @Test
  void aParagraphWithoutACitationIsNamedWithItsPlaceAndWords() {
    String answer =
        "The Niche Zero is set to 15 for espresso [note:vault/coffee/Niche Zero.md].\n\n"
            + "Espresso always needs nine bars of pressure at the group head.";

    assertThat(UncitedClaims.of(answer))
        .containsExactly(
            "paragraph 2 states something without citing a record: “Espresso always needs nine"
                + " bars of pressure at the group head.”");
  }

  @Test
  void quotesLedInByACitingLineAreCoveredUntilTheNextCitation() {
    String answer =
        "From your notes, “Espresso › Grind” [note:vault/coffee/Espresso.md]:\n\n"
            + "I grind at 15 on the Niche for an 18 g dose.\n\n"
            + "- a list item that states a fact in several words\n\n"
            + "```text\nsetting: 15\n\nstill code with more words than six here\n```\n\n"
            + "The V60 uses a coarser grind [note:vault/coffee/V60 recipe.md].\n\n"
            + "A paragraph after a citation that does not lead in is on its own again.";

    assertThat(UncitedClaims.of(answer))
        .singleElement()
        .asString()
        .startsWith("paragraph 7 states something without citing a record: “A paragraph after");
  }

  @Test
  void headingsQuestionsShortLinesAndBrainsOwnStatementsClaimNothing() {
    String answer =
        "## Espresso\n\n"
            + "Which grinder should I buy for a small kitchen?\n\n"
            + "In short: yes.\n\n"
            + AnswerText.NOT_MENTIONED
            + "“comandante” or “hand grinder” or any other thing at all.\n\n"
            + AnswerText.NO_EVIDENCE
            + "nothing in your corpus answers this question at all.";

    assertThat(UncitedClaims.of(answer)).isEmpty();
  }

  @Test
  void aLongUncitedParagraphIsQuotedShort() {
    String words = "word ".repeat(40).strip();

    assertThat(UncitedClaims.of(words).getFirst())
        .endsWith("…”")
        .hasSizeLessThan(UncitedClaims.QUOTE_CHARS + 70);
  }
}
