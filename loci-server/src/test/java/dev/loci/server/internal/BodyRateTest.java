package dev.loci.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.server.spi.HttpProblem;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The minimum body rate counts the time reads waited for bytes, after a one-second grace; the wait
 * limit bounds that time in all.
 */
class BodyRateTest {
  private static final long MS = 1_000_000L;

  private final AtomicLong now = new AtomicLong();

  /** One read that waits {@code waitMs} and returns {@code n} bytes. */
  private void read(BodyRate rate, long waitMs, long n) {
    long t0 = rate.start();
    now.addAndGet(waitMs * MS);
    rate.read(t0, n);
  }

  @Test
  void pausesBetweenReads_areNotHeldAgainstTheClient() {
    BodyRate rate = new BodyRate(new BodyRate.Limits(1_024, 0), now::get);
    for (int i = 0; i < 100; i++) {
      now.addAndGet(5_000 * MS); // the server is busy elsewhere for 5 s
      read(rate, 0, 10); // the bytes were already buffered
    }
  }

  @Test
  void smallBody_waitedUnderTheGrace_passesWhateverItsRate() {
    BodyRate rate = new BodyRate(new BodyRate.Limits(1_024, 0), now::get);
    read(rate, 999, 1);
  }

  @Test
  void dribblingClient_atTheMinimum_passes_andBelowIt_is408AfterTheGrace() {
    BodyRate exact = new BodyRate(new BodyRate.Limits(1_000, 0), now::get);
    for (int i = 0; i < 10; i++) {
      read(exact, 1_000, 1_000);
    }
    BodyRate slow = new BodyRate(new BodyRate.Limits(1_000, 0), now::get);
    read(slow, 500, 499);
    assertThatThrownBy(() -> read(slow, 500, 499))
        .isInstanceOfSatisfying(
            HttpProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(408);
              assertThat(p.detail()).contains("body_min_bytes_per_second", "998 bytes in 1000 ms");
            });
  }

  @Test
  void noMinimum_neverRefuses() {
    BodyRate rate = new BodyRate(new BodyRate.Limits(0, 0), now::get);
    read(rate, 3_600_000, 0);
  }

  @Test
  void waitLimit_reached_passes_andOnePast_is408NamingTheLimit() {
    BodyRate at = new BodyRate(new BodyRate.Limits(1_000, 5_000), now::get);
    for (int i = 0; i < 5; i++) {
      read(at, 1_000, 10_000); // fast enough, all the time the limit allows
    }
    BodyRate past = new BodyRate(new BodyRate.Limits(1_000, 5_000), now::get);
    for (int i = 0; i < 5; i++) {
      read(past, 1_000, 10_000);
    }
    assertThatThrownBy(() -> read(past, 1, 10_000))
        .isInstanceOfSatisfying(
            HttpProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(408);
              assertThat(p.detail()).contains("body_wait_ms", "5000 ms");
            });
  }
}
