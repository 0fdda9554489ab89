package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code brain note research} on a small vault of its own. */
class NoteCommandTest {

  @TempDir static Path dir;
  static Path vault;
  static Path data;

  record Run(int code, String out, String err) {}

  static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    var all = new String[args.length + 2];
    all[0] = "--data";
    all[1] = data.toString();
    System.arraycopy(args, 0, all, 2, args.length);
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), all);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeAll
  static void add() throws Exception {
    vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(vault.resolve("Grinder.md"), "# Grinder\n\nConical burrs, see [[Burrs]].\n");
    Files.writeString(vault.resolve("Burrs.md"), "# Burrs\n\nConical burrs keep retention low.\n");
    data = dir.resolve("data");
    assertThat(brain("add", vault.toString()).code()).isZero();
  }

  @Test
  void dryRunPrintsTheSectionAndWritesNothing() throws Exception {
    Path note = vault.resolve("Grinder.md");
    String before = Files.readString(note);
    Run run = brain("note", "research", note.toString(), "--dry-run");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("## Research\n").contains("[[Burrs]]");
    assertThat(run.err()).contains("dry run, nothing written");
    assertThat(Files.readString(note)).isEqualTo(before);
  }

  @Test
  void theJsonResultCarriesTopicsResearchedAndAPreviewOfTheSection() throws Exception {
    Path note = vault.resolve("Grinder.md");
    Run run = brain("note", "research", note.toString(), "--dry-run", "--json");
    assertThat(run.code()).as(run.err()).isZero();
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.out());
    assertThat(json.path("topics_researched").asInt()).isEqualTo(json.path("topics").size());
    assertThat(json.path("topics_researched").asInt()).isPositive();
    String section = json.path("section").asText();
    assertThat(json.path("preview").asText())
        .startsWith("## Research\n")
        .isEqualTo(section.substring(0, Math.min(500, section.length())));
  }

  @Test
  void writesReindexesAndPrintsTheTrace() throws Exception {
    Path note = Files.writeString(vault.resolve("Retention.md"), "# Retention\n\nBurrs.\n");
    Run run = brain("note", "research", note.toString(), "--json");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out()).contains("\"written\" : true", "\"reindex\" : \"done\"", "\"trace_id\"");
    assertThat(Files.readString(note)).startsWith("# Retention\n\nBurrs.\n\n## Research\n");

    // Its trace reads as a note's research: never "(unreadable)", never "stopped before synthesis".
    var matcher = java.util.regex.Pattern.compile("\"trace_id\" : \"([^\"]+)\"").matcher(run.out());
    assertThat(matcher.find()).as(run.out()).isTrue();
    String id = matcher.group(1);
    Run list = brain("trace", "list");
    assertThat(list.out()).contains(id).contains("note_research").doesNotContain("(unreadable)");
    Run show = brain("trace", "show", id);
    assertThat(show.code()).as(show.err()).isZero();
    assertThat(show.out())
        .contains("A note's research", "research-section.md")
        .doesNotContain("stopped before synthesis");
  }

  @Test
  void aHandWrittenSectionIsKeptUnlessReplaceIsGiven() throws Exception {
    String mine = "# Conical\n\nBurrs.\n\n## Research\n\nMy reading.\n\n### My subsection\n";
    Path note = Files.writeString(vault.resolve("Conical.md"), mine);
    Run run = brain("note", "research", note.toString());
    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_ERROR);
    assertThat(run.err())
        .startsWith("brain: ")
        .contains("brain did not write", "My reading. / ### My subsection", "--replace")
        .doesNotContain("Exception");
    assertThat(Files.readString(note)).isEqualTo(mine);
    run = brain("note", "research", note.toString(), "--replace");
    assertThat(run.code()).as(run.err()).isZero();
    assertThat(Files.readString(note))
        .startsWith("# Conical\n\nBurrs.\n\n## Research\n<!-- brain:research v1 sha256=")
        .doesNotContain("My subsection");
  }

  @Test
  void refusalsAreOneLineErrors() throws Exception {
    Path binary = Files.write(vault.resolve("photo.md"), new byte[] {(byte) 0xff, 0, 1});
    Run run = brain("note", "research", binary.toString());
    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_ERROR);
    assertThat(run.err())
        .startsWith("brain: ")
        .contains("looks binary")
        .doesNotContain("Exception");
    run = brain("note", "research", vault.resolve("Grinder.md").toString(), "--depth", "very");
    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_USAGE);
    assertThat(run.err()).contains("depth must be 'shallow' or 'deep'");
  }
}
