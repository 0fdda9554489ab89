package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.pack.ResearchPack;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The soft gate on uncited paragraphs: advisory findings that never fail verification. */
class SoftGatesTest {
  private static final ResearchPack PACK =
      Packs.pack(
          "How often should I backflush?",
          List.of(Packs.pdf(1, "ada2743d1b19", "Backflush with detergent every 200 shots.")));

  private static SynthesisResult answer(String text, AnswerStatus status) {
    PreparedSynthesis p = SynthesisInput.prepare(PACK, SynthesisOptions.defaults());
    return new SynthesisResult(
        SynthesisResult.SCHEMA_VERSION,
        text,
        status,
        p.answerWarnings(),
        p.truncation(),
        Citations.of(PACK, text),
        p.promptVersion(),
        "ollama/scripted",
        "ollama",
        null);
  }

  @Test
  void aParagraphStatingAFactWithoutACitationIsAWarningNotAFailure() {
    var v =
        Verifier.verify(
            PACK,
            answer(
                "Backflush with detergent every 200 shots [src:ada2743d1b19].\n\n"
                    + "Descale the boiler every two months with citric acid at 5 percent.",
                AnswerStatus.OK));

    assertThat(v.passed()).isTrue();
    assertThat(v.warnings())
        .singleElement()
        .satisfies(
            w -> {
              assertThat(w.gate()).isEqualTo(SoftWarning.UNCITED_PARAGRAPH);
              assertThat(w.paragraph()).isEqualTo(2);
              assertThat(w.excerpt()).startsWith("Descale the boiler every two months");
              assertThat(w.message()).contains("paragraph 2", "without citing");
            });
  }

  @Test
  void everyParagraphCitedGivesNoWarning() {
    var v =
        Verifier.verify(
            PACK,
            answer(
                "Backflush with detergent every 200 shots [src:ada2743d1b19].\n\n"
                    + "Run ten cycles of ten seconds each, then rinse well [src:ada2743d1b19].",
                AnswerStatus.OK));

    assertThat(v.warnings()).isEmpty();
  }

  @Test
  void theParagraphsAfterACitedLeadInAreItsQuotedPassage() {
    String extractive =
        "From a saved PDF, “Care guide” [src:ada2743d1b19]:\n\n"
            + "Insert the blind basket, run the pump for 10 seconds, stop for 10 seconds.\n\n"
            + "- Use 3 g of espresso machine detergent in the blind basket each time.\n\n"
            + "```\nbackflush --cycles 10\n```";

    assertThat(SoftGates.check(extractive)).isEmpty();
  }

  @Test
  void aCitedParagraphThatIsNoLeadInCoversOnlyItself() {
    var warnings =
        SoftGates.check(
            "Backflush every 200 shots [src:ada2743d1b19].\n\n"
                + "The group gasket should be replaced once a year by a technician.");

    assertThat(warnings).extracting(SoftWarning::paragraph).containsExactly(2);
  }

  @Test
  void headingsShortLinesSourcesAndSentencesAboutTheEvidenceStateNoFact() {
    var warnings =
        SoftGates.check(
            "## Backflushing\n\n"
                + "In short:\n\n"
                + "Backflush every 200 shots [1].\n\n"
                + "Your notes do not say how often to replace the group gasket at all.\n\n"
                + "Sources:\n[1] [src:ada2743d1b19] the care guide, which covers everything in it");

    assertThat(warnings).isEmpty();
  }

  @Test
  void aNoEvidenceStatementIsNotChecked() {
    var v =
        Verifier.verify(
            Packs.pack("What is a gluon?", List.of()),
            answer(
                "Searched for gluon mass in the notes; the lattice seminar is not in them at all.",
                AnswerStatus.NO_EVIDENCE));

    assertThat(v.warnings()).isEmpty();
  }
}
