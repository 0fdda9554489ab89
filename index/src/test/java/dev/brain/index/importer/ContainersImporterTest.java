package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.chunking.MarkdownBlocks;
import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code :::} container directives (Docusaurus, VitePress, Starlight) import as callouts, read by
 * the chunker as a callout block with its title.
 */
class ContainersImporterTest {

  @TempDir Path dir;

  private final Importers importers = Importers.defaults();

  private String text(String name, String content) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, content);
    ImportResult result = importers.read(file, dir, "docs");
    assertThat(result.warnings()).isEmpty();
    return result.records().get(0).text();
  }

  private static Block callout(String text) {
    return MarkdownBlocks.of(text).stream()
        .filter(b -> b.kind() == Kind.QUOTE)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void everyOpeningSyntaxBecomesACalloutOfItsTypeWithItsTitle() throws Exception {
    record Case(String opening, String type, String title) {}
    List<Case> cases =
        List.of(
            new Case(":::tip", "tip", ""),
            new Case("::: tip NOTE", "tip", "NOTE"),
            new Case(":::note", "note", ""),
            new Case(":::caution", "caution", ""),
            new Case(":::tip[Security Tip]", "tip", "Security Tip"),
            new Case(":::info Release Candidate", "info", "Release Candidate"),
            new Case(":::warning{title=\"Mind the port\"}", "warning", "Mind the port"),
            new Case("::: details Click to expand", "details", "Click to expand"));
    for (Case c : cases) {
      String text =
          text(
              "page.md",
              "# Page\n\nBefore it.\n\n"
                  + c.opening()
                  + "\nUnlike some shells, it is *kind*.\n:::\n");

      assertThat(text)
          .as(c.opening())
          .contains(
              "> [!"
                  + c.type()
                  + "]"
                  + (c.title().isEmpty() ? "" : " " + c.title())
                  + "\n> Unlike some shells, it is *kind*.")
          .doesNotContain(":::");
      Block block = callout(text);
      assertThat(block.title()).as(c.opening()).isEqualTo(c.title());
      assertThat(block.text()).as(c.opening()).isEqualTo("Unlike some shells, it is kind.");
    }
  }

  @Test
  void theTextAfterACalloutIsNotPartOfIt() throws Exception {
    String text = text("page.md", ":::tip\nInside.\n:::\nAfter it.\n");

    assertThat(MarkdownBlocks.of(text))
        .extracting(Block::kind, Block::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(Kind.QUOTE, "Inside."),
            org.assertj.core.groups.Tuple.tuple(Kind.PARAGRAPH, "After it."));
  }

  @Test
  void nestedContainersWithMoreColonsOutsideQuoteTwice() throws Exception {
    String text =
        text(
            "page.md",
            """
            ::::warning Outer
            Outer text.

            :::tip[Inner]
            Inner text.
            :::

            Outer again.
            ::::
            After.
            """);

    assertThat(text)
        .contains("> [!warning] Outer\n> Outer text.\n>\n> > [!tip] Inner\n> > Inner text.\n")
        .contains("> Outer again.\n\nAfter.")
        .doesNotContain(":::");
  }

  @Test
  void aCodeGroupLosesItsMarkersAndKeepsItsCodeAsItIs() throws Exception {
    String text =
        text(
            "page.md",
            """
            ::: code-group
            ```sh [npm]
            npm add quillfrost
            ```
            ```sh [pnpm]
            pnpm add quillfrost
            ```
            :::
            """);

    assertThat(text)
        .isEqualTo("```sh [npm]\nnpm add quillfrost\n```\n```sh [pnpm]\npnpm add quillfrost\n```");
  }

  @Test
  void colonsInAFencedCodeBlockAreCode() throws Exception {
    String code = "```md\n:::tip\nA tip in the docs source.\n\n\n:::\n```";
    String text = text("page.md", "Write a tip so:\n\n" + code + "\n");

    assertThat(text).isEqualTo("Write a tip so:\n\n" + code);
  }

  @Test
  void aFenceInsideACalloutIsQuotedWithIt() throws Exception {
    String text = text("page.md", ":::note\nRun:\n\n```sh\necho ':::'\n```\n:::\n");

    assertThat(text).isEqualTo("> [!note]\n> Run:\n>\n> ```sh\n> echo ':::'\n> ```");
  }

  @Test
  void anUnclosedContainerRunsToTheEndOfTheFileWithNoTextLost() throws Exception {
    String text = text("page.md", "Intro.\n\n:::danger Careful\nFirst.\n\nSecond.\n");

    assertThat(text).isEqualTo("Intro.\n\n> [!danger] Careful\n> First.\n>\n> Second.");
  }

  @Test
  void anMdxPageHasItsContainersAsCalloutsToo() throws Exception {
    String text =
        text(
            "page.mdx",
            """
            import { Tabs } from '@astrojs/starlight/components';

            :::caution[Mind the port]
            The window stays **blankfern**.
            :::
            """);

    assertThat(text)
        .isEqualTo("> [!caution] Mind the port\n> The window stays **blankfern**.")
        .doesNotContain("import");
  }

  @Test
  void indentedContainersInAListStayInTheItem() throws Exception {
    String text = text("page.md", "1. Step one.\n\n   :::tip\n   Do it twice.\n   :::\n");

    assertThat(text).isEqualTo("1. Step one.\n\n   > [!tip]\n   > Do it twice.");
  }
}
