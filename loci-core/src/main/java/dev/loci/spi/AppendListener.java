package dev.loci.spi;

/**
 * Told how long the journal took to take each group of batches: from the first append of a group
 * until the group was as durable as the policy promises (under {@code always}, one fsync for the
 * whole group). Used for metrics.
 *
 * <p>Called on the thread that writes, while other writers wait: implementations must be fast,
 * thread-safe and must not throw.
 */
@FunctionalInterface
public interface AppendListener {
  /** Does nothing. */
  AppendListener NONE = (batches, nanos) -> {};

  /**
   * A group of {@code batches} batches was appended and made durable in {@code nanos}.
   *
   * @param batches how many batches the group held, at least 1
   * @param nanos the elapsed time in nanoseconds
   */
  void appended(int batches, long nanos);
}
