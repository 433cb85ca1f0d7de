package dev.loci.internal;

import dev.loci.Damage;
import dev.loci.LociException;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.spi.AppendListener;
import dev.loci.spi.Batch;
import dev.loci.spi.Command;
import dev.loci.spi.Decision;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalBehindException;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalUnavailableException;
import dev.loci.spi.Layer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The engine's write pipeline, by flat combining (see {@link Engine} for the design): callers queue
 * commands; whoever holds the combiner lock decides rounds of them against the projections, appends
 * their batches in one call, waits once for durability and applies them. Also keeps the write
 * failure state (writes stopped after a journal or apply failure, and resumed when the journal can
 * take them exactly again) and catches up with batches that other writers appended to a shared
 * journal.
 */
final class WriteCombiner {
  private static final System.Logger LOG = System.getLogger(WriteCombiner.class.getName());
  private static final int MAX_ROUND = 4096;

  private final Journal journal;
  private final Projections state;
  private final Snapshots snapshots;
  private final Clock clock;
  private final UuidV7 ids = new UuidV7();
  private final ConcurrentLinkedQueue<WriteTask<?>> queue = new ConcurrentLinkedQueue<>();
  private final ReentrantLock combiner = new ReentrantLock();
  private final ArrayDeque<WriteTask<?>> deferred = new ArrayDeque<>(); // guarded by combiner
  private volatile LociException failure;
  private volatile boolean failureResumable; // the journal stopped writes, and may resume them
  private volatile long resumeTriedNanos = System.nanoTime();
  private Instant lastNow = Instant.EPOCH; // guarded by combiner
  private volatile boolean closed;
  private volatile AppendListener appendListener = AppendListener.NONE;

  WriteCombiner(Journal journal, Projections state, Snapshots snapshots, Clock clock) {
    this.journal = journal;
    this.state = state;
    this.snapshots = snapshots;
    this.clock = clock;
  }

  void listen(AppendListener listener) {
    this.appendListener = Objects.requireNonNull(listener, "listener");
  }

  /** See {@link Engine#unavailable()}. */
  Optional<String> unavailable() {
    LociException f = failure;
    if (f != null) {
      return Optional.of(
          "writes are stopped after a failure ("
              + f.getMessage()
              + ")"
              + (failureResumable ? "; they resume when the journal can take them" : ""));
    }
    return journal.unavailable();
  }

  /** See {@link Engine#resume()}. */
  Optional<String> resume() {
    if (closed) {
      throw new StorageException("this Loci instance is closed");
    }
    return exclusively(
        () -> {
          resumeTriedNanos = System.nanoTime();
          Optional<String> journalSays = journal.resume();
          if (failure != null && failureResumable) {
            LOG.log(System.Logger.Level.INFO, "writes resumed after: " + failure.getMessage());
            failure = null;
            failureResumable = false;
          }
          state.read(
              () -> {
                state.layers().values().forEach(Layer::resumed);
                return null;
              });
          return failure != null ? unavailable() : journalSays;
        });
  }

  private void resumeIfDue() {
    if (failure != null
        && failureResumable
        && System.nanoTime() - resumeTriedNanos > 1_000_000_000L) {
      resume();
    }
  }

  /** See {@link Engine#execute}. */
  <R> R execute(Namespace namespace, String actor, Command<R> command) {
    resumeIfDue();
    checkUsable();
    WriteTask<R> task = new WriteTask<>(namespace, actor, command);
    queue.add(task);
    boolean interrupted = false;
    while (!task.done()) {
      if (combiner.tryLock()) {
        try {
          combine(task);
        } finally {
          combiner.unlock();
          handOver(); // also when combine throws: nobody queued may be left without a combiner
        }
        try {
          snapshots.replaceIfStale(); // a catch-up before the round applied another's erasure
        } catch (RuntimeException e) {
          // the command is done: the next command or catch-up tries the snapshots again
          LOG.log(System.Logger.Level.WARNING, "cannot replace the snapshots after an erasure", e);
        }
      } else {
        LockSupport.park(this);
        interrupted |= Thread.interrupted();
      }
    }
    state.settle();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return task.outcome();
  }

