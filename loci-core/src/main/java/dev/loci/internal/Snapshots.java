package dev.loci.internal;

import dev.loci.CorruptJournalException;
import dev.loci.Damage;
import dev.loci.spi.Journal;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The engine's snapshots: restoring the newest valid one on open, writing one of the projections
 * (never ahead of the durable journal), compacting, and replacing every snapshot after an erasure
 * so that none holds erased records. Snapshots are taken under their own lock; the lock order is
 * this lock, then the engine's combiner.
 */
final class Snapshots {
  private static final System.Logger LOG = System.getLogger(Snapshots.class.getName());

  private final Optional<SnapshotStore> store;
  private final Projections state;
  private final Journal journal;
  private final Clock clock;
  private final AtomicBoolean stale;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile long seq;

  /**
   * @param stale set when an applied event erased records the snapshots still hold
   */
  Snapshots(
      Optional<SnapshotStore> store,
      Projections state,
      Journal journal,
      Clock clock,
      AtomicBoolean stale) {
    this.store = store;
    this.state = state;
    this.journal = journal;
    this.clock = clock;
    this.stale = stale;
  }

  /** The sequence number of the snapshot restored on open or last written, 0 if none. */
  long seq() {
    return seq;
  }

  /**
   * Restores the newest snapshot that reads whole into the projections, reporting each bad one as
   * damage and falling back to older ones; returns its sequence number, 0 if none restored.
   */
  long restoreNewest(List<Damage> damage) {
    long restored = 0;
    if (store.isPresent()) {
      for (Path file : store.get().list()) {
        try {
          restored = SnapshotStore.restore(file, h -> state.restoring(file, h)).seq();
          break;
        } catch (CorruptJournalException e) {
          state.clear();
          Damage d =
              new Damage(
                  Damage.Kind.BAD_SNAPSHOT,
                  file,
                  e.offset(),
                  OptionalLong.of(SnapshotStore.seqOf(file)),
                  e.detail() + "; using an older snapshot or the journal");
          LOG.log(System.Logger.Level.WARNING, d.toString());
          damage.add(d);
        }
      }
    }
    seq = restored;
    return restored;
  }

  /** Runs {@code work} holding the snapshot lock (before the combiner: the lock order). */
  <R> R locked(Supplier<R> work) {
    lock.lock();
    try {
      return work.get();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Writes a snapshot of every layer at the current applied sequence and returns that sequence.
   *
   * @throws IllegalStateException if the engine has no snapshot store
   */
  long take() {
    return locked(this::takeLocked);
  }

  private long takeLocked() {
    SnapshotStore s =
        store.orElseThrow(() -> new IllegalStateException("this journal keeps no snapshots"));
    Projections.Captured captured = state.capture();
    journal.sync(); // never let a snapshot get ahead of the durable journal
    s.write(captured.seq(), Timestamps.truncate(clock.instant()), captured.layers());
    seq = captured.seq();
    state.snapshotTaken(captured.events());
    return captured.seq();
  }

  /**
   * Snapshots, then deletes journal segments and snapshots the new snapshot makes redundant.
   *
   * @return the snapshot's sequence number and how many segments were deleted
   */
  long[] compact() {
    return locked(
        () -> {
          journal.roll();
          long taken = takeLocked();
          int segments = journal.deleteThrough(taken);
          store.ifPresent(s -> s.deleteOlderThan(taken));
          return new long[] {taken, segments};
        });
  }

  /**
   * Replaces every snapshot by a fresh one of the current state if an applied event erased records
   * since the last time. Called without the combiner (snapshot, then combiner, is the lock order).
   */
  void replaceIfStale() {
    if (stale.get()) {
      locked(
          () -> {
            replaceIfStaleLocked();
            return null;
          });
    }
  }

  /** Like {@link #replaceIfStale()}, with the snapshot lock already held. */
  void replaceIfStaleLocked() {
    if (!stale.getAndSet(false)) { // cleared before the capture: a later erasure sets it again
      return;
    }
    if (store.isPresent() && !store.get().list().isEmpty()) {
      try {
        long taken = takeLocked();
        store.get().deleteOlderThan(taken);
      } catch (RuntimeException e) {
        stale.set(true);
        throw e;
      }
    }
  }
}
