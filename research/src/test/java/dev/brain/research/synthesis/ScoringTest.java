package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.pack.ResearchPack;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Ranking is stable under the noise of the embedding model: scores within {@link Scoring#TOLERANCE}
 * are ties decided by row rank and position, so the same corpus gives the same answer on any CPU.
 */
class ScoringTest {

  /** Five sections that answer alike: which are quoted is decided by closeness in meaning. */
  private static final String RAW =
      """
      # Descaling

      ## Kettle

      With medium water, descale the kettle every two weeks.

      ## Espresso machine

      With medium water, descale the espresso machine every eight weeks.

      ## Moka pot

      With medium water, descale the moka pot every ten weeks.

      ## Steam wand

      With medium water, descale the steam wand every four weeks.

      ## Water tank

      With medium water, descale the water tank every six weeks.
      """;

  private static final String QUESTION = "How often should I descale with medium water?";

  private static ResearchPack pack() {
    return Packs.pack(
        QUESTION, List.of(Packs.stored(Packs.note(1, "home/Descaling.md", RAW), RAW, RAW)));
  }

  /** The answer when the model finds closeness {@code cosines.get(i)} for the i-th sentence. */
  private static String answer(List<Double> cosines) {
    EvidenceReader reader =
        EvidenceReader.of(
            key -> Optional.of(RAW),
            (question, texts) -> {
              var out = new double[texts.size()];
              for (int i = 0; i < out.length; i++) {
                out[i] = cosines.get(i % cosines.size());
              }
              return out;
            });
    ResearchPack pack = pack();
    return ExtractiveSynthesizer.answer(
            SynthesisInput.prepare(pack, SynthesisOptions.defaults(), reader), reader)
        .answer();
  }

  @Test
  void aPerturbationOfClosenessBelowTheToleranceChangesNoAnswer() {
    // Near-tied sections: which one the model puts a hair closer must not decide which is quoted.
    List<Double> base = List.of(0.7000, 0.7003, 0.6998, 0.7001, 0.7004);
    String expected = answer(base);
    // Up to 0.0006 of cosine either way, with the base spread of 0.0006 at most 0.0018 in all:
    // closeness is scaled over at least MIN_RANGE of cosine and weighs MEANING, so that moves a
    // score by less than the tolerance.
    double noise = 0.0006;
    var random = new Random(42);
    for (int run = 0; run < 25; run++) {
      var noisy = new ArrayList<Double>();
      for (double c : base) {
        noisy.add(c + (random.nextDouble() * 2 - 1) * noise);
      }
      assertThat(answer(noisy)).as("run %d with %s", run, noisy).isEqualTo(expected);
    }
    assertThat(Scoring.MEANING * (0.0006 + 2 * noise) / Scoring.MIN_RANGE)
        .as("the perturbation stays below the tolerance")
        .isLessThan(Scoring.TOLERANCE);
  }

  @Test
  void scoresWithinTheToleranceAreTiesOrderedByPositionWhicheverIsHigher() {
    RowText text = RowText.of(Packs.note(1, "a.md", "x"), 0, EvidenceReader.EXCERPTS);
    Candidate first = candidate(text, 1, 1.000);
    Candidate second = candidate(text, 2, 1.005);

    List<Candidate> ranked = Scoring.ties(List.of(second, first));
    List<Candidate> swapped =
        Scoring.ties(List.of(candidate(text, 2, 1.000), candidate(text, 1, 1.005)));

    assertThat(ranked).extracting(Candidate::block).containsExactly(1, 2);
    assertThat(swapped).extracting(Candidate::block).containsExactly(1, 2);
    assertThat(ranked.get(0).score()).isEqualTo(ranked.get(1).score());
    // A clear difference still decides.
    assertThat(Scoring.ties(List.of(candidate(text, 1, 1.0), candidate(text, 2, 1.5))))
        .extracting(Candidate::block)
        .containsExactly(2, 1);
  }

  private static Candidate candidate(RowText text, int block, double score) {
    return new Candidate(
        text,
        block,
        0,
        0,
        "s" + block,
        "s" + block,
        java.util.Set.of(),
        java.util.Set.of(),
        false,
        false,
        score);
  }
}
