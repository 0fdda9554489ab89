package dev.brain.index;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A child process for the crash tests: syncs a corpus and prints one line per commit ({@code
 * committed N}) and one when the lexical half is committed ({@code lexical N}), so the parent can
 * kill it (SIGKILL) once a commit is on disk, before or during embedding.
 *
 * <p>Arguments: data directory, corpus folder, commit interval in milliseconds.
 */
public final class SyncChild {
  private SyncChild() {}

  public static void main(String[] args) throws Exception {
    var config =
        IndexConfig.defaults(Path.of(args[0]))
            .withCommitInterval(Duration.ofMillis(Long.parseLong(args[2])))
            .withEmbedBatchSize(16);
    try (var index = BrainIndex.open(config)) {
      System.out.println("opened");
      System.out.flush();
      var listener =
          new SyncListener() {
            @Override
            public void lexicalCommitted(int recordsWritten) {
              System.out.println("lexical " + recordsWritten);
              System.out.flush();
            }

            @Override
            public void committed(int recordsWritten) {
              System.out.println("committed " + recordsWritten);
              System.out.flush();
            }
          };
      SyncReport report = index.sync(List.of(Path.of(args[1])), listener);
      System.out.println("done " + report.added());
    }
  }
}
