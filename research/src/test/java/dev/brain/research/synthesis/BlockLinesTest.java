package dev.brain.research.synthesis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.MarkdownBlocks;
import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BlockLinesTest {

  private static Block list(int items, int wordsEach) {
    String text =
        IntStream.rangeClosed(1, items)
            .mapToObj(
                i ->
                    "- option_%d is what item %d says: %s"
                        .formatted(i, i, "lorem ipsum dolor sit amet ".repeat(wordsEach / 5)))
            .collect(Collectors.joining("\n"));
    Block block = MarkdownBlocks.of(text).getFirst();
    assertThat(block.kind()).isEqualTo(Kind.LIST);
    return block;
  }

  @Test
  void aListOfLongItemsShowsThePickWithTheItemsOnBothSidesOfIt() {
    Block block = list(12, 70);

    String shown = BlockLines.units(block, 6);

    assertThat(shown).contains("option_7 is").contains("option_8 is").contains("option_6 is");
    assertThat(shown).startsWith("…").endsWith("…");
  }

  @Test
  void aListOfShortItemsShowsAFifthOfTheWindowBeforeThePickAndTheRestAfterIt() {
    Block block = list(40, 5);

    String shown = BlockLines.units(block, 20);

    assertThat(shown).contains("option_16 is").doesNotContain("option_15 is");
    assertThat(shown).contains("option_30 is").doesNotContain("option_31 is");
  }
}
