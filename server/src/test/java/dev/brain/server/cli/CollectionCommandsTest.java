package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** brain add / collections / remove / index / status, and the bad input each refuses. */
class CollectionCommandsTest {

  @TempDir Path tmp;

  private String data;
  private Path work;
  private Path home;

  record Run(int code, String out, String err) {}

  private Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    var all = new String[args.length + 2];
    all[0] = "--data";
    all[1] = data;
    System.arraycopy(args, 0, all, 2, args.length);
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), all);
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeEach
  void folders() throws Exception {
    data = tmp.resolve("data").toString();
    work = Files.createDirectories(tmp.resolve("work"));
    home = Files.createDirectories(tmp.resolve("home"));
    Files.writeString(work.resolve("README.md"), "# Work\n\nThe quarterly roadmap.\n");
    Files.writeString(home.resolve("README.md"), "# Home\n\nThe garden roadmap.\n");
  }

  @Test
  void addListStatusAndRemoveCollectionsWithTheSameRelativePath() throws Exception {
    Run add = brain("add", work.toString(), "--no-progress");
    assertThat(add.code()).as(add.err()).isZero();
    assertThat(add.out()).contains("added collection 'work'", "1 added");
    Run index = brain("index", home.toString(), "--no-progress");
    assertThat(index.code()).as(index.err()).isZero();
    assertThat(index.out()).contains("added collection 'home'", "1 added");

    assertThat(brain("collections").out()).contains("work  " + work, "home  " + home);
    assertThat(brain("config").out())
        .containsPattern("collections\\.work +" + java.util.regex.Pattern.quote(work.toString()))
        .containsPattern("collections\\.home +" + java.util.regex.Pattern.quote(home.toString()))
        .contains("brain.yaml line");
    assertThat(brain("get", "note:work/README.md").out()).contains("quarterly roadmap");
    assertThat(brain("get", "note:home/README.md").out()).contains("garden roadmap");
    assertThat(brain("search", "roadmap", "--no-semantic").out())
        .contains("note:work/README.md", "note:home/README.md");

    Run status = brain("status", "--json");
    assertThat(status.code()).as(status.err()).isZero();
    JsonNode json = PrettyJson.MAPPER.readTree(status.out());
    assertThat(json.path("collections")).hasSize(2);
    assertThat(json.at("/collections/0/name").asText()).isEqualTo("work");
    assertThat(json.at("/collections/0/records").asLong()).isEqualTo(1);
    assertThat(json.at("/collections/0/vector_coverage").asDouble()).isEqualTo(1.0);
    assertThat(json.at("/collections/0/last_sync_at").isTextual()).isTrue();
    assertThat(brain("status").out()).contains("work  " + work, "vector: 100% of chunks");

    Run remove = brain("remove", "work");
    assertThat(remove.code()).as(remove.err()).isZero();
    assertThat(remove.out()).contains("removed collection 'work'", "1 records");
    assertThat(brain("get", "note:work/README.md").code()).isEqualTo(1);
    assertThat(brain("get", "note:home/README.md").out()).contains("garden roadmap");
    assertThat(brain("collections").out()).doesNotContain("work").contains("home");

    Run again = brain("index", "--no-progress");
    assertThat(again.code()).as(again.err()).isZero();
    assertThat(again.out()).contains("1 unchanged");
  }

  @Test
  void badInputIsRefusedWithAClearMessageAndExitCodeAndLosesNothing() throws Exception {
    assertThat(brain("add", work.toString(), "--no-progress").code()).isZero();
    String before = Files.readString(Path.of(data, "brain.yaml"));

    assertRefused(brain("add", tmp.resolve("missing").toString()), "no such folder");
    assertRefused(brain("add", work.resolve("README.md").toString()), "is a file, not a folder");
    assertRefused(brain("add", home.toString(), "--name", "work"), "named 'work' already exists");
    Path inner = Files.createDirectories(work.resolve("inner"));
    assertRefused(brain("add", inner.toString()), "lies inside the collection 'work'");
    assertRefused(brain("add", tmp.toString()), "holds the collection 'work'");
    assertRefused(brain("remove", "nope"), "no collection named 'nope'");
    assertRefused(brain("add", home.toString(), "--name", "a/b"), "invalid collection name");

    assertThat(Files.readString(Path.of(data, "brain.yaml"))).isEqualTo(before);
    assertThat(brain("get", "note:work/README.md").out()).contains("quarterly roadmap");
  }

  @Test
  void anUnreadableFileFailsTheSyncWithItsReasonAndKeepsEverythingElse() throws Exception {
    assertThat(brain("add", work.toString(), "--no-progress").code()).isZero();
    Path broken = Files.writeString(work.resolve("broken.pdf"), "%PDF-1.7\nnot really a pdf\n");
    Path locked = Files.writeString(work.resolve("locked.md"), "# Locked\n");
    locked.toFile().setReadable(false, false); // has no effect for root: then broken.pdf alone

    Run index = brain("index", "--no-progress");

    assertThat(index.code()).isEqualTo(BrainCommand.EXIT_ERROR);
    assertThat(index.out()).contains("FAILED  " + broken);
    if (!Files.isReadable(locked)) {
      assertThat(index.out()).contains("FAILED  " + locked);
    }
    assertThat(brain("get", "note:work/README.md").out()).contains("quarterly roadmap");
    Run status = brain("status");
    assertThat(status.out()).contains("failed", broken.toString());
  }

  @Test
  void indexWithoutCollectionsSaysHowToAddOne() {
    assertRefused(brain("index"), "brain add PATH");
  }

  private static void assertRefused(Run run, String message) {
    assertThat(run.code()).as(run.out() + run.err()).isEqualTo(BrainCommand.EXIT_USAGE);
    assertThat(run.err()).contains(message);
  }
}
