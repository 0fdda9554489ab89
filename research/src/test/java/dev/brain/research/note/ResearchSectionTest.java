package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.research.note.NoteResearchException.Reason;
import dev.brain.research.note.ResearchSection.Found;
import dev.brain.research.note.ResearchSection.Owner;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ResearchSectionTest {

  private static final String SECTION = ResearchSection.compose("- found [[A]]\n");
  private static final String OTHER = ResearchSection.compose("- found [[B]]\n");

  private static String replace(String note, String section) {
    return ResearchSection.replace(note, section, false, "note.md");
  }

  @Test
  void brainsSectionIsMarkedWithTheHashOfItsBodyAndAnEndMarker() {
    assertThat(SECTION)
        .startsWith("## Research\n" + ResearchSection.MARKER_PREFIX)
        .contains("\n\n- found [[A]]\n\n")
        .endsWith(ResearchSection.END_MARKER + "\n");
    assertThat(ResearchSection.isBrainWritten(SECTION)).isTrue();
    assertThat(ResearchSection.isBrainWritten("# T\n\n" + SECTION + "\ntext\n")).isTrue();
    assertThat(ResearchSection.brainWrittenSpan("# T\n\n" + SECTION))
        .containsExactly(5, 5 + SECTION.length() - 1);
    assertThat(ResearchSection.isBrainWritten(SECTION.replace("[[A]]", "[[A]] mine"))).isFalse();
    assertThat(ResearchSection.isBrainWritten("## Research\n\n- found [[A]]\n")).isFalse();
  }

  @Test
  void appendsAfterABlankLineWhenTheNoteHasNoSection() {
    String note = "# Title\n\nText.\n";
    assertThat(replace(note, SECTION)).isEqualTo(note + "\n" + SECTION);
  }

  @Test
  void appendsALineBreakFirstWhenTheNoteEndsWithoutOne() {
    assertThat(replace("# T\n\nText.", SECTION)).isEqualTo("# T\n\nText.\n\n" + SECTION);
  }

  @Test
  void replacesBrainsOwnSectionInPlaceAndNothingAroundIt() {
    String head = "# T\n\nIntro.\n\n";
    String tail = "\n## Later\n\nkept\n";
    String out = replace(head + SECTION + tail, OTHER);
    assertThat(out).isEqualTo(head + OTHER + tail);
    assertThat(replace(out, OTHER)).isEqualTo(out);
  }

  @Test
  void aDeeplyNestedNoteKeepsEveryByteAndGetsItsSection() {
    var deep = new StringBuilder("# T\n\n");
    for (int i = 0; i < 1_000; i++) {
      deep.append("  ".repeat(i)).append("- item\n");
    }
    deep.append("\n").append(">".repeat(10_000)).append(" quoted\n\n");
    deep.append("*".repeat(20_000)).append(" ").append("[".repeat(20_000)).append('\n');
    String note = deep.toString();
    String out = replace(note, SECTION);
    assertThat(out).isEqualTo(note + "\n" + SECTION);
    assertThat(replace(out, OTHER)).isEqualTo(note + "\n" + OTHER);
  }

  @Test
  void keepsATrailingTextWithoutLineBreakAfterTheEndMarker() {
    String note = "# T\n\n" + SECTION.stripTrailing();
    assertThat(replace(note, OTHER)).isEqualTo("# T\n\n" + OTHER.stripTrailing());
  }

  @Test
  void aHeadingInsideAnHtmlCommentIsNoSection() {
    String note =
        "# T\n\n<!--\n## Research\nold thoughts I commented out\n-->\n\nMy paragraph after it.\n";
    String out = replace(note, SECTION);
    assertThat(out).isEqualTo(note + "\n" + SECTION);
    assertThat(replace(out, SECTION)).isEqualTo(out);
  }

  @Test
  void aHandWrittenSectionIsRefusedNamingWhatWouldBeRemovedAndReplacedOnlyWhenAsked() {
    String note =
        "# T\n\n## Research\n\nMy own reading list.\n\n### My subsection\n\nmine\n\n## Later\n";
    assertThatThrownBy(() -> replace(note, SECTION))
        .isInstanceOfSatisfying(
            NoteResearchException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.CONFLICT);
              assertThat(e.field()).isEqualTo("replace");
            })
        .hasMessageContaining("brain did not write")
        .hasMessageContaining("8 lines")
        .hasMessageContaining("My own reading list. / ### My subsection / mine")
        .hasMessageContaining("--replace");
    String out = ResearchSection.replace(note, SECTION, true, "note.md");
    assertThat(out).isEqualTo("# T\n\n" + SECTION + "\n## Later\n");
    assertThat(replace(out, SECTION)).isEqualTo(out);
  }

  @Test
  void aSectionBrainWroteButTheUserEditedIsRefused() {
    String edited = SECTION.replace("- found [[A]]", "- found [[A]], and my note on it");
    assertThat(ResearchSection.find(edited).owner()).isEqualTo(Owner.EDITED);
    assertThatThrownBy(() -> replace("# T\n\n" + edited, SECTION))
        .hasMessageContaining("edited since");
    assertThat(ResearchSection.replace("# T\n\n" + edited, SECTION, true, "n"))
        .isEqualTo("# T\n\n" + SECTION);
  }

  @Test
  void ignoresHeadingsInCodeFencesAndFrontMatter() {
    String note = "---\ntitle: x\n## Research\n---\n# T\n\n```\n## Research\n```\n";
    assertThat(replace(note, SECTION)).isEqualTo(note + "\n" + SECTION);
  }

  @Test
  void keepsWindowsLineEndingsAndTheByteOrderMark() {
    String note = "\uFEFF# T\r\n\r\nText.\r\n";
    String out = replace(note, SECTION);
    assertThat(out).isEqualTo(note + "\r\n" + SECTION.replace("\n", "\r\n"));
    assertThat(ResearchSection.find(out).owner()).isEqualTo(Owner.BRAIN);
    assertThat(replace(out, SECTION)).isEqualTo(out);
  }

  @Test
  void refusesASectionThatWouldNotStandOnItsOwn() {
    assertThatThrownBy(() -> replace("# T\n\n```\nopen fence\n", SECTION))
        .hasMessageContaining("unclosed code fence");
  }

  @Test
  void demotesHeadingsThatWouldEndTheSection() {
    assertThat(ResearchSection.demoteHeadings("# A\n\n## B\n\n### C\n#tag\n\nD\n==\n"))
        .isEqualTo("### A\n\n### B\n\n### C\n#tag\n\n### D\n");
  }

  @Test
  void withoutRemovesOnlyTheSection() {
    assertThat(ResearchSection.without("# T\n\n## Research\n\nx\n\n## Next\n"))
        .isEqualTo("# T\n\n## Next\n");
    assertThat(ResearchSection.without("# T\n\n" + SECTION + "\nmine\n"))
        .isEqualTo("# T\n\n\n\nmine\n");
    assertThat(ResearchSection.find("# T\n")).isNull();
  }

  /**
   * Random notes around brain's section: every character outside the section stays, and a second
   * run gives the same note.
   */
  @Test
  void randomNotesKeepEveryByteOutsideTheSectionAndASecondRunChangesNothing() {
    Random random = new Random(20261128L);
    for (int run = 0; run < 200; run++) {
      String eol = random.nextBoolean() ? "\r\n" : "\n";
      String bom = random.nextInt(4) == 0 ? "\uFEFF" : "";
      String before = bom + randomMarkdown(random, eol);
      String after = randomMarkdown(random, eol);
      if (random.nextBoolean()) {
        after = after.stripTrailing();
      }
      String note = before.stripTrailing() + (random.nextBoolean() ? "" : eol);
      String context = "case " + run + ": " + note.replace("\r", "\\r");

      String appended = replace(note, SECTION);
      assertThat(appended).as(context).startsWith(note);
      assertThat(replace(appended, SECTION)).as(context).isEqualTo(appended);

      String block = SECTION.replace("\n", eol).stripTrailing();
      String middle = before + block + eol + after;
      Found found = ResearchSection.find(middle);
      assertThat(found).as(context).isNotNull();
      assertThat(found.owner()).as(context).isEqualTo(Owner.BRAIN);
      String replaced = replace(middle, OTHER);
      assertThat(replaced)
          .as(context)
          .isEqualTo(before + OTHER.replace("\n", eol).stripTrailing() + eol + after);
      assertThat(replace(replaced, OTHER)).as(context).isEqualTo(replaced);
    }
  }

  private static String randomMarkdown(Random random, String eol) {
    var out = new StringBuilder();
    int blocks = random.nextInt(6);
    for (int i = 0; i < blocks; i++) {
      String block =
          switch (random.nextInt(8)) {
            case 0 -> "Some paragraph " + random.nextInt(100) + " with *words*.";
            case 1 -> "- item one\n- item two\n  - ## Research in a list";
            case 2 -> "```\n## Research\ncode " + random.nextInt(9) + "\n```";
            case 3 -> "<!--\n## Research\ncommented out\n-->";
            case 4 -> "## Heading " + random.nextInt(9) + "\n\ntext under it";
            case 5 -> "> ## Research\n> quoted";
            case 6 -> "~~~md\n" + ResearchSection.END_MARKER + "\n~~~";
            default -> "1. first\n2. second";
          };
      out.append(block.replace("\n", eol)).append(eol).append(eol);
    }
    return out.toString();
  }
}