  /**
   * Runs {@code work} holding the combiner lock, so no round runs meanwhile; the caller may hold
   * the snapshot lock (snapshot, then combiner, is the lock order).
   */
  <R> R exclusively(Supplier<R> work) {
    combiner.lock();
    try {
      return work.get();
    } finally {
      combiner.unlock();
      handOver();
    }
  }

  /**
   * Decides {@code command} alone, after catching up with the journal's {@code head}; called within
   * {@link #exclusively}. Returns its batch, or empty if it decided on no events.
   */
  Optional<Batch> decideAlone(long head, Namespace namespace, String actor, Command<?> command) {
    if (head > state.appliedSeq()) {
      catchUpLocked();
    }
    Instant now = Timestamps.truncate(clock.instant());
    lastNow = now.isBefore(lastNow) ? lastNow : now;
    Decision<?> d = command.decide(new WriteTask.Context(lastNow, ids));
    return d.events().isEmpty()
        ? Optional.empty()
        : Optional.of(new Batch(lastNow, namespace, actor, d.events()));
  }

  /**
   * Wakes the caller of the oldest queued command so that it takes over as combiner. Called after
   * releasing the combiner lock: a command queued before the release is seen here, and one queued
   * after it finds the lock free, so no command is left waiting with nobody to run it.
   */
  private void handOver() {
    WriteTask<?> next = queue.peek();
    if (next != null) {
      LockSupport.unpark(next.caller);
    }
  }

  /**
   * Runs rounds of queued commands until the combiner's own command is done and no command waits
   * for a next round. Called with the combiner lock held.
   */
  private void combine(WriteTask<?> own) {
    List<WriteTask<?>> round = new ArrayList<>();
    do {
      round.addAll(deferred);
      deferred.clear();
      for (WriteTask<?> t; round.size() < MAX_ROUND && (t = queue.poll()) != null; ) {
        round.add(t);
      }
      if (round.isEmpty()) {
        return;
      }
      try {
        OptionalLong head = journal.sharedHead();
        if (head.isPresent() && head.getAsLong() > state.appliedSeq()) {
          catchUpLocked(); // others appended: decide against their batches, not after a refusal
        }
        runRound(round);
      } catch (JournalUnavailableException e) {
        // reading the batches others appended failed (a lost connection): nothing of the round
        // was written and the state is what was applied so far, so later writes may succeed
        failAll(round, e);
      } catch (RuntimeException | Error e) {
        LociException f =
            new StorageException("internal error while writing: " + e.getMessage(), e);
        failure = f;
        failureResumable = false;
        failAll(round, f);
        if (e instanceof Error error) {
          throw error;
        }
      }
      round.clear();
    } while (own == null || !own.done() || !deferred.isEmpty());
  }

  private void failAll(List<WriteTask<?>> round, RuntimeException e) {
    round.forEach(task -> task.fail(e));
    deferred.forEach(task -> task.fail(e));
    deferred.clear();
  }

  /** A record key a command of the round touches, in its namespace. */
  private record RoundKey(Namespace namespace, String key) {}

  /** A task whose command is decided and whose batch is still to be written. */
  private record Decided(WriteTask<?> task, Batch batch, Set<String> keys, Object result) {}

  /** A task whose batch is written and waits for the round's fsync. */
  private record Staged(
      WriteTask<?> task, JournalEntry entry, Journal.Appended appended, Object result) {}

