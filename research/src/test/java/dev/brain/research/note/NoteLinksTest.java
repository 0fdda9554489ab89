package dev.brain.research.note;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.brain.index.CollectionRoot;
import dev.brain.research.note.NoteResult.Source;
import dev.brain.research.note.TopicResearch.Findings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Links a research section writes open the note they mean in Obsidian, and a source is cited under
 * the topic it speaks to.
 */
class NoteLinksTest {
  @TempDir Path vault;
  NoteLinks links;

  @BeforeEach
  void twoNotesShareAName() throws IOException {
    Files.createDirectories(vault.resolve("Plugins"));
    Files.createDirectories(vault.resolve("Web Clipper"));
    Files.writeString(vault.resolve("Plugins/Templates.md"), "# Templates\n");
    Files.writeString(vault.resolve("Web Clipper/Templates.md"), "# Templates\n");
    Files.writeString(vault.resolve("Canvas.md"), "# Canvas\n");
    links = NoteLinks.of(List.of(CollectionRoot.of("help", vault)));
  }

  @Test
  void aSharedNameIsLinkedByItsPathAndAUniqueOneByItsName() {
    assertThat(links.link("Plugins/Templates.md")).isEqualTo("Plugins/Templates|Templates");
    assertThat(links.link("Web Clipper/Templates.md")).isEqualTo("Web Clipper/Templates|Templates");
    assertThat(links.link("Canvas.md")).isEqualTo("Canvas");
    assertThat(links.isAmbiguous("Templates")).isTrue();
    assertThat(links.isAmbiguous("Plugins/Templates")).isFalse();
    assertThat(links.exists("Plugins/Templates")).isTrue();
    assertThat(links.exists("Nowhere/Templates")).isFalse();
  }

  @Test
  void theLinkCheckRefusesANameTwoNotesShare() {
    assertThatThrownBy(
            () ->
                SectionCheck.check(
                    "- [[Templates]]: how to insert a template\n",
                    Set.of("templates"),
                    Set.of(),
                    links))
        .isInstanceOf(NoteResearchException.class)
        .hasMessageContaining(
            "[[Templates]] could open Plugins/Templates or Web Clipper/Templates");
    SectionCheck.check(
        "- [[Plugins/Templates|Templates]]: insert a template\n- [[Canvas]]: a board\n",
        Set.of(),
        Set.of(),
        links);
  }

  @Test
  void aNoteIsCitedUnderTheTopicItSpeaksToMost() {
    var views =
        new Source(
            "note",
            "note:help/Views.md",
            "Views",
            null,
            "Views",
            "Bases views show records as a table or cards.");
    var canvas =
        new Source(
            "note",
            "note:help/Canvas.md",
            "Canvas",
            null,
            "Canvas",
            "A canvas holds cards you arrange.");
    List<Findings> findings =
        List.of(
            new Findings(
                new Topic("Canvas cards", "", "concept"),
                "canvas cards",
                List.of(canvas, views),
                List.of(),
                0,
                0),
            new Findings(
                new Topic("Bases views", "", "concept"),
                "bases views table",
                List.of(views),
                List.of(),
                0,
                0));
    var placed = TopicResearch.underTheirBestTopic(findings);
    assertThat(placed.get(0).sources()).containsExactly(canvas);
    assertThat(placed.get(0).elsewhere()).isEqualTo(1);
    assertThat(placed.get(1).sources()).containsExactly(views);
  }
}
