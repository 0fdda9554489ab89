package dev.brain.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Times in text output read as a person writes them: to the second, in UTC, with their age. */
class HumanTimeTest {

  private static final Instant NOW = Instant.parse("2026-11-28T19:33:00Z");

  @Test
  void aSyncTimeDropsTheNanosecondsAndSaysHowLongAgo() {
    assertThat(HumanTime.of(Instant.parse("2026-11-28T19:29:54.548260100Z"), NOW))
        .isEqualTo("2026-11-28 19:29:54 UTC (3 min ago)");
  }

  @Test
  void theAgeIsInTheLargestWholeUnitUpToDays() {
    assertThat(HumanTime.relative(Duration.ofSeconds(20))).isEqualTo("just now");
    assertThat(HumanTime.relative(Duration.ofMinutes(59))).isEqualTo("59 min ago");
    assertThat(HumanTime.relative(Duration.ofHours(5))).isEqualTo("5 h ago");
    assertThat(HumanTime.relative(Duration.ofHours(47))).isEqualTo("47 h ago");
    assertThat(HumanTime.relative(Duration.ofDays(3))).isEqualTo("3 days ago");
  }

  @Test
  void aTimeStillToComeSaysHowSoon() {
    assertThat(HumanTime.of(NOW.plus(Duration.ofMinutes(10)), NOW))
        .isEqualTo("2026-11-28 19:43:00 UTC (in 10 min)");
    assertThat(HumanTime.relative(Duration.ofSeconds(-5))).isEqualTo("in under a minute");
  }
}