  /**
   * One round: decides the queued commands in order (a command whose keys an earlier one of the
   * round also touches waits for the next round, so it decides against applied state), writes their
   * batches, waits once for durability (one fsync for the whole round under {@code always}: group
   * commit), applies them in sequence order under the exclusive state lock, and only then completes
   * them. Only the combiner changes the projections, so it decides without the state lock.
   */
  private void runRound(List<WriteTask<?>> round) {
    List<Decided> decided = decide(round);
    List<Staged> staged = new ArrayList<>(decided.size());
    // one write for the round's batches (a file journal writes as many as fit in its segment)
    long appendStart = System.nanoTime();
    for (int done = 0; done < decided.size(); ) {
      List<Journal.Appended> appended;
      try {
        List<Batch> batches = new ArrayList<>(decided.size() - done);
        List<Set<String>> keys = new ArrayList<>(decided.size() - done);
        for (int i = done; i < decided.size(); i++) {
          batches.add(decided.get(i).batch());
          keys.add(decided.get(i).keys());
        }
        appended = journal.appendBatches(batches, keys);
      } catch (StorageException e) {
        // Nothing of this call was written; what an earlier call wrote goes on to its fsync. Only
        // the first command fails, as if each were written alone: the rest are tried again, and
        // may succeed (a journal that writes one batch per call behaves exactly as before).
        decided.get(done++).task().fail(e);
        continue;
      }
      for (Journal.Appended a : appended) {
        Decided d = decided.get(done++);
        staged.add(new Staged(d.task(), JournalEntry.of(a.seq(), d.batch()), a, d.result()));
      }
    }
    if (staged.isEmpty()) {
      return;
    }
    try {
      staged.get(staged.size() - 1).appended().awaitDurable();
      appendListener.appended(staged.size(), System.nanoTime() - appendStart);
    } catch (JournalBehindException e) {
      // Another writer got there first and nothing of this round was written: apply its batches,
      // then decide the round's commands again, against the state they missed.
      catchUpLocked();
      staged.forEach(st -> deferred.add(st.task()));
      return;
    } catch (JournalUnavailableException e) {
      // nothing of the round was written and the journal is as before: later writes may succeed
      staged.forEach(st -> st.task().fail(e));
      return;
    } catch (StorageException e) {
      failureResumable = true; // the journal decides when it can take writes exactly again
      failure = e;
      staged.forEach(st -> st.task().fail(e));
      return;
    }
    if (staged.get(0).appended().seq() != staged.get(0).entry().seq() && !appliedBefore(staged)) {
      return;
    }
    try {
      List<JournalEntry> entries = new ArrayList<>(staged.size());
      for (Staged st : staged) {
        entries.add(renumbered(st.entry(), st.appended().seq()));
      }
      state.applyDurable(entries);
    } catch (RuntimeException e) {
      LociException f =
          new StorageException("internal error: a durable batch did not apply: " + e, e);
      failure = f;
      failureResumable = false;
      staged.forEach(st -> st.task().fail(f));
      return;
    }
    staged.forEach(st -> st.task().complete(st.result()));
  }

  /**
   * The journal numbered the round after batches other servers appended since it was decided, none
   * of which shares a key with it ({@link Journal#appendBatches(List, List)}): applies those first,
   * so the round's own apply after them at their numbers; true once they are applied. If they
   * cannot be read, the round's commands fail saying so: their batches are in the journal and a
   * later catch-up applies them with the rest (the state stays what was applied so far).
   */
  private boolean appliedBefore(List<Staged> staged) {
    long first = staged.get(0).appended().seq();
    try {
      catchUpLocked(first - 1);
    } catch (JournalUnavailableException e) {
      StorageException f =
          new StorageException(
              "written to the journal as batch "
                  + first
                  + " and later, but the batches before it could not be read to apply it here ("
                  + e.getMessage()
                  + "); a later catch-up applies it",
              e);
      staged.forEach(st -> st.task().fail(f));
      return false;
    }
    return true;
  }

  private static JournalEntry renumbered(JournalEntry entry, long seq) {
    return seq == entry.seq()
        ? entry
        : new JournalEntry(seq, entry.ts(), entry.namespace(), entry.actor(), entry.events());
  }

