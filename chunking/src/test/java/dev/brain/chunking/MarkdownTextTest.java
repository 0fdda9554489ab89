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
  void plainTextIsOnlyCollapsed() {
    assertThat(MarkdownText.visibleText("# not a heading\n\n| a |  b", false))
        .isEqualTo("# not a heading | a | b");
    assertThat(MarkdownText.isMarkdown("pdf")).isFalse();
    assertThat(MarkdownText.isMarkdown("note")).isTrue();
  }
}
