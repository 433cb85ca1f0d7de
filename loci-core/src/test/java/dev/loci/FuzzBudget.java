package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The time budget of one fuzz input: a fixed allowance plus a generous per-byte rate, so a parser
 * that goes quadratic on a few kilobytes fails while a slow machine or a JIT pause does not. Time
 * is the fuzzing thread's CPU time, so a machine loaded by other work (a build beside the tests) or
 * a wait for the disk does not count against the input.
 */
public final class FuzzBudget {
  /** Fixed allowance per input, for JIT, GC and class loading. */
  public static final long BASE_NANOS = 2_000_000_000L;

  /** Allowance per input byte: 100 µs, about a thousand times what a linear parser needs. */
  public static final long NANOS_PER_BYTE = 100_000L;

  private FuzzBudget() {}

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  /** The current thread's CPU time, to pass to {@link #assertLinear} once the input is handled. */
  public static long start() {
    return THREADS.getCurrentThreadCpuTime();
  }

  /** Fails if the CPU time since {@link #start} exceeds the budget for {@code inputBytes}. */
  public static void assertLinear(long start, long inputBytes) {
    long elapsed = THREADS.getCurrentThreadCpuTime() - start;
    assertThat(elapsed)
        .as(
            "time for a %d-byte input (budget %d ns + %d ns/byte)",
            inputBytes, BASE_NANOS, NANOS_PER_BYTE)
        .isLessThanOrEqualTo(BASE_NANOS + NANOS_PER_BYTE * inputBytes);
  }
}
