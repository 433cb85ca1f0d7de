package dev.loci.postgres;

import dev.loci.StorageException;
import dev.loci.spi.Batch;
import dev.loci.spi.Journal.Appended;
import dev.loci.spi.JournalLine;
import java.util.function.Consumer;

/**
 * A batch {@link PostgresJournal} numbered but has not yet written, with its encoded line and the
 * handle its appender awaits; renumbered if its round moves past others' batches. Its fields are
 * guarded by the journal's lock; the handle's are volatile, read without it.
 */
final class PendingBatch {
  final Batch batch;
  final String ns;
  final long[] keys; // JournalKeys.hash, null: conflicts with every batch
  final Handle handle;
  final long origin; // the number it was given first: the round decided against those before
  long seq;
  byte[] line;

  /**
   * Numbers {@code batch} {@code seq}; its handle's {@code awaitDurable} runs {@code flushThrough}.
   */
  PendingBatch(Batch batch, long[] keys, long seq, Consumer<Handle> flushThrough) {
    this.batch = batch;
    this.ns = batch.namespace().toString();
    this.keys = keys;
    this.handle = new Handle(seq, flushThrough);
    this.origin = seq;
    number(seq);
  }

  /** Gives the batch the number {@code seq}, encoding its line again. */
  void number(long seq) {
    this.seq = seq;
    this.line = JournalLine.encode(seq, batch);
    handle.seq = seq;
  }

  /**
   * A numbered batch's handle. It says itself whether its batch was committed or dropped: the
   * journal's durable number cannot, since a read may move that past a number whose batch this
   * journal dropped when its round was refused (another server's batch holds it).
   */
  static final class Handle implements Appended {
    private final Consumer<Handle> flushThrough;
    volatile long seq;
    volatile boolean durable;
    volatile StorageException dropped; // why its round was not written, if it was not

    private Handle(long seq, Consumer<Handle> flushThrough) {
      this.seq = seq;
      this.flushThrough = flushThrough;
    }

    @Override
    public long seq() {
      return seq;
    }

    @Override
    public void awaitDurable() {
      flushThrough.accept(this);
    }
  }
}
