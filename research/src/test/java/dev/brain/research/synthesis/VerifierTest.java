package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.pack.ResearchPack;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The hard citation gates, on hand-made packs and answers. */
class VerifierTest {

  private static final ResearchPack PACK =
      Packs.pack(
          "How often should I backflush?",
          List.of(
              Packs.pdf(1, "ada2743d1b19", "Backflush with detergent every 200 shots."),
              Packs.note(2, "coffee/Gaggia Classic Pro.md", "I backflush on Sundays.")));

  private static SynthesisResult answer(ResearchPack pack, String text, AnswerStatus status) {
    PreparedSynthesis p = SynthesisInput.prepare(pack, SynthesisOptions.defaults());
    return new SynthesisResult(
        SynthesisResult.SCHEMA_VERSION,
        text,
        status,
        p.answerWarnings(),
        p.truncation(),
        Citations.of(pack, text),
        p.promptVersion(),
        "ollama/scripted",
        "ollama",
        null);
  }

  @Test
  void passesAnAnswerCitingOnlyKeysOfThePack() {
    var v =
        Verifier.verify(
            PACK,
            answer(
                PACK,
                "Every 200 shots [src:ada2743d1b19]; you do it on Sundays [note:coffee/Gaggia Classic"
                    + " Pro.md].",
                AnswerStatus.OK));

    assertThat(v.passed()).isTrue();
    assertThat(v.reasons()).isEmpty();
  }

  @Test
  void bracketsInsideQuotedCodeAreNotCitations() {
    String text =
        "From your notes [note:coffee/Gaggia Classic Pro.md]:\n\n"
            + "```rust\n#[tauri::command]\nfn brew() {}\n```\n\n"
            + "Mark it with `#[derive(serde::Serialize)]` and list it under"
            + " `[plugins:sql]`:\n\n"
            + "    let order = [espresso:ristretto];\n\n"
            + "It derives [std::fmt::Debug] as well.\n";

    var v = Verifier.verify(PACK, answer(PACK, text, AnswerStatus.OK));

    assertThat(Citations.keys(text)).containsExactly("note:coffee/Gaggia Classic Pro.md");
    assertThat(v.passed()).isTrue();
    assertThat(v.reasons()).isEmpty();
  }

  @Test
  void aKeyOutsideCodeIsStillCheckedWhenTheAnswerAlsoQuotesCode() {
    String text = "Weekly [src:ffffffffffff]:\n\n```\n[src:ada2743d1b19]\n```\n";

    var v = Verifier.verify(PACK, answer(PACK, text, AnswerStatus.OK));

    assertThat(Citations.keys(text)).containsExactly("src:ffffffffffff");
    assertThat(v.passed()).isFalse();
  }

  @Test
  void failsAnAnswerCitingAKeyThatIsNotInThePack() {
    var v =
        Verifier.verify(
            PACK,
            answer(
                PACK, "Weekly [src:ada2743d1b19] or daily [src:ffffffffffff].", AnswerStatus.OK));

    assertThat(v.passed()).isFalse();
    assertThat(v.reasons())
        .singleElement()
        .asString()
        .contains("[src:ffffffffffff]", "not a record");
  }

  @Test
  void failsAKeyWithoutItsPrefixOrWithAnotherCase() {
    var noPrefix =
        Verifier.verify(
            PACK, answer(PACK, "On Sundays [coffee/Gaggia Classic Pro.md].", AnswerStatus.OK));
    var wrongCase =
        Verifier.verify(PACK, answer(PACK, "Every 200 shots [src:ADA2743D1B19].", AnswerStatus.OK));

    assertThat(noPrefix.passed()).isFalse();
    assertThat(noPrefix.reasons())
        .anySatisfy(r -> assertThat(r).contains("without its key prefix"));
    assertThat(wrongCase.passed()).isFalse();
    assertThat(wrongCase.reasons())
        .anySatisfy(r -> assertThat(r).contains("the key in the pack is [src:ada2743d1b19]"));
  }

  @Test
  void failsAChunkIdCitedInsteadOfItsRecordKey() {
    var v =
        Verifier.verify(
            PACK, answer(PACK, "Every 200 shots [src:ada2743d1b19#2].", AnswerStatus.OK));

    assertThat(v.passed()).isFalse();
    assertThat(v.reasons()).anySatisfy(r -> assertThat(r).contains("not a chunk id"));
  }

  @Test
  void failsAnEvidenceBackedAnswerWithoutCitations() {
    var v = Verifier.verify(PACK, answer(PACK, "Backflush every 200 shots.", AnswerStatus.OK));

    assertThat(v.passed()).isFalse();
    assertThat(v.reasons()).containsExactly("the answer draws on evidence but cites no record key");
  }

  @Test
  void failsANormalAnswerToAPackWithoutEvidence() {
    ResearchPack empty = Packs.pack("What is the capital of Mongolia?", List.of());

    var normal = Verifier.verify(empty, answer(empty, "Ulaanbaatar.", AnswerStatus.OK));
    var honest =
        Verifier.verify(
            empty,
            answer(empty, ExtractiveSynthesizer.noEvidence(empty), AnswerStatus.NO_EVIDENCE));

    assertThat(normal.passed()).isFalse();
    assertThat(normal.reasons())
        .anySatisfy(r -> assertThat(r).contains("never yields a normal answer"));
    assertThat(honest.passed()).isTrue();
  }

  @Test
  void failsTruncatedEvidenceThatIsNotSurfaced() {
    ResearchPack big =
        Packs.pack(
            "How do I dial in?", List.of(Packs.sized(1, "a.md", 900), Packs.sized(2, "b.md", 900)));
    PreparedSynthesis p =
        SynthesisInput.prepare(big, SynthesisOptions.defaults().withMaxEvidenceChars(1_000));
    var hidden =
        new SynthesisResult(
            SynthesisResult.SCHEMA_VERSION,
            "Grind finer [note:a.md].",
            AnswerStatus.OK,
            List.of(),
            p.truncation(),
            Citations.of(big, "[note:a.md]"),
            p.promptVersion(),
            "ollama/scripted",
            "ollama",
            null);

    var v = Verifier.verify(big, hidden);

    assertThat(p.truncation().truncated()).isTrue();
    assertThat(v.passed()).isFalse();
    assertThat(v.reasons()).anySatisfy(r -> assertThat(r).contains("ok_truncated"));
  }

  @Test
  void unavailableModelHasNothingToVerify() {
    var v = Verifier.verify(PACK, answer(PACK, null, AnswerStatus.UNAVAILABLE));

    assertThat(v.passed()).isTrue();
  }

  @Test
  void readsKeysFromBracketsButNotUrlsOrWikilinks() {
    String answer =
        "See [note:a b.md; src:0123456789ab], [bm:aaaaaaaaaaaa, feed-entry:bbbbbbbbbbbb],"
            + " [https://example.com], [[Wiki link]] and [a link](https://x.y) [note:a b.md].";

    assertThat(Citations.keys(answer))
        .containsExactly(
            "note:a b.md", "src:0123456789ab", "bm:aaaaaaaaaaaa", "feed-entry:bbbbbbbbbbbb");
  }
}
