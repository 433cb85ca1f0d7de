package dev.loci.subjects.internal;

import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The subject index's upkeep off the write path. What a batch wrote is read off its events while
 * the engine applies it, but the index takes it in later: the change is {@linkplain #queue queued},
 * and whoever touches the index next (a read, a decision, a snapshot, the subject layer's own
 * events, or the audit writer's thread within a second) first applies every queued change, in
 * order, under the index's lock ({@link #indexed}). So the engine's writers, who wait for one
 * another, do not wait for the index, and every reader still sees every applied batch. A queue that
 * grows past {@link #QUEUE_LIMIT} is applied by the writer that finds it so.
 *
 * <p>Thread-safe: the index is guarded by the lock, the queue by itself.
 */
final class IndexUpkeep {
  /** Queued index changes past which the writer that queues one applies them all itself. */
  static final int QUEUE_LIMIT = 1 << 16;

  private final SubjectIndex index; // guarded by lock
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Runnable> queued = new ArrayDeque<>(); // guarded by itself

  /** Keeps {@code index}, which only work passed to {@link #indexed} may touch from now on. */
  IndexUpkeep(SubjectIndex index) {
    this.index = index;
  }

  /** Runs {@code work} on the index, with every queued change applied first. */
  <R> R indexed(Supplier<R> work) {
    lock.lock();
    try {
      applyQueued();
      return work.get();
    } finally {
      lock.unlock();
    }
  }

  /** Like {@link #indexed(Supplier)}, for work without a result. */
  void indexed(Runnable work) {
    indexed(
        () -> {
          work.run();
          return null;
        });
  }

  /** Applies every queued index change, in order. */
  void catchUp() {
    indexed(() -> {});
  }

  /**
   * Queues {@code change} after every change queued before it; if that makes {@link #QUEUE_LIMIT}
   * changes or more, applies them all now.
   *
   * @return how many changes were waiting with this one
   */
  int queue(Runnable change) {
    int waiting;
    synchronized (queued) {
      queued.add(change);
      waiting = queued.size();
    }
    if (waiting >= QUEUE_LIMIT) {
      catchUp();
    }
    return waiting;
  }

  /** Drops every queued change and empties the index. */
  void clear() {
    lock.lock();
    try {
      synchronized (queued) {
        queued.clear();
      }
      index.clear();
    } finally {
      lock.unlock();
    }
  }

  private void applyQueued() {
    while (true) {
      Runnable[] changes;
      synchronized (queued) {
        if (queued.isEmpty()) {
          return;
        }
        changes = queued.toArray(new Runnable[0]);
        queued.clear();
      }
      for (Runnable c : changes) {
        c.run();
      }
    }
  }
}
