package dev.brain.chunking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MarkdownTextTest {

  @Test
  void aKeyValueTableRowReadsAsKeyThenValue() {
    String table = "| | |\n|---|---|\n| Dose | 18 g |\n| Yield | 36 g (1:2) |\n";

    assertThat(MarkdownText.blocks(table))
        .extracting(MarkdownText.Block::text)
        .containsExactly("Dose: 18 g.", "Yield: 36 g (1:2).");
  }

  @Test
  void visibleTextKeepsCodeWithoutItsFences() {
    String md = "# Setup\n\nRun this:\n\n```sh\nbrain add ~/notes\n```\n";

    assertThat(MarkdownText.blocks(md))
        .extracting(MarkdownText.Block::text)
        .containsExactly("Setup", "Run this:");
    assertThat(MarkdownText.visibleText(md, true)).isEqualTo("Setup Run this: brain add ~/notes");
  }

  @Test
  void aBlockKnowsTheVisibleTextOfItsLinks() {
    String md =
        "# Links\n\nSee [[Reciprocal rank fusion]] and [[Tokenizer decisions|tokens]], or the"
            + " [Lucene docs](https://lucene.apache.org/) for more. ![[chart.png]]\n";

    var blocks = MarkdownText.blocks(md);

    assertThat(blocks.get(0).links()).isEmpty();
    assertThat(blocks.get(1).text())
        .isEqualTo("See Reciprocal rank fusion and tokens, or the Lucene docs for more.");
    assertThat(blocks.get(1).links())
        .containsExactlyInAnyOrder("Reciprocal rank fusion", "tokens", "Lucene docs");
  }

  @Test
  void plainTextIsOnlyCollapsed() {
    assertThat(MarkdownText.visibleText("# not a heading\n\n| a |  b", false))
        .isEqualTo("# not a heading | a | b");
    assertThat(MarkdownText.isMarkdown("pdf")).isFalse();
    assertThat(MarkdownText.isMarkdown("note")).isTrue();
  }
}
