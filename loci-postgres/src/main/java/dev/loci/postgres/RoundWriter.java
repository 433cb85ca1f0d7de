package dev.loci.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.loci.StorageException;
import dev.loci.spi.JournalBehindException;
import dev.loci.spi.JournalUnavailableException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes {@link PostgresJournal}'s rounds of pending batches: one statement per try ({@link
 * JournalInsert}), a round moved past other servers' batches when no key in between conflicts
 * ({@link JournalKeys}), a lost reply resolved before the call returns ({@link LostReply}). It
 * keeps what the writes learnt: when another server was last seen writing (which decides whether
 * commits share their flushes), whether the database takes writes ({@link #unavailable()}), whether
 * a write's outcome could not be learnt ({@link #failure()}: the journal is unusable), and the
 * round counts ({@link #rounds()}).
 *
 * <p>{@link #commit} is called under the journal's lock, one round at a time; the state it keeps is
 * volatile or a {@link LongAdder}, read without that lock.
 */
final class RoundWriter {
  /** How long after another server's batch was last seen appends keep sharing flushes. */
  private static final long SHARED_NANOS = 2_000_000_000L;

  /** How often one write moves its round past others' batches before it is decided again. */
  private static final int MAX_MOVES = 16;

  private final HikariDataSource pool;
  private final String description;
  private final int poolSize;
  private volatile JournalFlush flush = JournalFlush.WAL; // replaced by tests only
  private volatile boolean alwaysShared; // tests
  // when this journal last saw a batch another server wrote (System.nanoTime)
  private volatile long othersSeenNanos = System.nanoTime() - SHARED_NANOS;
  private volatile StorageException failure; // a write's outcome unknown: the journal is unusable
  private volatile Optional<String> unavailable = Optional.empty(); // set by a failed write

  private final LongAdder written = new LongAdder(); // rounds committed
  private final LongAdder writtenBatches = new LongAdder(); // their batches
  private final LongAdder moves = new LongAdder(); // rounds numbered after others' batches
  private final LongAdder refusals = new LongAdder(); // rounds to decide again

  RoundWriter(HikariDataSource pool, String description, int poolSize) {
    this.pool = pool;
    this.description = description;
    this.poolSize = poolSize;
  }

  /**
   * Writes a group of batches in one round trip ({@link JournalInsert}): atomic, the trigger's
   * notification goes with the commit, and the call returns once the commit is flushed. A sequence
   * number another writer already used fails the primary key, and nothing is written. The commit
   * waits for its own flush while no other server has been seen writing for {@link #SHARED_NANOS},
   * and shares its flush with theirs otherwise.
   */
  void commit(List<PendingBatch> group) {
    String[] namespaces = new String[group.size()];
    String[] keys = new String[group.size()];
    for (int i = 0; i < group.size(); i++) {
      namespaces[i] = group.get(i).ns;
      keys[i] = JournalKeys.literal(group.get(i).keys);
    }
    long decided = group.get(0).origin - 1; // the round was decided against the batches through it
    long[] roundKeys = roundKeys(group);
    boolean shared = alwaysShared || System.nanoTime() - othersSeenNanos < SHARED_NANOS;
    for (int moved = 0; ; moved++) {
      Long[] seqs = new Long[group.size()];
      byte[][] lines = new byte[group.size()][];
      for (int i = 0; i < group.size(); i++) {
        seqs[i] = group.get(i).seq;
        lines[i] = group.get(i).line;
      }
      JournalInsert.Outcome outcome;
      OptionalLong after = OptionalLong.empty();
      try (Connection c = pool.getConnection()) {
        outcome = JournalInsert.run(c, seqs, namespaces, lines, keys, shared, flush);
        if (outcome.result() == JournalInsert.Result.TAKEN
            && roundKeys != null
            && moved < MAX_MOVES) {
          after = JournalKeys.after(c, decided, roundKeys);
        }
      } catch (SQLException e) {
        throw notWritten(e); // no connection, or it failed while ending the refused transaction
      }
      switch (outcome.result()) {
        case WRITTEN -> {
          written.increment();
          writtenBatches.add(group.size());
          return;
        }
        case TAKEN -> {
          if (after.isEmpty()) {
            refusals.increment();
            throw behind(seqs[0], outcome.cause());
          }
          // nothing in between touches the round's keys: number it after the head, write again
          othersSeenNanos = System.nanoTime();
          shared = true;
          moves.increment();
          long head = after.getAsLong();
          for (int i = 0; i < group.size(); i++) {
            group.get(i).number(head + 1 + i);
          }
        }
        case ARCHIVED -> {
          refusals.increment();
          throw behind(seqs[0], outcome.cause());
        }
        case FAILED -> throw notWritten(outcome.cause());
        case UNKNOWN -> {
          resolveLostCommit(group, outcome.cause());
          return;
        }
        default -> throw new IllegalStateException("unexpected insert outcome " + outcome);
      }
    }
  }

  /** Every key of the round's batches, sorted; null if one of them has none. */
  private static long[] roundKeys(List<PendingBatch> group) {
    int n = 0;
    for (PendingBatch p : group) {
      if (p.keys == null) {
        return null;
      }
      n += p.keys.length;
    }
    long[] all = new long[n];
    int i = 0;
    for (PendingBatch p : group) {
      System.arraycopy(p.keys, 0, all, i, p.keys.length);
      i += p.keys.length;
    }
    Arrays.sort(all);
    return all;
  }

  private StorageException notWritten(SQLException e) {
    unavailable = Optional.of("the database cannot take writes: " + e.getMessage());
    return new JournalUnavailableException(
        "journal write to " + description + " failed: " + e.getMessage() + "; nothing was written",
        e);
  }

  private JournalBehindException behind(long first, SQLException cause) {
    othersSeenNanos = System.nanoTime();
    JournalBehindException e =
        new JournalBehindException(
            "another writer appended to "
                + description
                + " (batch "
                + first
                + " is taken); nothing was written: catch up and decide again");
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }

  /**
   * The statement's reply was lost: its transaction committed or will not. Probes with a new
   * connection by inserting the group's first batch again in a transaction that is rolled back: the
   * insert waits for the lost transaction to end, then fails on the primary key if it committed
   * (and the stored line is compared) or succeeds if it did not. A commit found is then flushed (it
   * did not wait for the flush itself) before the write counts as done.
   */
  private void resolveLostCommit(List<PendingBatch> group, SQLException lost) {
    PendingBatch first = group.get(0);
    // the first batch as last sent (renumbered if the round moved)
    // the pool's other idle connections may have been cut too: each failed try evicts one
    for (int attempt = 1; ; attempt++) {
      LostReply.Outcome outcome;
      try {
        outcome = LostReply.probe(pool, first.seq, first.ns, first.line);
        if (outcome == LostReply.Outcome.COMMITTED) {
          JournalFlush.flush(pool); // committed without waiting for the flush: wait for it here
        }
      } catch (SQLException e) {
        lost.addSuppressed(e);
        if (attempt > poolSize) {
          StorageException unknown =
              new StorageException(
                  "journal write to "
                      + description
                      + " may or may not have happened ("
                      + lost.getMessage()
                      + ") and the database cannot be asked; reopen the journal",
                  lost);
          failure = unknown;
          throw unknown;
        }
        continue;
      }
      switch (outcome) {
        case COMMITTED -> {
          return;
        }
        case NOT_WRITTEN -> throw notWritten(lost);
        case ANOTHER_BATCH -> throw behind(first.seq, lost);
        default -> throw new IllegalStateException("unexpected probe outcome " + outcome);
      }
    }
  }

  /** Notes that another server's batch was just seen: commits share their flushes for a while. */
  void sawOthers() {
    othersSeenNanos = System.nanoTime();
  }

  /** Why the journal cannot take writes, as its writes and its follower last found. */
  Optional<String> unavailable() {
    return unavailable;
  }

  void setUnavailable(Optional<String> reason) {
    unavailable = reason;
  }

  /** The write whose outcome could not be learnt, which makes the journal unusable; or null. */
  StorageException failure() {
    return failure;
  }

  /** What the rounds written came to; see {@link PostgresJournal.Rounds}. */
  PostgresJournal.Rounds rounds() {
    return new PostgresJournal.Rounds(
        written.sum(), writtenBatches.sum(), moves.sum(), refusals.sum());
  }

  /** Tests: see {@link PostgresJournal#flushWith}. */
  void flushWith(JournalFlush statement) {
    flush = Objects.requireNonNull(statement, "statement");
    alwaysShared = true;
  }
}
