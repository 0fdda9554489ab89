package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.research.pack.ResearchPack;
import dev.brain.retrieval.EvidenceRow;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The evidence budget of the synthesis input: what is kept, dropped and trimmed, and in what order.
 */
class SynthesisInputTest {

  private static final String QUESTION = "How do I dial in espresso?";

  private static PreparedSynthesis prepare(ResearchPack pack, int budget) {
    return SynthesisInput.prepare(pack, SynthesisOptions.defaults().withMaxEvidenceChars(budget));
  }

  private static List<String> included(PreparedSynthesis p) {
    return p.includedRows().stream().map(EvidenceRow::sourceKey).toList();
  }

  private static List<EvidenceRow> rows(int count, int chars) {
    return java.util.stream.IntStream.rangeClosed(1, count)
        .mapToObj(i -> Packs.sized(i, "coffee/row" + i + ".md", chars))
        .toList();
  }

  private static int blockLength(EvidenceRow row) {
    return RowBlock.of(row, row.excerpt()).length();
  }

  @Test
  void keepsEveryRowWhenTheBudgetAllows() {
    var pack = Packs.pack(QUESTION, rows(3, 500));

    PreparedSynthesis p = prepare(pack, 24_000);

    assertThat(included(p)).hasSize(3);
    assertThat(p.answerStatus()).isEqualTo(AnswerStatus.OK);
    assertThat(p.answerWarnings()).isEmpty();
    assertThat(p.truncation().truncated()).isFalse();
    assertThat(p.truncation().evidenceBudgetChars()).isEqualTo(24_000);
    assertThat(p.truncation().evidenceCharsUsed())
        .isEqualTo(pack.evidence().stream().mapToInt(SynthesisInputTest::blockLength).sum());
  }

  @Test
  void dropsLowerRankedRowsFirstAndTrimsExactlyTheBottomMostIncludedRow() {
    List<EvidenceRow> rows = rows(5, 900);
    int block = blockLength(rows.get(0));
    var pack = Packs.pack(QUESTION, rows);

    PreparedSynthesis p = prepare(pack, 2 * block + block / 2);

    assertThat(included(p))
        .containsExactly("note:coffee/row1.md", "note:coffee/row2.md", "note:coffee/row3.md");
    Truncation t = p.truncation();
    assertThat(t.partiallyTrimmedSourceKey()).isEqualTo("note:coffee/row3.md");
    assertThat(t.droppedSourceKeys()).containsExactly("note:coffee/row4.md", "note:coffee/row5.md");
    assertThat(t.evidenceCharsUsed()).isLessThanOrEqualTo(t.evidenceBudgetChars());
    assertThat(p.answerStatus()).isEqualTo(AnswerStatus.OK_TRUNCATED);
    assertThat(p.answerWarnings()).containsExactly(AnswerWarning.EVIDENCE_TRUNCATED);
    assertThat(p.input())
        .contains("[note:coffee/row1.md]", "[note:coffee/row2.md]", "[note:coffee/row3.md]")
        .doesNotContain("row4", "row5");
    // Only the last included block is cut: it alone ends with the trim marker.
    assertThat(p.input().split("…\\[trimmed]", -1)).hasSize(2);
    assertThat(p.input().indexOf("…[trimmed]"))
        .isGreaterThan(p.input().indexOf("[note:coffee/row3.md]"));
  }

  @Test
  void dropsARowInsteadOfTrimmingItWhenTooLittleRoomIsLeft() {
    List<EvidenceRow> rows = rows(3, 900);
    int block = blockLength(rows.get(0));

    PreparedSynthesis p = prepare(Packs.pack(QUESTION, rows), block + 150);

    assertThat(included(p)).containsExactly("note:coffee/row1.md");
    assertThat(p.truncation().partiallyTrimmedSourceKey()).isNull();
    assertThat(p.truncation().droppedSourceKeys())
        .containsExactly("note:coffee/row2.md", "note:coffee/row3.md");
  }

  @Test
  void neverIncludesALowerRankedRowAfterAHigherRankedOneWasDropped() {
    EvidenceRow small = Packs.sized(1, "coffee/small.md", 300);
    EvidenceRow big = Packs.sized(2, "coffee/big.md", 5_000);
    EvidenceRow tiny = Packs.sized(3, "coffee/tiny.md", 50);
    int budget = blockLength(small) + 150; // the tiny row would fit, the big one does not

    PreparedSynthesis p =
        prepare(Packs.pack(QUESTION, List.of(small, big, tiny)), Math.max(500, budget));

    assertThat(included(p)).containsExactly("note:coffee/small.md");
    assertThat(p.truncation().droppedSourceKeys())
        .containsExactly("note:coffee/big.md", "note:coffee/tiny.md");
  }

  @Test
  void reservesRoomForOneExactTagExampleAndDropsPrimaryRowsRatherThanTrimThem() {
    List<EvidenceRow> rows = rows(4, 900);
    int block = blockLength(rows.get(0));
    EvidenceRow tagged =
        Packs.row(
            1,
            "bm:0123456789ab",
            "item",
            "bookmark",
            "exact_tag",
            "Espresso forum.",
            List.of("espresso"),
            null);
    var pack = Packs.pack(QUESTION, rows, List.of(tagged), null);

    PreparedSynthesis p = prepare(pack, 3 * block + SynthesisInput.EXACT_TAG_RESERVED_CHARS);

    assertThat(included(p))
        .containsExactly(
            "note:coffee/row1.md", "note:coffee/row2.md", "note:coffee/row3.md", "bm:0123456789ab");
    assertThat(p.truncation().droppedSourceKeys()).containsExactly("note:coffee/row4.md");
    assertThat(p.truncation().partiallyTrimmedSourceKey()).isNull();
    assertThat(p.input()).contains("# Exact-tag example");
    assertThat(p.input().indexOf("[bm:0123456789ab]"))
        .isGreaterThan(p.input().indexOf("[note:coffee/row3.md]"));
  }

