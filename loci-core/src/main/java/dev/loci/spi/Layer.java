package dev.loci.spi;

import java.nio.file.Path;
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

  /**
   * Restores one record as {@link #restore(String, int)} does, from {@code len} UTF-8 bytes of
   * {@code buf} at {@code off}, which are valid only during the call: a layer that parses bytes
   * directly overrides this to spare the copy into a string. By default decodes the string.
   *
   * @throws IllegalArgumentException if the record cannot be read
   */
  default void restore(byte[] buf, int off, int len, int version) {
    restore(new String(buf, off, len, java.nio.charset.StandardCharsets.UTF_8), version);
  }

  /** Forgets all state, before a restore or a replay from the start. */
  void clear();

  /**
   * Called once, before recovery, when the engine runs over a data directory: the layer may keep
   * derived, rebuildable files (indexes) of its own under {@code dataDir/index/<name>}. Layers of
   * an engine without a data directory are never told one. By default does nothing.
   */
  default void attach(Path dataDir) {}

  /**
   * Called once, with exclusive access, when recovery (snapshot restore and journal replay) is
   * done: the state reflects every batch through {@code appliedSeq}, the engine's applied sequence
   * (batches of other layers included). By default does nothing.
   */
  default void recovered(long appliedSeq) {}

  /**
   * Called with exclusive access after each group of batches is applied, with the engine's applied
   * sequence, whether or not the batches held events of this layer. Keep it short: readers wait
   * meanwhile (put slow work in {@link #settle}). Must not fail. By default does nothing.
   */
  default void applied(long appliedSeq) {}

  /**
   * Called with shared access after batches were applied, before the command that wrote them
   * returns to its caller (by the caller's own thread, so while the engine already writes the next
   * round), and after a catch-up applied batches others wrote: the moment for work that follows an
   * apply but need not hold readers off, such as updating a Lucene index of what the apply changed.
   * May run on several threads at once, and concurrently with a command's decision; whatever a
   * reader must see of the applied state it must also bring about itself before answering, since a
   * read may come between the apply and this call. Must not fail. By default does nothing.
   */
  default void settle() {}

  /**
   * Called with shared access when writes were stopped by a storage failure (a full disk) and an
   * operator or the engine resumes them: the moment to repair what the failure broke (an index
   * whose writer Lucene closed) instead of waiting for a later attempt. Must not fail. By default
   * does nothing.
   */
  default void resumed() {}

  /**
   * Called once when the instance over this layer's engine is open and ready for commands, outside
   * any lock: the layer may finish work an earlier process left half done (an erasure interrupted
   * by a crash). By default does nothing.
   */
  default void started(dev.loci.Loci loci) {}

  /**
   * Called once when the engine closes, after the last batch was applied, with exclusive access;
   * {@code appliedSeq} is what the state reflects. Releases files. A negative {@code appliedSeq}
   * means the open failed: release files without recording anything. By default does nothing.
   */
  default void close(long appliedSeq) {}
}
