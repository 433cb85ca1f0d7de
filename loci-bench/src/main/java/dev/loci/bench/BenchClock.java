package dev.loci.bench;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A UTC clock that stands still until a benchmark moves it, so lifecycle decay in a run depends on
 * the run's steps, not on how long they took. Thread-safe.
 */
final class BenchClock extends Clock {
  private volatile Instant now;

  BenchClock(Instant start) {
    this.now = start;
  }

  /** Moves the clock forward by {@code d}. */
  void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a benchmark clock is UTC");
  }

  @Override
  public Instant instant() {
    return now;
  }
}
