package dev.brain.chunking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Chunking invariants over random Markdown-ish texts built from a fixed seed. */
class ChunkerPropertiesTest {

  private static final String[] WORDS = {
    "alpha",
    "beta",
    "Gamma",
    "δέλτα",
    "epsilon",
    "zeta",
    "日本語",
    "🧠",
    "e\u0301",
    "x-ray",
    "co-op",
    "3.14",
    "U.S.",
    "(note)",
    "**bold**",
    "`code`",
    "[link](http://x.y)",
    "a"
  };
  private static final String[] ENDS = {".", "!", "?", "", ";", "..."};
  private static final String[] NEWLINES = {"\n", "\r\n", "\r"};

  @Test
  void invariantsHoldForRandomTexts() {
    Random random = new Random(20261122L);
    for (int round = 0; round < 400; round++) {
      String text = randomText(random);
      int maxTokens = 1 + random.nextInt(80);
      int overlap = random.nextInt(40);
      boolean markdown = random.nextBoolean();
      ChunkRole role = ChunkRole.values()[random.nextInt(ChunkRole.values().length)];
      Chunker chunker = new Chunker(new WordPieceCounter(), maxTokens, overlap);

      List<Chunk> chunks = chunker.chunk("doc:" + round, text, role, markdown);

      ChunkInvariants.assertAll("doc:" + round, text, role, chunks, maxTokens, overlap);
      assertThat(chunker.chunk("doc:" + round, text, role, markdown)).isEqualTo(chunks);
      // A cap gives the same chunks the whole text begins with.
      int cap = 1 + random.nextInt(Math.max(1, chunks.size()));
      assertThat(chunker.chunk("doc:" + round, text, role, markdown, cap))
          .isEqualTo(chunks.subList(0, Math.min(cap, chunks.size())));
    }
  }

  private static String randomText(Random random) {
    String nl = NEWLINES[random.nextInt(NEWLINES.length)];
    StringBuilder out = new StringBuilder();
    if (random.nextInt(10) == 0) {
      out.append("---").append(nl).append("title: t").append(nl).append("---").append(nl);
    }
    int blocks = random.nextInt(12);
    for (int b = 0; b < blocks; b++) {
      switch (random.nextInt(8)) {
        case 0 ->
            out.append("#".repeat(1 + random.nextInt(6))).append(' ').append(sentence(random));
        case 1 ->
            out.append("```")
                .append(nl)
                .append("# code ")
                .append(sentence(random))
                .append(nl)
                .append(nl)
                .append("```");
        case 2 -> {
          for (int i = random.nextInt(6); i >= 0; i--) {
            out.append(random.nextBoolean() ? "- " : "  1. ").append(sentence(random)).append(nl);
          }
        }
        case 3 ->
            out.append("> ")
                .append(sentence(random))
                .append(nl)
                .append("> # ")
                .append(sentence(random));
        case 4 -> out.append("z".repeat(1 + random.nextInt(400)));
        case 5 -> out.append(" \t ").append(nl);
        default -> {
          for (int i = random.nextInt(20); i >= 0; i--) {
            out.append(sentence(random)).append(random.nextInt(4) == 0 ? nl : " ");
          }
        }
      }
      out.append(nl.repeat(random.nextInt(3)));
    }
    return out.toString();
  }

  private static String sentence(Random random) {
    StringBuilder out = new StringBuilder();
    for (int i = random.nextInt(15); i >= 0; i--) {
      out.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(9) == 0 ? "\t" : " ");
    }
    return out.toString().strip() + ENDS[random.nextInt(ENDS.length)];
  }
}
