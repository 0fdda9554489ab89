package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.pack.ResearchPack;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sentence selection of the built-in synthesizer, on hand-made packs. */
class ExtractiveSynthesizerTest {

  private static SynthesisResult answer(ResearchPack pack) {
    return ExtractiveSynthesizer.answer(SynthesisInput.prepare(pack, SynthesisOptions.defaults()));
  }

  @Test
  void splitsExcerptsIntoCleanStatements() {
    List<String> sentences =
        ExtractiveSynthesizer.split(
            "…# Grinder **Espresso: 15** on the dial, see [[Dial-in log|my log]]. Why not finer?"
                + " - Purge 2 g after a change. Folder: Bookmarks bar / Coffee https://x.example/a…",
            List.of("Grinder"));

    assertThat(sentences)
        .containsExactly("Espresso: 15 on the dial, see my log.", "Purge 2 g after a change.");
  }

  @Test
  void quotesCoveringSentencesInRankOrderEachWithItsKey() {
    var pack =
        Packs.pack(
            "How often should I backflush with detergent?",
            List.of(
                Packs.pdf(
                    1,
                    "ada2743d1b19",
                    "Clean the tray daily. Backflush with detergent every 200 shots."),
                Packs.note(2, "coffee/Gaggia.md", "I backflush with water after every session.")));

    SynthesisResult result = answer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(result.answer())
        .contains("- Backflush with detergent every 200 shots. (pdf) [src:ada2743d1b19]")
        .contains("- I backflush with water after every session. [note:coffee/Gaggia.md]")
        .doesNotContain("Clean the tray daily");
    assertThat(result.answer().indexOf("From saved sources:"))
        .isLessThan(result.answer().indexOf("From your notes:"));
    assertThat(result.citations())
        .extracting(Citation::sourceKey)
        .containsExactly("src:ada2743d1b19", "note:coffee/Gaggia.md");
    assertThat(result.model()).isEqualTo("extractive");
    assertThat(Verifier.verify(pack, result).passed()).isTrue();
  }

  @Test
  void aPartialMatchRowIsQuotedOnlyForWhatTheOthersLack() {
    var forum =
        Packs.row(
                2,
                "bm:ffbffb377d41",
                "item",
                "bookmark",
                "raw",
                "Forum for home espresso: machine mods, grinder comparisons.",
                List.of(),
                null)
            .withEvidence(List.of("partial_match"), List.of(), List.of());
    var pack =
        Packs.pack(
            "How often should I backflush the espresso machine?",
            List.of(
                Packs.pdf(1, "ada2743d1b19", "Backflush the espresso machine every 200 shots."),
                forum));

    String answer = answer(pack).answer();

    assertThat(answer).contains("every 200 shots").doesNotContain("Forum for home espresso");
    // Without the partial mark, the same sentence counts as a strong restatement and is quoted.
    var unmarked =
        Packs.pack(
            pack.question(),
            List.of(pack.evidence().get(0), forum.withEvidence(List.of(), List.of(), List.of())));
    assertThat(answer(unmarked).answer()).contains("Forum for home espresso");
  }

  @Test
  void saysPlainlyWhichRequiredConceptNoQuotedSentenceMentions() {
    var pack =
        Packs.pack(
            "How often should I backflush with detergent?",
            List.of(
                Packs.note(1, "coffee/Gaggia.md", "I backflush with water after every session.")));

    assertThat(answer(pack).answer()).endsWith("nothing quoted here mentions detergent.");
  }

  @Test
  void pointsToTheClosestRowWhenNoSentenceUsesTheQuestionsWords() {
    var pack =
        Packs.pack(
            "Why can't I fall asleep?",
            List.of(Packs.note(1, "Afternoon cortado.md", "A cortado at four kept me awake.")));

    SynthesisResult result = answer(pack);

    assertThat(result.answer()).contains("closest evidence", "[note:Afternoon cortado.md]");
    assertThat(Verifier.verify(pack, result).passed()).isTrue();
  }

  @Test
  void packWithoutEvidenceGetsNoAnswerButWhatWasSearched() {
    var pack = Packs.pack("What is the capital of Mongolia?", List.of());

    SynthesisResult result = answer(pack);

    assertThat(result.answerStatus()).isEqualTo(AnswerStatus.NO_EVIDENCE);
    assertThat(result.answer()).contains("Searched for: capital, mongolia").doesNotContain("[");
    assertThat(result.citations()).isEmpty();
  }
}
