package dev.brain.evals;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The note-research rubric counts what makes a section not worth keeping, and nothing else. */
class NoteResearchRubricTest {

  /** A vault of two notes, as the rubric reads it. */
  private static final NoteResearchRubric.Vault VAULT =
      new NoteResearchRubric.Vault() {
        final Map<String, String> notes =
            Map.of(
                "side project ideas",
                "# Side project ideas\n\n- Kafka consumer lag viewer for the terminal #kafka\n"
                    + "- Home dashboard on the Pi that also shows the bus times #homelab\n",
                "kafka migration",
                "---\ntags: [kafka]\n---\n# Kafka migration\n\nMoving the order events to Kafka at"
                    + " work. Owner: me.\n\n1. Dual-write for two weeks.\n2. Move billing"
                    + " first.\n");

        @Override
        public boolean holds(String target) {
          return notes.containsKey(target.toLowerCase(java.util.Locale.ROOT));
        }

        @Override
        public List<String> blocks(String target) {
          String text = notes.get(target.toLowerCase(java.util.Locale.ROOT));
          return text == null ? null : NoteResearchRubric.Vault.blocksOf(text);
        }
      };

  private static String section(String body) {
    return "## Research\n<!-- brain:research v1 sha256=00 -->\n\n_Researched by brain._\n\n"
        + body
        + "\n<!-- /brain:research -->\n";
  }

  @Test
  void aWholeSectionScoresNothingWrong() {
    var score =
        NoteResearchRubric.score(
            section(
                "### Kafka\n\n"
                    + "- [[Kafka migration]]: Moving the order events to Kafka at work.\n"
                    + "- [[Side project ideas]]: Kafka consumer lag viewer for the terminal #kafka\n"
                    + "- Kafka paper (collection papers): Consumers pull and keep offsets.\n"
                    + "- [Kafka docs](https://kafka.example/docs): Kafka is a log.\n\n"
                    + "### Related notes\n\n- [[Side project ideas]]\n"),
            VAULT);
    assertThat(score.bullets()).isEqualTo(4);
    assertThat(score.excerpts()).isEqualTo(4);
    assertThat(score.links()).isEqualTo(3);
    assertThat(score.findings()).isEmpty();
    assertThat(score.duplicates() + score.cut() + score.foreign() + score.filler()).isZero();
  }

  @Test
  void countsDuplicatesCutExcerptsForeignLinksAndFiller() {
    var score =
        NoteResearchRubric.score(
            section(
                "### Kafka\n\n"
                    + "- [[Kafka migration]]: Moving the order events to Kafka at work.\n"
                    + "- [[Kafka migration|migration]]: Owner: me.\n"
                    // runs from one bullet of its note into the next
                    + "- [[Side project ideas]]: Kafka consumer lag viewer for the terminal #kafka"
                    + " Home dashboard on the Pi\n"
                    // stops inside a sentence
                    + "- [[Kafka migration]]: Moving the order events\n"
                    + "- [[Raft paper]]: A leader appends entries.\n"
                    + "- [Docs](https://d.example): Dual-write for two weeks. 2. Move billing…\n"
                    + "- [Docs](https://d.example): More on the log.\n\n"
                    + "### Tomasz Nowak\n\n"
                    + "_The notes on it are cited under the topics above._\n\n"
                    + "### homelab\n\n- [[Side project ideas]]: #homelab #kafka\n"),
            VAULT);
    // the last bullet cites Side project ideas a second time in the section, under another topic
    assertThat(score.duplicates()).isEqualTo(4);
    assertThat(score.cut()).isEqualTo(3);
    assertThat(score.foreign()).isEqualTo(1);
    assertThat(score.filler()).isEqualTo(2);
    assertThat(score.findings())
        .anyMatch(f -> f.contains("spans two blocks"))
        .anyMatch(f -> f.contains("ends inside a sentence"))
        .anyMatch(f -> f.contains("ends in an ellipsis"))
        .anyMatch(f -> f.contains("foreign link [[Raft paper]]"));
  }

  @Test
  void blocksAreParagraphsListItemsAndTableRowsWithoutFrontMatterOrCode() {
    assertThat(
            NoteResearchRubric.Vault.blocksOf(
                "---\ntitle: x\n---\n# T\n\nOne line\nwrapped here.\n\n- a item\n- [ ] task"
                    + " item\n\n```\ncode line\n```\n| a | b |\n"))
        .containsExactly("T", "One line wrapped here.", "a item", "task item", "| a | b |");
  }

  @Test
  void anEvenSampleOfNotesInPathOrderLeavesHiddenFoldersOut(@TempDir Path dir) throws Exception {
    Files.createDirectories(dir.resolve(".obsidian"));
    Files.writeString(dir.resolve(".obsidian/workspace.md"), "x");
    for (String n : List.of("a.md", "b.md", "c.txt", "d.md", "e.png")) {
      Files.writeString(dir.resolve(n), "x");
    }
    List<Path> notes = NoteResearchEvaluation.notes(dir);
    assertThat(notes)
        .extracting(p -> p.getFileName().toString())
        .containsExactly("a.md", "b.md", "c.txt", "d.md");
    assertThat(NoteResearchEvaluation.sample(notes, 2))
        .extracting(p -> p.getFileName().toString())
        .containsExactly("a.md", "c.txt");
    assertThat(NoteResearchEvaluation.sample(notes, 0)).hasSize(4);
  }
}
