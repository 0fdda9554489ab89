package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResearchSectionTest {

  private static final String SECTION = "## Research\n\n- found [[A]]\n";

  @Test
  void appendsAfterABlankLineWhenTheNoteHasNoSection() {
    String note = "# Title\n\nText.\n";
    assertThat(ResearchSection.replace(note, SECTION)).isEqualTo(note + "\n" + SECTION);
  }

  @Test
  void appendsALineBreakFirstWhenTheNoteEndsWithoutOne() {
    assertThat(ResearchSection.replace("# T\n\nText.", SECTION))
        .isEqualTo("# T\n\nText.\n\n" + SECTION);
  }

  @Test
  void replacesTheSectionUpToTheNextHeadingOfTheSameOrHigherLevel() {
    String note =
        "# T\n\nIntro.\n\n## Research\n\nold stuff\n\n### Old topic\n\nmore old\n\n## Later\n\nkept\n";
    String out = ResearchSection.replace(note, SECTION);
    assertThat(out).isEqualTo("# T\n\nIntro.\n\n" + SECTION + "\n## Later\n\nkept\n");
  }

  @Test
  void replacingTwiceGivesTheSameNote() {
    String note = "# T\n\nIntro.\n\n## Later\n\nkept\n";
    String once = ResearchSection.replace(note, SECTION);
    assertThat(ResearchSection.replace(once, SECTION)).isEqualTo(once);
    String twice = ResearchSection.replace(once, "## Research\n\nnew\n");
    assertThat(twice).isEqualTo(note + "\n## Research\n\nnew\n");
  }

  @Test
  void ignoresHeadingsInCodeFencesAndFrontMatter() {
    String note =
        "---\ntitle: x\n## Research\n---\n# T\n\n```\n## Research\n```\n\n## Research\n\nold\n";
    String out = ResearchSection.replace(note, SECTION);
    assertThat(out)
        .isEqualTo("---\ntitle: x\n## Research\n---\n# T\n\n```\n## Research\n```\n\n" + SECTION);
  }

  @Test
  void keepsWindowsLineEndings() {
    String note = "# T\r\n\r\nText.\r\n";
    assertThat(ResearchSection.replace(note, SECTION))
        .isEqualTo("# T\r\n\r\nText.\r\n\r\n## Research\r\n\r\n- found [[A]]\r\n");
  }

  @Test
  void demotesHeadingsThatWouldEndTheSection() {
    assertThat(ResearchSection.demoteHeadings("# A\n\n## B\n\n### C\n#tag\n"))
        .isEqualTo("### A\n\n### B\n\n### C\n#tag\n");
  }

  @Test
  void withoutRemovesOnlyTheSection() {
    assertThat(ResearchSection.without("# T\n\n## Research\n\nx\n\n## Next\n"))
        .isEqualTo("# T\n\n## Next\n");
    assertThat(ResearchSection.find("# T\n")).isNull();
  }
}
