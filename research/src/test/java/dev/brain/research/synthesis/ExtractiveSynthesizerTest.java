package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.MarkdownText;
import dev.brain.models.Embedder;
import dev.brain.models.EmbeddingModel;
import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Sentence selection of the built-in synthesizer, on hand-made packs. */
class ExtractiveSynthesizerTest {

  private static SynthesisResult answer(ResearchPack pack) {
    return ExtractiveSynthesizer.answer(SynthesisInput.prepare(pack, SynthesisOptions.defaults()));
  }

  /** An answer that reads the stored texts in {@code raw}. */
  private static SynthesisResult answer(ResearchPack pack, Map<String, String> raw) {
    return ExtractiveSynthesizer.answer(
        SynthesisInput.prepare(pack, SynthesisOptions.defaults()),
        key -> Optional.ofNullable(raw.get(key)));
  }

  /** An answer that reads each row's whole stored text, which in {@code pack} is its excerpt. */
  private static SynthesisResult answerFromWholeRows(ResearchPack pack) {
    return answer(
        pack,
        pack.evidence().stream()
            .collect(Collectors.toMap(EvidenceRow::sourceKey, EvidenceRow::excerpt)));
  }

  @Test
  void readsMarkdownAsVisibleTextWithoutCalloutOrCodeFenceSyntax() {
    String raw =
        """
        # Deleted files

        > [!info]+ Info
        > Deleted notes stay in the system trash; the **File recovery** plugin keeps snapshots.

        To restore a deleted note, open [[File recovery|the recovery view]] and paste the
        following text:

        ```md
        restore --all
        ```

        | Setting | Default |
        | --- | --- |
        | Snapshot interval | 5 minutes |
        """;
    String key = "note:help/Deleted files.md";
    var row =
        Packs.stored(Packs.note(1, "help/Deleted files.md", "…the following text: md…"), raw, "…");
    var pack = Packs.pack("Where do deleted notes go after I delete them?", List.of(row));

    String answer = answer(pack, Map.of(key, raw)).answer();

    assertThat(answer)
        .contains(
            "Deleted notes stay in the system trash; the File recovery plugin keeps snapshots.")
        .doesNotContain("[!info", "> ", "```", "**", "restore --all", "text: md", "Info Deleted");
    assertThat(MarkdownText.blocks(raw))
        .extracting(MarkdownText.Block::text)
        .contains(
            "Info",
            "To restore a deleted note, open the recovery view and paste the following text:",
            "Setting: Snapshot interval, Default: 5 minutes.")
        .noneMatch(t -> t.contains("restore --all"));
  }

  @Test
  void neverCutsTheTitleOffTheFrontOfASentence() {
    // The old synthesizer dropped a leading "Sync" as the note's title: "is a core plugin that…".
    String raw = "Sync is a core plugin that protects your notes with end-to-end encryption.";
    var row = Packs.stored(Packs.note(1, "Sync.md", raw), raw, raw);
    var pack = Packs.pack("Which plugin protects my notes with encryption?", List.of(row));

    assertThat(answerFromWholeRows(pack).answer())
        .contains("- Sync is a core plugin that protects your notes");
    assertThat(answer(pack).answer()).contains("- Sync is a core plugin");
  }

  @Test
  void leavesOutASentenceTheExcerptCutInsteadOfQuotingPartOfIt() {
    assertThat(
            EvidenceSentences.ofExcerpt(
                "…plugin that keeps them. Trash keeps deleted notes for 7 days. Then they are"
                    + " gone for…"))
        .containsExactly("Trash keeps deleted notes for 7 days.");
  }

  @Test
  void quotesALongSentenceWholeNeverCutMidWay() {
    String sentence =
        "The trash keeps deleted notes for seven days"
            + ", and then removes them for good".repeat(12)
            + ".";
    var row = Packs.stored(Packs.note(1, "Trash.md", sentence), sentence, sentence);
    var pack = Packs.pack("How long does the trash keep deleted notes?", List.of(row));

    assertThat(answerFromWholeRows(pack).answer()).contains(sentence).doesNotContain("…");
  }

  @Test
  void theSentenceHoldingTheAskedForDateLeads() {
    var pack =
        Packs.pack(
            "When did the bakery on Elm Street open?",
            List.of(
                Packs.pdf(
                    1,
                    "aaaa11112222",
                    "The bakery on Elm Street opened to long queues of neighbours."),
                Packs.pdf(
                    2,
                    "bbbb11112222",
                    "The bakery on Elm Street opened in March 2019 after a year of repairs.")));

    String answer = answer(pack).answer();

    assertThat(answer)
        .startsWith(
            "From saved sources:\n- The bakery on Elm Street opened in March 2019 after a year"
                + " of repairs. (pdf) [src:bbbb11112222]")
        .contains("opened to long queues");
  }

