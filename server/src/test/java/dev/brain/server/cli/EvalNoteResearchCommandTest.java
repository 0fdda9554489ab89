package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code brain eval note-research} on a small vault and a second folder beside it. */
class EvalNoteResearchCommandTest {

  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    var all = new String[args.length + 2];
    all[0] = "--data";
    all[1] = dir.resolve("data").toString();
    System.arraycopy(args, 0, all, 2, args.length);
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), all);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void scoresEveryNoteOnACopyAndNeverWritesTheVault() throws Exception {
    Path vault = Files.createDirectories(dir.resolve("vault"));
    Files.writeString(
        vault.resolve("Grinder.md"), "# Grinder\n\nConical burrs, see [[Burrs]] and [[Raft]].\n");
    Files.writeString(vault.resolve("Burrs.md"), "# Burrs\n\nConical burrs keep retention low.\n");
    Path papers = Files.createDirectories(dir.resolve("papers"));
    Files.writeString(papers.resolve("Raft.md"), "# Raft\n\nRaft elects a leader with burrs.\n");
    String grinder = Files.readString(vault.resolve("Grinder.md"));

    Run run = brain("eval", "note-research", vault.toString(), "--with", papers.toString());

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("Burrs.md: ", "Grinder.md: ")
        .contains("2 notes (0 failed)")
        .contains("0 duplicate sources")
        .contains("0 filler lines")
        .contains("2 of 2 sections stable");
    assertThat(run.err()).contains("report: ");
    assertThat(Files.readString(vault.resolve("Grinder.md"))).isEqualTo(grinder);
    try (Stream<Path> reports = Files.list(dir.resolve("data/eval-reports"))) {
      Path report = reports.findFirst().orElseThrow();
      assertThat(Files.readString(report))
          .contains("\"schema_version\" : \"note_research_eval.v1\"", "## Research");
    }
  }

  @Test
  void aVaultThatIsNoFolderIsAUsageError() {
    Run run = brain("eval", "note-research", dir.resolve("nowhere").toString());
    assertThat(run.code()).isEqualTo(BrainCommand.EXIT_USAGE);
    assertThat(run.err()).contains("not a folder: ").doesNotContain("Exception");
  }
}
