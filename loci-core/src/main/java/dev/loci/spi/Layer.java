package dev.loci.spi;

import java.util.List;

/**
 * A memory layer's contribution to the engine: the projection its events build. The engine calls
 * {@link #prepare} and runs its result with exclusive access and the other methods under shared
 * access, so implementations need no locking of their own.
 *
 * <p>Apply must be deterministic: the same entries in the same order build the same state, which is
 * what lets the journal rebuild every projection.
 */
public interface Layer {

  /** The layer's name, which is also the first label of its event types. */
  String name();

  /** The version of the records {@link #capture()} produces. */
  int snapshotVersion();

  /**
   * Checks that this layer's events of one committed batch apply to the current state, and returns
   * the change that applies them. Preparing must not change state; running the returned change must
   * not fail. This two-step form is what makes a batch apply all or nothing, across layers.
   *
   * @param entry the committed batch
   * @param events the batch's events of this layer, in batch order
   * @throws IllegalStateException if the events cannot apply (possible only when replaying a
   *     journal with skipped lines)
   */
  Runnable prepare(JournalEntry entry, List<Event> events);

  /**
   * Captures the current state for a snapshot, one JSON text per record. Called under shared
   * access; the returned iterable is consumed later, without access, so it must hold only immutable
   * values.
   */
  Iterable<String> capture();

  /**
   * Restores one record written by {@link #capture()} of snapshot format {@code version}.
   *
   * @throws IllegalArgumentException if the record cannot be read
   */
  void restore(String record, int version);

  /** Forgets all state, before a restore or a replay from the start. */
  void clear();
}
