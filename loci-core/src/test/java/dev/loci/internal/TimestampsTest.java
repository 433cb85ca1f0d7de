package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class TimestampsTest {
  @Test
  void format_microPrecision_alwaysSixDigits() {
    assertThat(Timestamps.format(Instant.parse("2026-11-22T10:00:00Z")))
        .isEqualTo("2026-11-22T10:00:00.000000Z");
    assertThat(Timestamps.format(Instant.parse("2026-11-22T10:00:00.1234Z")))
        .isEqualTo("2026-11-22T10:00:00.123400Z");
  }

  @Test
  void format_instantsSharingACacheSlot_eachGetsItsOwnText() {
    Instant a = Instant.parse("2026-11-26T12:00:00.000001Z");
    Instant b = a.plusNanos(64_000); // 64 microseconds later: the same slot of the recent cache
    Instant c = a.plusNanos(500); // differs from a below the microsecond only
    for (int i = 0; i < 3; i++) {
      assertThat(Timestamps.format(a)).isEqualTo("2026-11-26T12:00:00.000001Z");
      assertThat(Timestamps.format(b)).isEqualTo("2026-11-26T12:00:00.000065Z");
      assertThat(Timestamps.format(c)).isEqualTo("2026-11-26T12:00:00.000001500Z");
    }
  }

  @Test
  void format_subMicroDigits_keptWithNine() {
    Instant t = Instant.ofEpochSecond(1764000000L, 123456789);
    assertThat(Timestamps.format(t)).isEqualTo("2025-11-24T16:00:00.123456789Z");
    assertThat(Timestamps.parse(Timestamps.format(t))).isEqualTo(t);
  }

  @RepeatedTest(5)
  void parse_formatted_roundTrips() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    for (int i = 0; i < 10_000; i++) {
      Instant t =
          Timestamps.truncate(
              Instant.ofEpochSecond(r.nextInt(Integer.MAX_VALUE) * 2L, r.nextInt(1_000_000_000)));
      assertThat(Timestamps.parse(Timestamps.format(t))).as("seed %d", seed).isEqualTo(t);
    }
  }
}
