package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The time budget of one fuzz input: a fixed allowance plus a generous per-byte rate, so a parser
 * that goes quadratic on a few kilobytes fails while a slow machine or a JIT pause does not.
 */
public final class FuzzBudget {
  /** Fixed allowance per input, for JIT, GC and class loading. */
  public static final long BASE_NANOS = 2_000_000_000L;

  /** Allowance per input byte: 100 µs, about a thousand times what a linear parser needs. */
  public static final long NANOS_PER_BYTE = 100_000L;

  private FuzzBudget() {}

  /** Fails if the time since {@code startNanos} exceeds the budget for {@code inputBytes}. */
  public static void assertLinear(long startNanos, long inputBytes) {
    long elapsed = System.nanoTime() - startNanos;
    assertThat(elapsed)
        .as(
            "time for a %d-byte input (budget %d ns + %d ns/byte)",
            inputBytes, BASE_NANOS, NANOS_PER_BYTE)
        .isLessThanOrEqualTo(BASE_NANOS + NANOS_PER_BYTE * inputBytes);
  }
}
