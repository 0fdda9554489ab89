package dev.brain.chunking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ChunkerTest {

  private static final String KEY = "note:notes/chunking.md";

  static final String NESTED_MARKDOWN =
      """
      Preamble before any heading, one sentence.

      # Guide

      ## Install

      Run the installer. It asks two questions. Answer both.

      ```bash
      # not a heading: a shell comment
      ./install --all

      echo done
      ```

      ### Linux

      - first item with some words
      - second item
        with a continuation line
      - third item

      ## Use `brain` *daily*

      > a quote
      > # not a section heading either

      Setext heading
      --------------

          # indented code, no heading

      Last paragraph under the setext heading.
      """;

  static final String CRLF_TEXT =
      "# Title\r\n\r\nFirst paragraph line one.\r\nLine two of it.\r\n\r\n"
          + "## Part\r\n\r\nSecond paragraph. With two sentences.\r\n";

  static final String UNICODE_TEXT =
      """
      # Überblick 🧠

      Größere Modelle verstehen „Zitate“ besser. 日本語の文です。これは二つ目の文です。
      Emoji 👩‍🔬 and combining e\u0301 marks stay intact. Ελληνικά κείμενα επίσης.

      ## Ünïcödé 2

      Zweiter Abschnitt mit Text. 🚀🚀🚀 Ende.
      """;

  static String longParagraph(int sentences) {
    return IntStream.range(0, sentences)
        .mapToObj(i -> "Sentence " + i + " talks about alpha beta gamma delta.")
        .collect(Collectors.joining(" "));
  }

  static Stream<Arguments> variedTexts() {
    String giantWord = "x".repeat(3000);
    return Stream.of(
        Arguments.of("nested markdown", NESTED_MARKDOWN),
        Arguments.of("crlf", CRLF_TEXT),
        Arguments.of("lone cr", CRLF_TEXT.replace("\r\n", "\r")),
        Arguments.of("unicode", UNICODE_TEXT),
        Arguments.of("long paragraph", longParagraph(120)),
        Arguments.of("giant word", "Before it. " + giantWord + " After it, more words follow."),
        Arguments.of("only a giant word", giantWord),
        Arguments.of("tabs and spaces", "\t  lead\t\ttabs\n\n\n   trail   \t\n"),
        Arguments.of(
            "front matter", "---\ntitle: Notes\ntags: [a, b]\n---\n# Real\n\nBody text here.\n"),
        Arguments.of("list only", "- " + longParagraph(30).replace(". ", ".\n- ")),
        Arguments.of(
            "huge code fence",
            "```\n" + "line of code();\n".repeat(200) + "```\n\nAfter the fence."),
        Arguments.of("no punctuation", "word ".repeat(900)),
        Arguments.of("single char", "x"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("variedTexts")
  void everyChunkSlicesTheRawTextAndRespectsTheBudget(String name, String text) {
    for (int[] budget : new int[][] {{256, 32}, {40, 8}, {12, 5}, {3, 1}}) {
      for (boolean markdown : new boolean[] {true, false}) {
        WordPieceCounter counter = new WordPieceCounter();
        Chunker chunker = new Chunker(counter, budget[0], budget[1]);
        List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, markdown);
        ChunkInvariants.assertAll(KEY, text, ChunkRole.RAW, chunks, budget[0], budget[1]);
      }
    }
  }

  @Test
  void returnsNoChunksForBlankText() {
    Chunker chunker = new Chunker(new WordPieceCounter());
    for (String blank : List.of("", " ", "\n\n", "\r\n\t \r\n", "\u2003")) {
      assertThat(chunker.chunk(KEY, blank, ChunkRole.RAW, true)).isEmpty();
      assertThat(chunker.chunk(KEY, blank, ChunkRole.RAW, false)).isEmpty();
    }
  }

  @Test
  void keepsTextWithinTheBudgetAsOneTrimmedChunk() {
    Chunker chunker = new Chunker(new WordPieceCounter());
    String text = "\n\n  Short note. Two sentences.\n\nAnd a second paragraph.  \n";

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, false);

    assertThat(chunks).hasSize(1);
    assertThat(chunks.getFirst().text())
        .isEqualTo("Short note. Two sentences.\n\nAnd a second paragraph.");
    assertThat(chunks.getFirst().startChar()).isEqualTo(4);
    assertThat(chunks.getFirst().headingPath()).isEmpty();
  }

  @Test
  void plainTextThatMarksItsHeadingsIsChunkedBySectionAndNoOtherLineIsMarkdown() {
    String text =
        "# Care Guide\n\nFor home machines.\n\n## 1. Backflush: daily\n\n"
            + longParagraph(6)
            + "\n\n## 4. Descaling\n\n"
            + longParagraph(6)
            + "\n\n* not a list, _not emphasis_\n";

    List<Chunk> chunks =
        new Chunker(new WordPieceCounter(), 80, 0).chunk(KEY, text, ChunkRole.RAW, false);

    assertThat(chunks).extracting(Chunk::headingPath).contains(List.of("Care Guide"));
    Chunk descaling =
        chunks.stream()
            .filter(c -> c.text().startsWith("## 4. Descaling"))
            .findFirst()
            .orElseThrow();
    assertThat(descaling.headingPath()).containsExactly("Care Guide", "4. Descaling");
    assertThat(chunks.getLast().headingPath()).containsExactly("Care Guide", "4. Descaling");
    assertThat(chunks.getLast().text()).endsWith("* not a list, _not emphasis_");
    assertThat(chunks)
        .noneMatch(c -> c.text().contains("1. Backflush") && c.text().contains("4. Descaling"));
  }

  @Test
  void smallMarkdownNoteIsOneChunkUnderTheHeadingsAllItsSectionsShare() {
    Chunker chunker = new Chunker(new WordPieceCounter());
    String text = "# Paper\n\n## Intro\n\nWhy.\n\n## Method\n\nHow.\n";

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, true);

    assertThat(chunks).singleElement().satisfies(c -> assertThat(c.text()).isEqualTo(text.strip()));
    assertThat(chunks.getFirst().headingPath()).containsExactly("Paper");
  }

  @Test
  void sameInputTwiceYieldsEqualChunks() {
    String text = NESTED_MARKDOWN + "\n" + longParagraph(80);
    List<Chunk> first =
        new Chunker(new WordPieceCounter(), 30, 8).chunk(KEY, text, ChunkRole.RAW, true);
    List<Chunk> second =
        new Chunker(new WordPieceCounter(), 30, 8).chunk(KEY, text, ChunkRole.RAW, true);

    assertThat(first).hasSizeGreaterThan(5).isEqualTo(second);
  }

  @Test
  void headingPathsFollowNestedHeadingsAndIgnoreCodeQuotesAndIndentedCode() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 20, 4);

    List<Chunk> chunks = chunker.chunk(KEY, NESTED_MARKDOWN, ChunkRole.RAW, true);

    assertThat(chunks.getFirst().headingPath()).isEmpty();
    assertThat(chunks.getFirst().text()).startsWith("Preamble");
    assertThat(pathOf(chunks, "./install --all")).containsExactly("Guide", "Install");
    assertThat(pathOf(chunks, "second item")).containsExactly("Guide", "Install", "Linux");
    assertThat(pathOf(chunks, "a quote")).containsExactly("Guide", "Use brain daily");
    // "----" underlines a level-2 heading: a sibling of "Use brain daily", not a child
    assertThat(pathOf(chunks, "indented code")).containsExactly("Guide", "Setext heading");
    assertThat(pathOf(chunks, "Last paragraph")).containsExactly("Guide", "Setext heading");
    assertThat(chunks)
        .flatExtracting(Chunk::headingPath)
        .doesNotContain("not a heading: a shell comment", "not a section heading either");
  }

  @Test
  void aHeadingWithNothingUnderItMergesIntoTheNestedSectionAfterIt() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 20, 4);
    String text =
        "# Guide\n\n## Install\n\n" + longParagraph(2) + "\n\n## Use\n\n" + longParagraph(2);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, true);

    assertThat(chunks.getFirst().text()).startsWith("# Guide\n\n## Install\n\nSentence 0");
    assertThat(chunks.getFirst().headingPath()).containsExactly("Guide", "Install");
    assertThat(chunks.getLast().headingPath()).containsExactly("Guide", "Use");
  }

  @Test
  void aHeadingWithNothingUnderItBeforeASiblingStaysItsOwnChunk() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 20, 4);
    String text = "## Empty\n\n## Full\n\n" + longParagraph(3);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, true);

    assertThat(chunks.getFirst().text()).isEqualTo("## Empty");
    assertThat(chunks.getFirst().headingPath()).containsExactly("Empty");
    assertThat(chunks.get(1).text()).startsWith("## Full");
    assertThat(chunks.get(1).headingPath()).containsExactly("Full");
  }

  @Test
  void sectionsNeverShareAChunkOrAnOverlap() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 30, 10);
    String text = "# A\n\n" + longParagraph(6) + "\n\n# B\n\n" + longParagraph(6);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, true);

    int firstOfB = text.indexOf("# B");
    assertThat(chunks)
        .allSatisfy(c -> assertThat(c.startChar() >= firstOfB || c.endChar() <= firstOfB).isTrue());
    assertThat(chunks).anySatisfy(c -> assertThat(c.startChar()).isEqualTo(firstOfB));
  }

  @Test
  void markdownOffTreatsHashLinesInsideParagraphsAndHashtagsAsText() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 20, 4);
    String text =
        "# Not a heading\nbut a paragraph's first line\n\n#hashtag\n\n" + longParagraph(5);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, false);

    assertThat(chunks).hasSizeGreaterThan(1).allSatisfy(c -> assertThat(c.headingPath()).isEmpty());
  }

  @Test
  void frontMatterIsKeptAsTextButNeverReadAsHeadings() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 12, 2);
    String text = "---\ntitle: Notes\n---\n# Real\n\n" + longParagraph(3);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, true);

    assertThat(chunks.getFirst().text()).isEqualTo("---\ntitle: Notes\n---");
    assertThat(chunks.getFirst().headingPath()).isEmpty();
    assertThat(chunks.subList(1, chunks.size()))
        .allSatisfy(c -> assertThat(c.headingPath()).containsExactly("Real"));
  }

  @Test
  void chunksAfterTheFirstInASectionStartWithWholeTrailingSentencesOfThePrevious() {
    int max = 40;
    int overlap = 12;
    Chunker chunker = new Chunker(new WordPieceCounter(), max, overlap);
    String text = longParagraph(40);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, false);

    assertThat(chunks).hasSizeGreaterThan(5);
    for (int i = 1; i < chunks.size(); i++) {
      Chunk previous = chunks.get(i - 1);
      Chunk next = chunks.get(i);
      assertThat(next.startChar())
          .as("chunk %d overlaps the previous one", i)
          .isLessThan(previous.endChar());
      String shared = text.substring(next.startChar(), previous.endChar());
      assertThat(shared).startsWith("Sentence ").endsWith(".");
      assertThat(WordPieceCounter.tokens(shared)).isLessThanOrEqualTo(overlap);
      assertThat(WordPieceCounter.tokens(next.text())).isLessThanOrEqualTo(max);
    }
  }

  @Test
  void overlapFallsBackToTrailingWordsWhenNoWholeSentenceFits() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 60, 6);
    String text = longParagraph(30);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, false);

    assertThat(chunks).hasSizeGreaterThan(3);
    for (int i = 1; i < chunks.size(); i++) {
      String shared = text.substring(chunks.get(i).startChar(), chunks.get(i - 1).endChar());
      assertThat(shared).isEqualTo("about alpha beta gamma delta.");
    }
  }

  @Test
  void overlapTakesWholeSentencesAndNoPartialOneBeforeThem() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 60, 20);
    String text = longParagraph(30);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, false);

    for (int i = 1; i < chunks.size(); i++) {
      String shared = text.substring(chunks.get(i).startChar(), chunks.get(i - 1).endChar());
      // two sentences (18 tokens) fit in 20; no words of a third are added before them
      assertThat(shared).matches("(Sentence \\d+ talks about alpha beta gamma delta\\. ?){2}");
    }
  }

  @Test
  void overlapIsNeverMoreThanHalfTheBudget() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 40, 1000);
    String text = "Tiny one. Tiny two. Tiny three. ".repeat(40);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, false);

    for (int i = 1; i < chunks.size(); i++) {
      String shared = text.substring(chunks.get(i).startChar(), chunks.get(i - 1).endChar());
      assertThat(WordPieceCounter.tokens(shared)).isPositive().isLessThanOrEqualTo(20);
    }
  }

  @Test
  void zeroOverlapMakesChunksDisjoint() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 40, 0);

    List<Chunk> chunks = chunker.chunk(KEY, longParagraph(30), ChunkRole.RAW, false);

    for (int i = 1; i < chunks.size(); i++) {
      assertThat(chunks.get(i).startChar()).isGreaterThanOrEqualTo(chunks.get(i - 1).endChar());
    }
  }

  @Test
  void paragraphsThatFitArePackedWholeAndNotSplitAcrossChunks() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 60, 0);
    List<String> paragraphs =
        IntStream.range(0, 12)
            .mapToObj(i -> longParagraph(3).replace("Sentence", "P" + i))
            .toList();
    String text = String.join("\n\n", paragraphs);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, false);

    assertThat(chunks).hasSizeGreaterThan(1);
    for (Chunk chunk : chunks) {
      assertThat(chunk.text())
          .matches("(?s)P\\d+ 0 .*P\\d+ 2 talks about alpha beta gamma delta\\.");
    }
  }

  @Test
  void aFencedCodeBlockThatFitsIsNeverCut() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 50, 8);
    String fence = "```java\nint a = 1;\n\nint b = 2;\n```";
    String text = "# Code\n\n" + longParagraph(4) + "\n\n" + fence + "\n\n" + longParagraph(4);

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, true);

    assertThat(chunks).anySatisfy(c -> assertThat(c.text()).contains(fence));
    int fenceStart = text.indexOf(fence);
    int fenceEnd = fenceStart + fence.length();
    assertThat(chunks)
        .allSatisfy(
            c -> {
              assertThat(c.startChar() <= fenceStart || c.startChar() >= fenceEnd).isTrue();
              assertThat(c.endChar() <= fenceStart || c.endChar() >= fenceEnd).isTrue();
            });
  }

  @Test
  void aWordLongerThanTheBudgetIsItsOwnChunk() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 10, 3);
    String word = "a-".repeat(50) + "z";
    String text = "Words before it come here. " + word + " Words after it.";

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, false);

    assertThat(chunks).extracting(Chunk::text).contains(word);
    assertThat(chunks)
        .filteredOn(c -> !c.text().equals(word))
        .allSatisfy(c -> assertThat(WordPieceCounter.tokens(c.text())).isLessThanOrEqualTo(10));
  }

  @Test
  void transcriptCuesWithoutPunctuationSplitAtLineStarts() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 60, 16);
    String transcript =
        IntStream.range(0, 60)
            .mapToObj(
                i -> "[00:%02d:%02d] speaker says something number %d".formatted(i / 60, i % 60, i))
            .collect(Collectors.joining("\n"));

    List<Chunk> chunks = chunker.chunk("src:abc", transcript, ChunkRole.TRANSCRIPT, false);

    ChunkInvariants.assertAll("src:abc", transcript, ChunkRole.TRANSCRIPT, chunks, 60, 16);
    assertThat(chunks).hasSizeGreaterThan(5);
    for (Chunk chunk : chunks) {
      assertThat(chunk.text()).as("a chunk starts at a cue").startsWith("[00:");
      assertThat(
              chunk.endChar() == transcript.length() || transcript.charAt(chunk.endChar()) == '\n')
          .as("a chunk ends at the end of a cue")
          .isTrue();
    }
    assertThat(chunks).allSatisfy(c -> assertThat(c.role()).isEqualTo(ChunkRole.TRANSCRIPT));
    for (int i = 1; i < chunks.size(); i++) {
      assertThat(chunks.get(i).startChar()).isLessThan(chunks.get(i - 1).endChar());
    }
  }

  @Test
  void idsOrdinalsHashesAndVersionDescribeEachChunk() {
    Chunker chunker = new Chunker(new WordPieceCounter(), 20, 4);

    List<Chunk> chunks = chunker.chunk("doc:42", longParagraph(10), ChunkRole.SUMMARY, false);

    assertThat(chunks).hasSizeGreaterThan(2);
    for (int i = 0; i < chunks.size(); i++) {
      Chunk chunk = chunks.get(i);
      assertThat(chunk.chunkId()).isEqualTo("doc:42#" + i);
      assertThat(chunk.ordinal()).isEqualTo(i);
      assertThat(chunk.key()).isEqualTo("doc:42");
      assertThat(chunk.role()).isEqualTo(ChunkRole.SUMMARY);
      assertThat(chunk.textHash()).hasSize(64).isEqualTo(ChunkInvariants.sha256Hex(chunk.text()));
      assertThat(chunk.chunkerVersion()).isEqualTo(Chunker.VERSION);
    }
  }

  @Test
  void countsEachPieceOnceInsteadOfEveryGrowingWindow() {
    WordPieceCounter counter = new WordPieceCounter();
    Chunker chunker = new Chunker(counter, 256, 32);
    String text =
        IntStream.range(0, 300)
            .mapToObj(
                i ->
                    "## Part " + i + "\n\n" + longParagraph(i % 7 + 1) + "\n\n" + longParagraph(40))
            .collect(Collectors.joining("\n\n"));

    List<Chunk> chunks = chunker.chunk(KEY, text, ChunkRole.RAW, true);

    assertThat(chunks).hasSizeGreaterThan(300);
    assertThat(counter.charsCounted()).isLessThan(2L * text.length());
  }

  @Test
  void aCapMakesTheFirstChunksWithoutCountingTheRestOfAHugeText() {
    String text =
        IntStream.range(0, 3000)
            .mapToObj(i -> "## Part " + i + "\n\n" + longParagraph(40))
            .collect(Collectors.joining("\n\n"));
    WordPieceCounter all = new WordPieceCounter();
    List<Chunk> whole = new Chunker(all, 256, 32).chunk(KEY, text, ChunkRole.RAW, true);
    WordPieceCounter capped = new WordPieceCounter();

    List<Chunk> first = new Chunker(capped, 256, 32).chunk(KEY, text, ChunkRole.RAW, true, 50);

    assertThat(first).isEqualTo(whole.subList(0, 50));
    assertThat(first.getLast().endChar()).isLessThan(text.length() / 10);
    assertThat(capped.charsCounted()).isLessThan(all.charsCounted() / 10);
  }

  @Test
  void aCapAtOrAboveTheChunkCountChangesNothing() {
    WordPieceCounter counter = new WordPieceCounter();
    Chunker chunker = new Chunker(counter, 24, 4);
    List<Chunk> whole = chunker.chunk(KEY, NESTED_MARKDOWN, ChunkRole.RAW, true);
    assertThat(chunker.chunk(KEY, NESTED_MARKDOWN, ChunkRole.RAW, true, whole.size()))
        .isEqualTo(whole);
    assertThatThrownBy(() -> chunker.chunk(KEY, NESTED_MARKDOWN, ChunkRole.RAW, true, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxChunks");
  }

  @Test
  void rejectsABudgetThatCannotHoldAToken() {
    WordPieceCounter counter = new WordPieceCounter();
    assertThatThrownBy(() -> new Chunker(counter, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxTokens");
    assertThatThrownBy(() -> new Chunker(counter, 10, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("overlapTokens");
  }

  @Test
  void rejectsACounterThatReturnsNegativeCounts() {
    Chunker chunker = new Chunker(text -> -1, 10, 2);

    assertThatThrownBy(() -> chunker.chunk(KEY, "some text", ChunkRole.RAW, false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("returned -1");
  }

  @Test
  void defaultsAreTheDocumentedBudget() {
    Chunker chunker = new Chunker(new WordPieceCounter());

    assertThat(chunker.maxTokens()).isEqualTo(Chunker.DEFAULT_MAX_TOKENS).isEqualTo(256);
    assertThat(chunker.overlapTokens()).isEqualTo(Chunker.DEFAULT_OVERLAP_TOKENS).isEqualTo(32);
  }

  private static List<String> pathOf(List<Chunk> chunks, String needle) {
    return chunks.stream()
        .filter(c -> c.text().contains(needle))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no chunk contains " + needle))
        .headingPath();
  }
}
