package dev.brain.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PaddingTest {

  // A sync's order: each abstract's full chunk, then its short tail.
  private final List<Integer> lengths = List.of(258, 40, 258, 100, 258, 20, 258, 60);

  @Test
  void bucketingPadsEachBatchOnlyToItsOwnLongestPassage() {
    // sorted: 258 258 258 258 | 100 60 40 20
    assertThat(Padding.bucketed(lengths, 4, 8192)).isEqualTo(4 * 258 + 4 * 100);
  }

  @Test
  void inputOrderWindowsPadEveryShortPassageToTheLongOne() {
    assertThat(Padding.unbucketed(lengths, 4, 8192)).isEqualTo(8 * 258);
  }

  @Test
  void batchSizeOneNeverPads() {
    long real = lengths.stream().mapToLong(Integer::longValue).sum();

    assertThat(Padding.bucketed(lengths, 1, 8192)).isEqualTo(real);
    assertThat(Padding.unbucketed(lengths, 1, 8192)).isEqualTo(real);
  }

  @Test
  void theTokenBudgetCapsRowsPerBatch() {
    // 600 padded tokens allow two rows of 258: batches 258 258 | 258 258 | 100 60 40 20 (4 x 100)
    assertThat(Padding.bucketed(lengths, 8, 600)).isEqualTo(4 * 258 + 4 * 100);
  }
}
