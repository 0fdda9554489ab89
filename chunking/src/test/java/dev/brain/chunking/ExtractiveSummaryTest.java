package dev.brain.chunking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractiveSummaryTest {

  private final Chunker chunker = new Chunker(new WordPieceCounter());

  private static final String GUIDE =
      """
      # Grinder guide

      A burr grinder is a machine that crushes beans between two burrs. It matters more than \
      the espresso machine.

      ## Choosing burrs

      Flat burrs give a more even grind. Conical burrs are quieter.

      ## Dialing in

      Start at a medium setting and **adjust** by one step. Taste every shot.

      ```
      grind = 12
      ```

      ### Single dosing

      Retention is the coffee left inside the grinder. Weigh beans in and out.

      Purge two grams after a long break.
      """;

  @Test
  void summarizesOpeningOutlineAndDefinedTerms() {
    ExtractiveSummary summary = chunker.summarize(GUIDE, true).orElseThrow();
    assertThat(summary.text())
        .isEqualTo(
            """
            A burr grinder is a machine that crushes beans between two burrs.

            Outline:
            - Choosing burrs: Flat burrs give a more even grind.
            - Dialing in: Start at a medium setting and adjust by one step.
            - Dialing in > Single dosing: Retention is the coffee left inside the grinder.

            Terms: burr grinder; Retention.""");
    assertThat(summary.parts())
        .containsExactly(new ExtractiveSummary.Part(0, summary.text().length(), List.of()));
  }

  @Test
  void aLeadInEndingInAColonIsFollowedByWhatItIntroduces() {
    String text =
        """
        # Espresso

        Notes on my espresso setup and how I pull shots at home.

        ## Recipe

        After a month of shots I settled on:

        - 18 g in, 36 g out, in 28 seconds
        - a 93 degree brew

        ## Updating

        From your shell, run the following update script:

        ```console
        $ rustup update
        ```

        ## Cleaning

        Backflush every two weeks. Descale twice a year.
        """;
    assertThat(chunker.summarize(text, true).orElseThrow().text())
        .contains("- Recipe: After a month of shots I settled on: 18 g in, 36 g out, in 28 seconds")
        .contains("- Updating: From your shell, run the following update script: `$ rustup update`")
        .endsWith("- Cleaning: Backflush every two weeks.")
        .doesNotContain("settled on:\n");
  }

  @Test
  void shortTextsGetNone() {
    assertThat(chunker.summarize("# Note\n\nOne paragraph.\n\nAnother one.\n", true)).isEmpty();
    assertThat(chunker.summarize("", true)).isEmpty();
    assertThat(chunker.summarize("just a line", false)).isEmpty();
  }

  @Test
  void aLongSingleParagraphQualifiesByWordsButItsOpeningAloneIsNoSummary() {
    String text = "A wombat is a marsupial that digs. " + "They sleep by day. ".repeat(80);
    assertThat(chunker.summarize(text, false).orElseThrow().text())
        .isEqualTo("A wombat is a marsupial that digs.\n\nTerms: wombat.");
    String plain = "Wombats dig burrows in dry forests. " + "They sleep by day. ".repeat(80);
    assertThat(chunker.summarize(plain, false)).isEmpty();
  }

  @Test
  void aSectionOverTheTokenLimitGetsItsOwnSummary() {
    var text = new StringBuilder("# Trip\n\nWe went north.\n\n## Long day\n\n");
    for (int i = 0; i < 60; i++) {
      text.append("Paragraph ").append(i).append(" starts here. ");
      text.append("Then it goes on and on about the road and the weather. ".repeat(3));
      text.append("\n\n");
    }
    text.append("## Short day\n\nWe rested.\n");
    ExtractiveSummary summary = chunker.summarize(text.toString(), true).orElseThrow();
    assertThat(summary.parts()).hasSize(2);
    ExtractiveSummary.Part section = summary.parts().get(1);
    assertThat(section.headingPath()).containsExactly("Trip", "Long day");
    String sectionText = summary.text().substring(section.start(), section.end());
    assertThat(sectionText)
        .startsWith("Trip > Long day: Paragraph 0 starts here. Paragraph 1 starts here.")
        .endsWith("Paragraph 11 starts here.")
        .doesNotContain("Paragraph 12");
    assertThat(summary.text().substring(0, summary.parts().get(0).end()))
        .contains("- Long day: Paragraph 0 starts here.", "- Short day: We rested.");
  }

  @Test
  void outlinePathsKeepTheTopHeadingWhenSectionsSitUnderSeveral() {
    String text =
        "Intro line before any heading.\n\n# A\n\nFirst of A.\n\n## A1\n\nIn A1.\n\n"
            + "# B\n\nFirst of B.\n";
    assertThat(chunker.summarize(text, true).orElseThrow().text())
        .contains("- A: First of A.\n- A > A1: In A1.\n- B: First of B.");
  }

  @Test
  void isDeterministic() {
    assertThat(chunker.summarize(GUIDE, true)).isEqualTo(chunker.summarize(GUIDE, true));
  }
}
