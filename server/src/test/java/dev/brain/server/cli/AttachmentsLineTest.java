package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.brain.index.AttachmentCounts;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one line about a sync's attachments: the most frequent types named, the rest summed. */
class AttachmentsLineTest {

  @Test
  void theMostFrequentTypesComeFirstAndTheRestAreSummed() {
    var counts =
        new AttachmentCounts(
            Map.of("png", 290, "mp4", 22, "jpg", 7, "zip", 3, "ttf", 2, "gif", 1, "mov", 1));
    assertThat(SyncSummary.attachments(counts))
        .isEqualTo(
            "326 attachments skipped: 290 .png, 22 .mp4, 7 .jpg, 3 .zip, 4 more of 3 other types");
  }

  @Test
  void aSingleTypeBeyondTheLimitIsNamedNotSummed() {
    var counts = new AttachmentCounts(Map.of("png", 5, "jpg", 4, "mp4", 3, "zip", 2, "ttf", 1));
    assertThat(SyncSummary.attachments(counts))
        .isEqualTo("15 attachments skipped: 5 .png, 4 .jpg, 3 .mp4, 2 .zip, 1 .ttf");
    assertThat(SyncSummary.attachments(new AttachmentCounts(Map.of("png", 1))))
        .isEqualTo("1 attachment skipped: 1 .png");
  }
}
