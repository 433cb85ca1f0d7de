package dev.loci.spi;

/**
 * A write: reads current state and decides which events to append.
 *
 * @param <R> what the command returns to its caller
 */
@FunctionalInterface
public interface Command<R> {
  /**
   * Decides against current state. Runs with shared access to the projections and must not change
   * them.
   *
   * @throws dev.loci.LociException if the command is invalid for the current state; nothing is
   *     written
   */
  Decision<R> decide(CommandContext context);
}