  /**
   * Decides the round's commands in order; a command that touches a key an earlier one of the round
   * touches goes to {@link #deferred}, one that decides on no events completes at once.
   */
  private List<Decided> decide(List<WriteTask<?>> round) {
    List<Decided> decided = new ArrayList<>(round.size());
    Set<RoundKey> roundKeys = new HashSet<>();
    for (WriteTask<?> task : round) {
      if (failure != null) {
        task.fail(stoppedError(failure));
        continue;
      }
      Instant now = Timestamps.truncate(clock.instant());
      if (!now.isAfter(lastNow)) {
        // the wall clock stepped back (keep command time monotonic), or this is the same
        // millisecond: the commands share one Instant, which every trace of theirs keeps
        now = lastNow;
      }
      lastNow = now;
      Decision<?> decision;
      try {
        decision = task.command.decide(new WriteTask.Context(now, ids));
      } catch (RuntimeException | Error e) {
        task.fail(e); // deciding changed nothing: only this command fails
        continue;
      }
      List<RoundKey> keys = new ArrayList<>(decision.keys().size());
      boolean conflict = false;
      for (String k : decision.keys()) {
        RoundKey key = new RoundKey(task.namespace, k);
        keys.add(key);
        conflict |= roundKeys.contains(key);
      }
      if (conflict) {
        deferred.add(task);
        continue;
      }
      if (decision.events().isEmpty()) {
        task.complete(decision.result());
        continue;
      }
      roundKeys.addAll(keys);
      decided.add(
          new Decided(
              task,
              new Batch(now, task.namespace, task.actor, decision.events()),
              decision.keys(),
              decision.result()));
    }
    return decided;
  }

  /** See {@link Engine#catchUp()}. */
  int catchUp() {
    checkUsable();
    combiner.lock();
    return catchUpHoldingCombiner();
  }

  /** See {@link Engine#tryCatchUp()}. */
  int tryCatchUp() {
    checkUsable();
    if (!combiner.tryLock()) {
      return -1;
    }
    return catchUpHoldingCombiner();
  }

  private int catchUpHoldingCombiner() {
    try {
      if (failure != null) {
        throw stoppedError(failure);
      }
      return catchUpLocked();
    } finally {
      combiner.unlock();
      handOver();
      snapshots.replaceIfStale();
    }
  }

  /**
   * Reads and applies batches after the last applied one; called with the combiner lock held. A
   * failure of the read itself (not of applying a batch) is a {@link JournalUnavailableException}:
   * what was read so far is applied, nothing was written, and a later catch-up goes on from there.
   */
  private int catchUpLocked() {
    return catchUpLocked(Long.MAX_VALUE);
  }

  /** Like {@link #catchUpLocked()}, applying no batch past {@code through}. */
  private int catchUpLocked(long through) {
    int[] applied = {0};
    List<Damage> damage = new ArrayList<>();
    Consumer<JournalEntry> apply =
        entry -> {
          try {
            state.applyCaughtUp(entry, damage);
            applied[0]++;
          } catch (RuntimeException e) {
            throw new ApplyFailure(e);
          }
        };
    Consumer<Damage> report =
        d -> {
          LOG.log(System.Logger.Level.WARNING, "journal: " + d);
          damage.add(d);
        };
    try {
      // nothing past through: the batches after it are the round's own, applied by the round
      journal.read(state.appliedSeq() + 1, through, apply, report);
    } catch (ApplyFailure e) {
      throw e.getCause();
    } catch (JournalUnavailableException e) {
      throw e;
    } catch (StorageException e) {
      throw new JournalUnavailableException(
          "cannot read the journal's newer batches: " + e.getMessage(), e);
    } finally {
      if (applied[0] > 0) {
        state.tellApplied();
        state.settle();
      }
    }
    return applied[0];
  }

  /** A batch read in a catch-up did not apply: not the journal's failure. */
  private static final class ApplyFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ApplyFailure(RuntimeException cause) {
      super(cause);
    }

    @Override
    public synchronized RuntimeException getCause() {
      return (RuntimeException) super.getCause();
    }
  }

  private static StorageException stoppedError(LociException f) {
    return new StorageException(
        "writes are stopped after an earlier failure ("
            + f.getMessage()
            + "); acknowledged writes are safe, reopen the data directory to continue",
        f);
  }

  /**
   * @throws StorageException if the engine is closed or writes are stopped after a failure
   */
  void checkUsable() {
    if (closed) {
      throw new StorageException("this Loci instance is closed");
    }
    LociException f = failure;
    if (f != null) {
      throw stoppedError(f);
    }
  }

  /**
   * Stops taking commands and finishes every command already queued; returns false if it was
   * already closed.
   */
  boolean close() {
    synchronized (this) {
      if (closed) {
        return false;
      }
      closed = true;
    }
    combiner.lock();
    try {
      combine(null);
    } finally {
      combiner.unlock();
      handOver(); // a command queued after the last poll runs (and fails: closed) on its own
    }
    return true;
  }
}