  @Test
  void reservationNeverTakesMoreThanAQuarterOfTheBudget() {
    List<EvidenceRow> rows = rows(3, 400);
    EvidenceRow tagged =
        Packs.row(
            1,
            "bm:0123456789ab",
            "item",
            "bookmark",
            "exact_tag",
            "Espresso forum.",
            List.of("espresso"),
            null);

    PreparedSynthesis p = prepare(Packs.pack(QUESTION, rows, List.of(tagged), null), 1_500);

    assertThat(included(p))
        .startsWith("note:coffee/row1.md", "note:coffee/row2.md")
        .endsWith("bm:0123456789ab");
  }

  @Test
  void needsNoSeparateExactTagExampleWhenAPrimaryRowIsOne() {
    List<EvidenceRow> rows = rows(2, 300);
    var pack = Packs.pack(QUESTION, rows, List.of(rows.get(0)), null);

    PreparedSynthesis p = prepare(pack, 24_000);

    assertThat(included(p)).containsExactly("note:coffee/row1.md", "note:coffee/row2.md");
    assertThat(p.input()).doesNotContain("# Exact-tag example");
  }

  @Test
  void includesTheTopicBriefSummaryOnlyWhenEnoughRoomRemains() {
    List<EvidenceRow> rows = rows(2, 900);
    int block = blockLength(rows.get(0));
    var pack = Packs.pack(QUESTION, rows, List.of(), Packs.brief("Topic coffee: 2 notes."));

    PreparedSynthesis roomy =
        prepare(pack, 2 * block + SynthesisInput.TOPIC_BRIEF_MIN_REMAINING_CHARS);
    PreparedSynthesis tight =
        prepare(pack, 2 * block + SynthesisInput.TOPIC_BRIEF_MIN_REMAINING_CHARS - 1);

    assertThat(roomy.input()).contains("# Topic brief", "Topic coffee: 2 notes.");
    assertThat(tight.input()).doesNotContain("# Topic brief");
    assertThat(tight.truncation().truncated()).isFalse();
  }

  @Test
  void putsRelatedRowsLastAndDropsThemBeforeAnyPrimaryRow() {
    EvidenceRow first = Packs.sized(1, "coffee/first.md", 900);
    EvidenceRow second = Packs.sized(2, "coffee/second.md", 900);
    EvidenceRow linked =
        Packs.related(3, "coffee/linked.md", Packs.filler(900), "note:coffee/first.md");
    var pack = Packs.pack(QUESTION, List.of(first, linked, second));

    PreparedSynthesis all = prepare(pack, 24_000);
    PreparedSynthesis tight = prepare(pack, blockLength(first) + blockLength(second) + 100);

    assertThat(included(all))
        .containsExactly("note:coffee/first.md", "note:coffee/second.md", "note:coffee/linked.md");
    assertThat(all.input()).contains("# Related evidence");
    assertThat(included(tight)).containsExactly("note:coffee/first.md", "note:coffee/second.md");
    assertThat(tight.truncation().droppedSourceKeys()).containsExactly("note:coffee/linked.md");
  }

  @Test
  void packWithoutEvidencePreparesANoEvidenceStatus() {
    PreparedSynthesis p = prepare(Packs.pack(QUESTION, List.of()), 24_000);

    assertThat(p.answerStatus()).isEqualTo(AnswerStatus.NO_EVIDENCE);
    assertThat(p.answerWarnings()).containsExactly(AnswerWarning.NO_EVIDENCE);
    assertThat(p.citableSources()).isEmpty();
    assertThat(p.input()).contains("# Question", "None: nothing in the corpus matched");
  }

  @Test
  void isDeterministicAndStartsWithQuestionPlanAndCoverage() {
    var pack = Packs.pack(QUESTION, rows(4, 700));

    PreparedSynthesis a = prepare(pack, 2_000);
    PreparedSynthesis b = prepare(pack, 2_000);

    assertThat(a.input()).isEqualTo(b.input());
    assertThat(a.truncation()).isEqualTo(b.truncation());
    int question = a.input().indexOf("# Question");
    int plan = a.input().indexOf("# Plan");
    int coverage = a.input().indexOf("# Coverage");
    int evidence = a.input().indexOf("# Evidence");
    assertThat(question).isZero();
    assertThat(plan).isGreaterThan(question);
    assertThat(coverage).isGreaterThan(plan);
    assertThat(evidence).isGreaterThan(coverage);
    assertThat(a.promptVersion()).isEqualTo(SynthesisPrompt.VERSION);
  }

  @Test
  void describesNotesApartFromThirdPartySourcesAndSummariesAsDerived() {
    EvidenceRow note = Packs.note(1, "coffee/mine.md", "My shot.");
    EvidenceRow source = Packs.pdf(2, "ada2743d1b19", "Backflush weekly.");

    assertThat(RowBlock.of(note, note.excerpt()))
        .contains("the user's own note", "raw text excerpt");
    assertThat(RowBlock.of(source, source.excerpt())).contains("a PDF (third-party source)");
  }
}
