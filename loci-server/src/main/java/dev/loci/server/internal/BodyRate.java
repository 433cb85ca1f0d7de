package dev.loci.server.internal;

import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The minimum body rate ({@code limits.body_min_bytes_per_second}), measured over the time the
 * server waited for the body's bytes: the time spent inside reads of the body, not the time since
 * its first byte. A busy server that gets to a body late, or pauses between reads (a full thread
 * pool, a garbage collection), finds the bytes already buffered and its reads return at once, so
 * that time is not held against the client; a client that dribbles keeps every read waiting.
 *
 * <p>A body is judged once the reads have waited {@link #GRACE_NANOS} in all, so a small body that
 * took a few milliseconds of network time never trips the check; from then on it must have
 * delivered at least {@code minimum} bytes per second waited. The reads of one body may wait {@code
 * limits.body_wait_ms} in all, however fast the bytes come: with the minimum rate, that bounds the
 * time any body takes. A body that stops altogether is left to {@code limits.body_idle_ms}. One per
 * body read; not thread-safe.
 */
final class BodyRate {
  /**
   * The two limits.
   *
   * @param minBytesPerSecond {@code body_min_bytes_per_second}, 0 for none
   * @param maxWaitMillis {@code body_wait_ms}, 0 for none
   */
  record Limits(long minBytesPerSecond, long maxWaitMillis) {}

  /** How long the reads of one body may wait before its rate is judged: one second. */
  static final long GRACE_NANOS = 1_000_000_000L;

  private final long minimum;
  private final long maxWaitNanos;
  private final LongSupplier clock;
  private long waitedNanos;
  private long bytes;

  /** The rate and wait of {@code limits}, timed by {@code clock} (nanoseconds). */
  BodyRate(Limits limits, LongSupplier clock) {
    this.minimum = limits.minBytesPerSecond();
    this.maxWaitNanos = limits.maxWaitMillis() * 1_000_000;
    this.clock = clock;
  }

  /** The time a read starts, for {@link #read}. */
  long start() {
    return minimum > 0 || maxWaitNanos > 0 ? clock.getAsLong() : 0;
  }

  /**
   * Records a read that began at {@code startNanos} and returned {@code n} bytes.
   *
   * @throws dev.loci.server.spi.HttpProblem 408 {@code body-timeout} once the body has waited past
   *     the grace and delivered fewer bytes than the minimum rate over the time waited, or has
   *     waited longer than the wait limit
   */
  void read(long startNanos, long n) {
    if (minimum <= 0 && maxWaitNanos <= 0) {
      return;
    }
    waitedNanos += Math.max(0, clock.getAsLong() - startNanos);
    bytes += n;
    if (maxWaitNanos > 0 && waitedNanos > maxWaitNanos) {
      throw new dev.loci.server.spi.HttpProblem(
          408,
          "body-timeout",
          "Body timeout",
          "body: the body kept the server waiting longer than limits.body_wait_ms ("
              + maxWaitNanos / 1_000_000
              + " ms; "
              + bytes
              + " bytes arrived)",
          Optional.of("body"));
    }
    if (minimum > 0 && waitedNanos >= GRACE_NANOS && bytes < (double) minimum * waitedNanos / 1e9) {
      throw new dev.loci.server.spi.HttpProblem(
          408,
          "body-timeout",
          "Body timeout",
          "body: the body arrived slower than limits.body_min_bytes_per_second ("
              + bytes
              + " bytes in "
              + waitedNanos / 1_000_000
              + " ms of waiting, at least "
              + minimum
              + " bytes/s expected)",
          Optional.of("body"));
    }
  }
}