  @Test
  void aDatedSentenceLaterInTheTextLeadsTheAnswer() {
    String raw =
        "Les McCann was a soul jazz pianist and singer from Kentucky. McCann recorded Swiss"
            + " Movement live at Montreux. Les McCann died in Los Angeles on December 29, 2023.";
    var pack =
        Packs.pack(
            "When did Les McCann pass away?",
            List.of(Packs.stored(Packs.pdf(1, "cccc11112222", raw), raw, raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .startsWith("From saved sources:\n- Les McCann died in Los Angeles on December 29, 2023.");
    assertThat(AnswerShape.of("When did Les McCann pass away?")).isEqualTo(AnswerShape.Kind.DATE);
    assertThat(AnswerShape.of("How much did Legends pay?")).isEqualTo(AnswerShape.Kind.NUMBER);
    assertThat(AnswerShape.of("Who won the cup?")).isEqualTo(AnswerShape.Kind.NAME);
    assertThat(AnswerShape.of("How often should I descale?")).isEqualTo(AnswerShape.Kind.NUMBER);
    // "When do I ..." asks for a condition ("at about 700 km"), not a date.
    assertThat(AnswerShape.of("When do I retire running shoes?")).isEqualTo(AnswerShape.Kind.ANY);
    assertThat(AnswerShape.offers(AnswerShape.Kind.NUMBER, "How often?", "Descale once a week."))
        .isTrue();
    assertThat(AnswerShape.of("How do I restore a deleted note?")).isEqualTo(AnswerShape.Kind.ANY);
    // A question in parts asks for the kind of each part.
    assertThat(AnswerShape.kinds("When did I run the marathon and what was my finish time?"))
        .containsExactlyInAnyOrder(AnswerShape.Kind.DATE, AnswerShape.Kind.NUMBER);
    assertThat(AnswerShape.kinds("Who founded the studio? Where is it?"))
        .containsExactly(AnswerShape.Kind.NAME);
    assertThat(AnswerShape.kinds("What is the population of Lisbon?"))
        .containsExactly(AnswerShape.Kind.NUMBER);
    // A relative "which" after a comma goes on with the same part.
    assertThat(AnswerShape.kinds("Why did the grinder, which I bought in 2022, stop working?"))
        .isEmpty();
    // A year the question names is not an answer to it.
    assertThat(
            AnswerShape.offers(
                AnswerShape.Kind.DATE, "What happened in 2023?", "In 2023 it rained."))
        .isFalse();
  }

  @Test
  void aRecordsOpeningSentenceIsPreferredToALaterOneSayingAsMuch() {
    String first = "Glass Harbor is a puzzle game about lighthouses.";
    String second =
        "Reviews were mixed at first. Critics later said Glass Harbor was released too early by"
            + " Tidewater.";
    String third = "Harbor Forge released Glass Harbor in March. It sold well.";
    var pack =
        Packs.pack(
            "Which studio released Glass Harbor?",
            List.of(
                Packs.stored(Packs.pdf(1, "aaaa33334444", first), first, first),
                Packs.stored(Packs.pdf(2, "bbbb33334444", second), second, second),
                Packs.stored(Packs.pdf(3, "cccc33334444", third), third, third)));

    String answer = answerFromWholeRows(pack).answer();

    // Both name a studio and cover as much of the question; the third record's opening sentence
    // says what that record is about, the second record's sentence is an aside in a review.
    assertThat(answer)
        .startsWith("From saved sources:\n- Harbor Forge released Glass Harbor in March.")
        .contains("Critics later said");
  }

  @Test
  void aModelQuestionIsAnsweredByTheSentenceNamingAModelNumber() {
    String raw =
        "I bought the coffee grinder from a small shop in Leeds. The coffee grinder I bought is"
            + " the DF64 with stock burrs.";
    String question = "Which model of coffee grinder did I buy?";
    var pack =
        Packs.pack(question, List.of(Packs.stored(Packs.pdf(1, "ffff33334444", raw), raw, raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .startsWith("From saved sources:\n- The coffee grinder I bought is the DF64 with stock");
    assertThat(AnswerShape.of(question)).isEqualTo(AnswerShape.Kind.MODEL);
    assertThat(AnswerShape.of("What was the model of the airliner?"))
        .isEqualTo(AnswerShape.Kind.MODEL);
    assertThat(AnswerShape.of("Which version of Lucene do we run?"))
        .isEqualTo(AnswerShape.Kind.MODEL);
    assertThat(
            AnswerShape.offers(
                AnswerShape.Kind.MODEL,
                "What was the model of the airliner?",
                "Footage shows the Airbus A350-900 in flames."))
        .isTrue();
    // A year is a date, not a model.
    assertThat(
            AnswerShape.offers(
                AnswerShape.Kind.MODEL,
                "What was the model of the airliner?",
                "The airliner burst into flames in 2024."))
        .isFalse();
  }

  @Test
  void aSentenceOpeningWithAPronounIsAboutWhatTheSentenceBeforeItNames() {
    String raw =
        "The Xiaomi SU7 is a battery electric sedan developed by Xiaomi. It was announced in"
            + " December 2023, with deliveries scheduled for February 2024.";
    var pack =
        Packs.pack(
            "When did Xiaomi announce the SU7?",
            List.of(Packs.stored(Packs.pdf(1, "dddd11112222", raw), raw, raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .startsWith("From saved sources:\n- It was announced in December 2023")
        .doesNotContain("evidence is incomplete");
    assertThat(ExtractiveSynthesizer.opensWithPronoun("It was announced in 2023.")).isTrue();
    assertThat(ExtractiveSynthesizer.opensWithPronoun("Itemised costs follow.")).isFalse();
  }

  @Test
  void aSentenceShownAfterALeadInEndingWithAColonTakesNoSecondSlot() {
    String guide =
        """
        Grind settings for espresso:

        - Espresso at grind setting 15 with medium roast.
        - Espresso at grind setting 12 with light roast.
        """;
    String dark = "Espresso grind setting 18 for dark roast.";
    String travel = "Espresso grind setting 20 for the travel grinder.";
    var pack =
        Packs.pack(
            "What grind setting do I use for espresso?",
            List.of(
                Packs.stored(Packs.note(1, "vault/Grind.md", guide), guide, guide),
                Packs.stored(Packs.note(2, "vault/Dark.md", dark), dark, dark),
                Packs.stored(Packs.note(3, "vault/Travel.md", travel), travel, travel)));

    String answer = answerFromWholeRows(pack).answer();

    // The lead-in is shown with the sentence after it; that sentence is not picked again, so its
    // slot goes to the third note.
    assertThat(answer)
        .contains("- Grind settings for espresso: Espresso at grind setting 15 with medium roast.")
        .contains("travel grinder");
    assertThat(answer.split("setting 15", -1)).hasSize(2);
  }

  @Test
  void aLineThatOnlyPointsToOtherNotesIsNotQuoted() {
    String raw =
        """
        # Fusion

        See [[Reciprocal rank fusion]] and [[Tokenizer decisions]].

        - Fusion: [[Reciprocal rank fusion]]
        - [[Reciprocal rank fusion]] merges the BM25 list and the vector list by rank.

        See [[Reciprocal rank fusion]] for how fusion meets the keyword results.
        """;
    var pack =
        Packs.pack(
            "How does reciprocal rank fusion work?",
            List.of(Packs.stored(Packs.note(1, "vault/search/Fusion.md", raw), raw, raw)));

    String answer = answerFromWholeRows(pack).answer();

    assertThat(answer)
        .contains("- Reciprocal rank fusion merges the BM25 list and the vector list by rank.")
        .contains("- See Reciprocal rank fusion for how fusion meets the keyword results.")
        .doesNotContain("Tokenizer decisions")
        .doesNotContain("Fusion: Reciprocal");
    // A linked headline states something; a note's title alone only points.
    assertThat(
            EvidenceSentences.pointsElsewhere(
                "Tomato seeds need three days of fermentation to germinate well.",
                List.of("Tomato seeds need three days of fermentation to germinate well")))
        .isFalse();
    assertThat(EvidenceSentences.pointsElsewhere("Gear: Running shoes", List.of("Running shoes")))
        .isTrue();
  }

  @Test
  void amongSentencesCoveringTheSameConceptsTheOneClosestInMeaningLeads() {
    String raw =
        "Caffe Tecnico espresso machine guide, edition 3. Backflush the espresso machine with"
            + " detergent every 200 shots. Backflush the espresso machine gasket gently.";
    var pack =
        Packs.pack(
            "How should I clean the espresso machine, and how often?",
            List.of(Packs.stored(Packs.pdf(1, "eeee11112222", raw), raw, raw)));
    // The bundled embedding model, sentence against question, as the retriever measures it.
    try (Embedder embedder = Embedder.open(EmbeddingModel.BGE_SMALL_EN_V15)) {
      ExtractiveSynthesizer.Meaning meaning =
          (question, sentences) -> {
            float[] q = embedder.embedQuery(question);
            return embedder.embedPassages(sentences).stream()
                .mapToDouble(
                    v -> {
                      double dot = 0;
                      for (int d = 0; d < q.length; d++) {
                        dot += q[d] * v[d];
                      }
                      return dot;
                    })
                .toArray();
          };

      String answer =
          ExtractiveSynthesizer.answer(
                  SynthesisInput.prepare(pack, SynthesisOptions.defaults()),
                  key -> Optional.of(raw),
                  meaning)
              .answer();

      assertThat(answer)
          .startsWith(
              "From saved sources:\n- Backflush the espresso machine with detergent every 200"
                  + " shots.");
    }
  }

  @Test
  void dropsASentenceThatRepeatsOneAlreadyQuoted() {
    var pack =
        Packs.pack(
            "Who was named Time Person of the Year 2023?",
            List.of(
                Packs.pdf(
                    1, "aaaa11112222", "Time named Taylor Swift its Person of the Year 2023."),
                Packs.pdf(
                    2, "bbbb11112222", "Time named Taylor Swift its 2023 Person of the Year."),
                Packs.pdf(
                    3,
                    "cccc11112222",
                    "Swift is the first entertainer named Person of the Year by Time for her art.")));

    String answer = answer(pack).answer();

    assertThat(answer)
        .contains("Time named Taylor Swift its Person of the Year 2023. (pdf) [src:aaaa11112222]")
        .doesNotContain("[src:bbbb11112222]");
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
