package dev.brain.index;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.function.LongSupplier;

/**
 * Whether the entries of a folder may have changed since the last look, from the folder's
 * modification time: a Lucene commit creates and renames files in the index folder, which sets that
 * time, so a read-only index that finds it unchanged need not list the folder and read the latest
 * {@code segments_N} to learn that no commit came (what a {@code brain serve} did before every
 * request).
 *
 * <p>A time is trusted only once it is older than {@link #QUIET_MILLIS} at the look that recorded
 * it: file times are coarse (a tick of the kernel's clock, a second on some file systems), so a
 * change in the same tick as the recorded time could leave it as it was; a change after a look that
 * began {@link #QUIET_MILLIS} later than the recorded time cannot. However the folder looks, a full
 * look is due {@link #MAX_TRUST_MILLIS} after the last, for file systems that cache times. Thread-
 * safe.
 */
final class DirectoryChanges {

  /** How much older than the look the folder's time must be before it is trusted. */
  static final long QUIET_MILLIS = 2_000;

  /** How long an unchanged time is trusted at most before the folder is looked at in full. */
  static final long MAX_TRUST_MILLIS = 1_000;

  private final Path folder;
  private final LongSupplier clock;
  private FileTime recorded; // null: nothing trusted
  private long recordedAt;

  DirectoryChanges(Path folder) {
    this(folder, System::currentTimeMillis);
  }

  /** With a clock of its own (milliseconds since the epoch, as file times): for tests. */
  DirectoryChanges(Path folder, LongSupplier clock) {
    this.folder = folder;
    this.clock = clock;
  }

  /**
   * A look at the folder before a full check of its contents: whether they may have changed since
   * the last full check that {@linkplain Look#checked() completed}.
   */
  synchronized Look look() {
    long now = clock.getAsLong();
    FileTime time;
    try {
      time = Files.getLastModifiedTime(folder);
    } catch (IOException e) {
      return new Look(null, now, true); // the full check says what is wrong
    }
    boolean unchanged =
        recorded != null && recorded.equals(time) && now - recordedAt < MAX_TRUST_MILLIS;
    return new Look(time, now, !unchanged);
  }

  /** What one look found. */
  final class Look {
    private final FileTime time;
    private final long at;
    private final boolean mayHaveChanged;

    private Look(FileTime time, long at, boolean mayHaveChanged) {
      this.time = time;
      this.at = at;
      this.mayHaveChanged = mayHaveChanged;
    }

    /** Whether the folder's entries may have changed since the last completed full check. */
    boolean mayHaveChanged() {
      return mayHaveChanged;
    }

    /**
     * Records that a full check begun after this look completed: until the folder's time moves (and
     * for at most {@link #MAX_TRUST_MILLIS}), later looks find it unchanged, if the time was older
     * than {@link #QUIET_MILLIS} at this look.
     */
    void checked() {
      synchronized (DirectoryChanges.this) {
        // A time as recent as the check could still move within its tick: not trusted yet.
        if (time != null && time.toMillis() <= at - QUIET_MILLIS && at >= recordedAt) {
          recorded = time;
          recordedAt = at;
        }
      }
    }
  }
}
