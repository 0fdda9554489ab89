package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.importer.Keys;
import dev.brain.server.http.TwoCollectionsData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brain get} over two real collections: links show the record they reach, unresolved ones
 * what the note names and why, and a path or title that is no key gets the key it means.
 */
class GetLinksCommandTest {
  @TempDir static Path dir;
  static String data;

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void sync() throws Exception {
    data = TwoCollectionsData.create(dir).toString();
  }

  private static Run brain(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    var all = new String[args.length + 3];
    all[0] = "--data";
    all[1] = data;
    System.arraycopy(args, 0, all, 2, args.length);
    all[all.length - 1] = "--local";
    int code = BrainCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), all);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void aWikilinkToANoteOfAnotherCollectionShowsThatNoteAndAMissingOneSaysSo() {
    var run = brain("get", "note:papers/Raft.md");

    assertThat(run.code()).as(run.err()).isZero();
    assertThat(run.out())
        .contains("  title:       Raft\n")
        .contains("  links:       note:notes/Kafka migration.md\n")
        .contains("  unresolved:  [[Lost note]] (no note of this name in any collection)\n")
        .contains(
            "  unresolved:  https://raft.github.io/raft.pdf (no saved page, bookmark or feed entry"
                + " of this address in the index)\n");
    assertThat(brain("get", "note:notes/Kafka migration.md").out())
        .contains("  backlinks:   note:papers/Raft.md\n");
  }

  @Test
  void aWebLinkShowsTheBookmarkOfItsAddress() {
    var run = brain("get", "note:notes/V60 recipe.md");

    assertThat(run.out())
        .contains("  links:       " + Keys.bookmark(TwoCollectionsData.HOFFMANN) + "\n")
        .doesNotContain("src:");
  }

  @Test
  void aPathOrTitleThatIsNoKeySaysWhichKeyItMeans() {
    var byPath = brain("get", "home/Apartment lease.md");
    var byTitle = brain("get", "Kafka migration");

    assertThat(byPath.code()).isEqualTo(1);
    assertThat(byPath.err())
        .isEqualTo(
            "brain: no record with key 'home/Apartment lease.md'; did you mean"
                + " note:notes/home/Apartment lease.md?\n");
    assertThat(byTitle.err()).contains("did you mean note:notes/Kafka migration.md?");
  }
}
