package dev.loci.spi;

import dev.loci.Namespace;
import java.util.function.Supplier;

/**
 * The engine as a layer's facade sees it: commands in, consistent reads out. Thread-safe.
 *
 * <p>A command is decided against current state, its events are appended as one batch, made
 * durable, and applied to every layer before {@link #execute} returns. Reads see only durable,
 * applied state.
 */
public interface CommandExecutor {
  /**
   * Runs a command in {@code namespace}, recording {@code actor} as its author.
   *
   * @throws dev.loci.LociException what the command throws when invalid, or {@link
   *     dev.loci.StorageException} if the journal fails; in either case nothing has changed
   */
  <R> R execute(Namespace namespace, String actor, Command<R> command);

  /** Runs {@code read} with shared access to the projections, so it sees no half-applied batch. */
  <R> R read(Supplier<R> read);
}
