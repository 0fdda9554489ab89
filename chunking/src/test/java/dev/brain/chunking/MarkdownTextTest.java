package dev.brain.chunking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MarkdownTextTest {

  @Test
  void visibleTextKeepsCodeWithoutItsFencesAndLinksAsTheirText() {
    String md =
        "# Setup\n\nRun this, see [[Install|the guide]]:\n\n```sh\nbrain add ~/notes\n```\n\n"
            + "> [!tip] Note\n> Use **bold** and `code`.\n";

    assertThat(MarkdownText.visibleText(md, true))
        .isEqualTo("Setup Run this, see the guide: brain add ~/notes Note Use bold and code.");
  }

  @Test
  void plainTextIsCollapsedWithoutTheMarksOfItsHeadings() {
    assertThat(MarkdownText.visibleText("**not bold**\n\n| a |  b\n#tag", false))
        .isEqualTo("**not bold** | a | b #tag");
    assertThat(MarkdownText.visibleText("## 4. Descaling\n\nUse citric\nacid. # 2", false))
        .isEqualTo("4. Descaling Use citric acid. # 2");
    assertThat(MarkdownText.isMarkdown("pdf")).isFalse();
    assertThat(MarkdownText.isMarkdown("note")).isTrue();
  }

  @Test
  void aLinkPathIsDecodedWithoutItsAnchorOrQuery() {
    assertThat(MarkdownText.linkPath("health/Plantar%20fasciitis.md#Treatment"))
        .isEqualTo("health/Plantar fasciitis.md");
    assertThat(MarkdownText.linkPath("C++ notes.md?plain=1")).isEqualTo("C++ notes.md");
    assertThat(MarkdownText.linkPath("100%.md")).isEqualTo("100%.md");
  }
}
