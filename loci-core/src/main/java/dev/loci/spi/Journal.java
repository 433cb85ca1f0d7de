package dev.loci.spi;

import dev.loci.Damage;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The source of truth: an append-only sequence of atomic batches.
 *
 * <p>Implementations are thread-safe. {@link #append} calls are ordered: each gets the next
 * sequence number in the order the calls are made. Durability is prefix-closed: once {@link
 * Appended#awaitDurable()} returns for a batch, every batch before it is durable too.
 */
public interface Journal extends AutoCloseable {

  /** A batch that has its sequence number and has been written, though maybe not yet durable. */
  interface Appended {
    /**
     * The batch's sequence number. For a batch appended with keys to a journal other writers share
     * ({@link Journal#appendBatches(java.util.List, java.util.List)}) it is final only once {@link
     * #awaitDurable()} returned: the batch may have been numbered after others' batches meanwhile.
     */
    long seq();

    /**
     * Blocks until the batch is as durable as the journal's policy promises.
     *
     * @throws dev.loci.StorageException if the journal failed to make it durable; the batch must
     *     then be treated as lost and the journal as unusable
     */
    void awaitDurable();
  }

  /**
   * Writes a batch after every earlier one.
   *
   * @throws dev.loci.StorageException if the write failed; the batch was not written and its
   *     sequence number is not used
   */
  Appended append(Batch batch);

  /**
   * Writes the leading batches of {@code batches}, at least the first, after every earlier batch
   * and in order, as {@link #append} would one by one; returns one {@link Appended} per batch
   * written, in order. The caller passes the batches not written again (a file journal writes as
   * many as fit in its active segment with one write). If it throws, none of this call's batches
   * was written, unless the exception says their outcome is unknown (a write that failed and could
   * not be cut back; the journal then stops writes). By default appends only the first.
   *
   * @throws IllegalArgumentException if {@code batches} is empty
   * @throws dev.loci.StorageException as {@link #append}
   */
  default java.util.List<Appended> appendBatches(java.util.List<Batch> batches) {
    if (batches.isEmpty()) {
      throw new IllegalArgumentException("batches must hold at least one batch, found none");
    }
    return java.util.List.of(append(batches.get(0)));
  }

  /**
   * Like {@link #appendBatches(java.util.List)}, with the keys each batch's decision depends on or
   * changes ({@link Decision#keys()}, record ids in the batch's namespace), so that a journal other
   * writers share can tell which of their batches the decisions missed. Such a journal may, when
   * others appended since the caller decided (it decided against every batch before the first of
   * these), number these batches after the others' instead of refusing them, provided no batch the
   * others appended meanwhile shares a key with them or has none: {@link Appended#seq()} then gives
   * the new numbers once {@link Appended#awaitDurable()} returned, and the caller applies the
   * batches between its decision and its own before its own. A batch with an empty key set
   * conflicts with every other. {@code keys} holds one set per batch, in order. By default ignores
   * the keys, as a journal only this process writes may.
   *
   * @throws IllegalArgumentException if {@code batches} is empty or {@code keys} does not hold one
   *     set per batch
   * @throws dev.loci.StorageException as {@link #append}
   */
  default java.util.List<Appended> appendBatches(
      java.util.List<Batch> batches, java.util.List<java.util.Set<String>> keys) {
    if (keys.size() != batches.size()) {
      throw new IllegalArgumentException(
          "keys must hold one set per batch: " + batches.size() + " batches, " + keys.size());
    }
    return appendBatches(batches);
  }

  /** Appends a batch and waits for it to be durable; returns its sequence number. */
  default long appendDurably(Batch batch) {
    Appended appended = append(batch);
    appended.awaitDurable();
    return appended.seq();
  }

  /** The sequence number of the last batch written, or 0 if none. */
  long lastSeq();

  /**
   * The last sequence number known to be in a journal that other writers share (a database), so
   * that a reader can tell how far behind it is; empty for a journal only this process writes. By
   * default empty.
   */
  default OptionalLong sharedHead() {
    return OptionalLong.empty();
  }

  /**
   * Why the journal cannot take writes right now, if it cannot (its database is unreachable): reads
   * go on from the last applied state, writes fail with {@link JournalUnavailableException} until
   * it can. By default always empty.
   */
  default java.util.Optional<String> unavailable() {
    return java.util.Optional.empty();
  }

  /**
   * Tries to take writes again after a failure that stopped them, where the journal can do so
   * without losing or reviving a batch whose outcome was reported; returns why writes are still
   * refused, if they are. By default only reports {@link #unavailable()}.
   */
  default java.util.Optional<String> resume() {
    return unavailable();
  }

  /**
   * Reads committed batches with sequence numbers from {@code fromSeq} on, in order. Lines that
   * cannot be read are skipped and passed to {@code damage}.
   */
  void read(long fromSeq, Consumer<JournalEntry> entries, Consumer<Damage> damage);

  /**
   * Like {@link #read(long, Consumer, Consumer)}, passing on only the batches through {@code
   * throughSeq}. By default reads from {@code fromSeq} on and drops the batches after {@code
   * throughSeq}; a journal may read less (a shared one need not wait for batches that others
   * committed after it).
   */
  default void read(
      long fromSeq, long throughSeq, Consumer<JournalEntry> entries, Consumer<Damage> damage) {
    read(
        fromSeq,
        e -> {
          if (e.seq() <= throughSeq) {
            entries.accept(e);
          }
        },
        damage);
  }

  /**
   * Ensures the next batch gets a sequence number above {@code seq}. Used when a snapshot covers
   * more batches than the journal still holds, so that numbers are never reused.
   */
  void advanceTo(long seq);

  /** Makes every batch written so far durable, whatever the policy. */
  void sync();

  /**
   * Starts a new segment so that later batches are stored apart from earlier ones. A no-op for
   * journals without segments.
   */
  void roll();

  /**
   * Deletes stored batches whose sequence numbers are all at most {@code seq}, once a snapshot
   * covers them. Returns how many storage units (segments) were removed.
   */
  int deleteThrough(long seq);

  /**
   * Rewrites stored batches in place, for erasure: every stored batch is passed to {@code scrub},
   * and where it returns events the batch is stored with those instead, keeping its sequence
   * number, time, namespace and actor. Appends wait meanwhile. Each storage unit is replaced
   * atomically and durably, so a crash leaves each one old or new; lines that cannot be read are
   * kept as they are. {@code scrub} must be a pure function: it may be called from several threads
   * at once, one per storage unit.
   *
   * <p>{@code tokens}, when not empty, lets the journal skip decoding: only batches whose stored
   * form holds one of them as a whole JSON string need be passed to {@code scrub} (the ids of the
   * records to erase, which every event that writes them names).
   *
   * @return how many batches were rewritten
   * @throws UnsupportedOperationException if this journal cannot rewrite
   */
  default long rewrite(
      java.util.Set<String> tokens,
      java.util.function.Function<JournalEntry, java.util.Optional<java.util.List<Event>>> scrub) {
    throw new UnsupportedOperationException(
        getClass().getSimpleName()
            + " cannot rewrite stored batches, so records cannot be erased from it (erasure needs"
            + " the file journal)");
  }

  /**
   * Erasure over a journal that other writers share: rewrites stored batches as {@link #rewrite}
   * does and appends one more batch (the record of the erasure), as one atomic step. Every writer's
   * appends (other processes' included) wait from before {@code then} is called until it returns; a
   * failure or crash anywhere leaves every stored batch as it was and appends nothing.
   *
   * <p>{@code then} is called once, first, with the sequence number of the last batch stored: the
   * caller applies the batches up to it that it has not applied yet (through {@link #read}) and
   * decides the batch to append, numbered one past it, against that state; or returns empty to
   * change nothing at all (the erasure is already recorded). {@code scrub} is then called, on the
   * calling thread, for each stored batch that may hold one of {@code tokens} (every batch if they
   * cannot be matched without decoding, see {@link #rewrite}).
   *
   * @return how many batches were rewritten and the sequence number of the appended batch (0 if
   *     {@code then} returned empty)
   * @throws dev.loci.StorageException if the journal could not do it (nothing changed), or {@link
   *     JournalUnavailableException} when its database cannot be reached
   * @throws UnsupportedOperationException if this journal cannot (the file journal, which only one
   *     process writes, rewrites with {@link #rewrite} and its caller records a durable intent)
   */
  default Rewritten rewriteAndAppend(
      java.util.Set<String> tokens,
      java.util.function.Function<JournalEntry, java.util.Optional<java.util.List<Event>>> scrub,
      java.util.function.LongFunction<java.util.Optional<Batch>> then) {
    throw new UnsupportedOperationException(
        getClass().getSimpleName()
            + " cannot rewrite and append in one atomic step (the file journal erases with"
            + " rewrite)");
  }

  /**
   * What {@link #rewriteAndAppend} did.
   *
   * @param batches how many stored batches were rewritten
   * @param appended the sequence number of the appended batch, 0 if none was
   */
  record Rewritten(long batches, long appended) {}

  /** Makes everything durable and releases the journal's resources. */
  @Override
  void close();
}
