package dev.brain.index.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.brain.chunking.MarkdownBlocks;
import dev.brain.chunking.MarkdownBlocks.Block;
import dev.brain.chunking.MarkdownBlocks.Kind;
import dev.brain.chunking.MarkdownBlocks.Unit;
import dev.brain.chunking.MarkdownText;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MkDocs admonitions ({@code !!! note}, {@code ??? tip}) and content tabs ({@code === "TOML"})
 * import as callouts, read by the chunker as a callout block with its title: their text is neither
 * run into the marker line nor read as code.
 */
class AdmonitionsImporterTest {

  @TempDir Path dir;

  private final Importers importers = Importers.defaults();

  private String text(String content) throws Exception {
    Path file = dir.resolve("page.md");
    Files.writeString(file, content);
    ImportResult result = importers.read(file, dir, "docs");
    assertThat(result.warnings()).isEmpty();
    return result.records().get(0).text();
  }

  @Test
  void anAdmonitionsIndentedTextIsACalloutNotCodeNorPartOfTheMarkerLine() throws Exception {
    String text =
        text(
            """
            ## Hardware

            !!! warning "Low memory"
                A Pi needs 512MB RAM.

                Swap on an SD card wears it out.

            !!! note
                Any Linux box will do.
            After the notes.

            ??? tip ""
                Folded away.
            """);

    assertThat(text).doesNotContain("!!!").doesNotContain("???");
    assertThat(MarkdownBlocks.of(text))
        .extracting(Block::kind, Block::title, Block::text)
        .containsExactly(
            tuple(Kind.HEADING, "", "Hardware"),
            tuple(
                Kind.QUOTE, "Low memory", "A Pi needs 512MB RAM. Swap on an SD card wears it out."),
            tuple(Kind.QUOTE, "", "Any Linux box will do."),
            tuple(Kind.PARAGRAPH, "", "After the notes."),
            tuple(Kind.QUOTE, "", "Folded away."));
    assertThat(MarkdownText.visibleText(text, true))
        .isEqualTo(
            "Hardware Low memory A Pi needs 512MB RAM. Swap on an SD card wears it out."
                + " Any Linux box will do. After the notes. Folded away.");
  }

  @Test
  void aTabHoldsItsCodeUnderItsLabelAndAdmonitionsNest() throws Exception {
    String text =
        text(
            """
            Settings
            ===

            === "TOML"
                ```toml
                [ntp.sync]

                interval = 3600
                ```

            === "CLI"
                !!! info "Needs root"
                    Run it with sudo.

                ```shell
                pihole-FTL --config ntp.sync.interval 3600
                ```
            """);

    assertThat(text).contains("> [!tab] TOML\n> ```toml\n> [ntp.sync]\n>\n> interval = 3600\n");
    var blocks = MarkdownBlocks.of(text);
    assertThat(blocks)
        .extracting(Block::kind)
        .containsExactly(Kind.HEADING, Kind.QUOTE, Kind.QUOTE);
    assertThat(blocks.get(1).title()).isEqualTo("TOML");
    Unit code = blocks.get(1).units().getFirst();
    assertThat(code.code()).isTrue();
    assertThat(code.text()).isEqualTo("[ntp.sync]\n\ninterval = 3600");
    assertThat(blocks.get(2).title()).isEqualTo("CLI");
    assertThat(text).contains("> > [!info] Needs root\n> > Run it with sudo.\n>\n> ```shell\n");
    assertThat(blocks.get(2).units())
        .extracting(Unit::text)
        .containsExactly(
            "Needs root: Run it with sudo.", "pihole-FTL --config ntp.sync.interval 3600");
  }

  @Test
  void aFoldMayHaveItsTitleAloneAndAnAdmonitionWithoutATypeIsNone() throws Exception {
    String text =
        text(
            """
            ??? "Raw database instructions"
                Run sqlite3 on the database.

            ??? info "Key of the error (`"key": string`)"
                Machine-readable.

            !!! "No type"
                Stays as written.
            """);

    assertThat(text)
        .startsWith("> [!details] Raw database instructions\n> Run sqlite3 on the database.\n")
        .contains("> [!info] Key of the error (`\"key\": string`)\n> Machine-readable.\n")
        .contains("!!! \"No type\"\n    Stays as written.");
  }

  @Test
  void anAdmonitionInAListItemIsACalloutInThatItem() throws Exception {
    String text =
        text(
            """
            1.  Remove the binaries:

                === "macOS and Linux"

                    ```console
                    $ rm ~/.local/bin/uv
                    ```

                !!! note
                    Keep your projects.

            2.  Done.
            """);

    assertThat(text)
        .contains(
            "    > [!tab] macOS and Linux\n    >\n    > ```console\n    > $ rm ~/.local/bin/uv\n")
        .contains("    > [!note]\n    > Keep your projects.\n\n2.  Done.");
    assertThat(MarkdownBlocks.of(text)).hasSize(1);
    assertThat(MarkdownBlocks.of(text).getFirst().units())
        .extracting(Unit::text)
        .containsExactly(
            "Remove the binaries:",
            "macOS and Linux",
            "$ rm ~/.local/bin/uv",
            "Keep your projects.",
            "Done.");
  }

  @Test
  void admonitionsNestedPastTheCapStayAsWrittenInsideTheDeepestOne() throws Exception {
    var source = new StringBuilder();
    for (int level = 0; level < 40; level++) {
      source.append("    ".repeat(level)).append("!!! note \"Level ").append(level).append("\"\n");
    }
    source.append("    ".repeat(40)).append("Deepest text.\n");

    String text = text(source.toString());

    assertThat(text.split("\\[!note]", -1)).hasSize(Admonitions.MAX_DEPTH + 1);
    assertThat(text).contains("!!! note \"Level " + Admonitions.MAX_DEPTH + "\"", "Deepest text.");
  }

  @Test
  void aTabIndentedMarkerAndOneWithoutASpaceAreReadAsMkDocsReadsThem() throws Exception {
    String text = text("- Step one\n\n\t!!!note \"Tabbed\"\n\t\tInside the item.\n\nAfter.\n");

    assertThat(text).contains("    > [!note] Tabbed\n    > Inside the item.\n");
    assertThat(MarkdownBlocks.of(text).getFirst().units())
        .extracting(Unit::text)
        .containsExactly("Step one", "Tabbed: Inside the item.");
  }

  @Test
  void markersInCodeOrProseStayAsWritten() throws Exception {
    String source =
        """
        Write an admonition so:

        ```md
        !!! note
            Indented text.
        ```

            !!! note "indented code"

        Wow!!! it works === "yes".

        !!! Warning do not deploy on Fridays

        - a list item

                  !!! note
                      Code in the item.
        """;

    assertThat(text(source)).isEqualTo(source.strip());
  }
}
