package dev.loci.internal;

import dev.loci.Durability;
import dev.loci.StorageException;
import dev.loci.spi.Journal.Appended;
import dev.loci.spi.JournalUnavailableException;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How a {@link FileJournal} makes its appended batches durable: group commit under {@code always},
 * a background fsync under {@code interval}, the durable sequence number and the fsync count.
 *
 * <p>Design. Under {@code always}, a writer that needs its batch durable takes {@code syncLock},
 * and whoever holds it fsyncs everything written so far; the writers queued behind it usually find
 * their batch already covered and return without an fsync of their own (see {@link #syncThrough}).
 *
 * <p>Locking. {@code syncLock} guards {@code syncing}; {@code durableSeq} is volatile and only
 * raised, under this object's monitor. The active segment and the last sequence number belong to
 * the journal: they are read here (and the segment's durable length raised) under the journal's
 * write lock, which is never taken while {@code syncLock} is held. The rest of the journal is
 * reached through {@link Log}. Thread-safe.
 */
final class GroupCommit {
  private static final System.Logger LOG = System.getLogger(FileJournal.class.getName());
  private static final int MAX_INTERRUPTED_RETRIES = ActiveSegment.MAX_INTERRUPTED_RETRIES;

  /** What group commit needs of its journal. */
  interface Log {
    /** Bumped by each rollback: an append of an older generation was cut off. */
    int generation();

    /** The last sequence number written; call under the journal's write lock. */
    long lastSeqLocked();

    /** Throws if the journal is closed or has stopped writes. */
    void checkUsable();

    /** Whether the journal has failed or is closed, so a background fsync has nothing to do. */
    boolean stopped();

    /** What a failed fsync leaves (see {@link FileJournal}): the exception to throw. */
    StorageException failSync(IOException e);
  }

  /** How the journal fsyncs a segment; a test replaces it to make an fsync fail. */
  @FunctionalInterface
  interface Forcer {
    void force(FileChannel channel) throws IOException;
  }

  private final Log log;
  private final ReentrantLock writeLock; // the journal's
  private final ActiveSegment active; // its fields guarded by writeLock
  private final boolean always;
  private final ReentrantLock syncLock = new ReentrantLock();
  private final Condition synced = syncLock.newCondition();
  private boolean syncing; // guarded by syncLock
  private volatile long durableSeq;
  private Forcer forcer = ch -> ch.force(false);
  private final AtomicLong fsyncs = new AtomicLong();
  private final ScheduledExecutorService syncer;
  private final long intervalMs;

  GroupCommit(
      Log log,
      ReentrantLock writeLock,
      ActiveSegment active,
      Durability durability,
      long durableSeq) {
    this.log = log;
    this.writeLock = writeLock;
    this.active = active;
    this.always = durability.mode() == Durability.Mode.ALWAYS;
    this.durableSeq = durableSeq;
    if (durability.mode() == Durability.Mode.INTERVAL) {
      syncer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "loci-journal-sync");
                t.setDaemon(true);
                return t;
              });
      intervalMs = durability.interval().toMillis();
    } else {
      syncer = null;
      intervalMs = 0;
    }
  }

  /** Under {@code interval}, starts the background fsync; call once the journal is built. */
  void start() {
    if (syncer != null) {
      syncer.scheduleWithFixedDelay(
          this::backgroundSync, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
    }
  }

  /** Stops the background fsync, if any, waiting up to 10 s for one in progress. */
  void stop() {
    if (syncer != null) {
      // not shutdownNow: an interrupt would land in the background fsync
      syncer.shutdown();
      try {
        if (!syncer.awaitTermination(10, TimeUnit.SECONDS)) {
          LOG.log(System.Logger.Level.WARNING, "journal background fsync did not stop in 10 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The highest sequence number known durable. */
  long durableSeq() {
    return durableSeq;
  }

  /** How many fsyncs the write path has issued; with group commit, fewer than durable appends. */
  long fsyncCount() {
    return fsyncs.get();
  }

  /** How segments are fsynced, also by rolls and rollbacks (which do not count in fsyncCount). */
  Forcer forcer() {
    return forcer;
  }

  /** Replaces how segments are fsynced (fault injection in tests). */
  void forcer(Forcer forcer) {
    this.forcer = Objects.requireNonNull(forcer, "forcer");
  }

  /** The handle of batch {@code seq}, appended in rollback generation {@code generation}. */
  Appended appended(long seq, int generation) {
    return new Written(seq, generation);
  }

  private final class Written implements Appended {
    private final long seq;
    private final int generation;

    Written(long seq, int generation) {
      this.seq = seq;
      this.generation = generation;
    }

    @Override
    public long seq() {
      return seq;
    }

    @Override
    public void awaitDurable() {
      if (always) {
        syncThrough(seq, generation);
      } else {
        log.checkUsable();
      }
    }
  }

  /**
   * Makes every batch up to {@code seq} durable, sharing the fsync with concurrent callers.
   *
   * <p>One caller at a time is the leader: it fsyncs everything written so far without holding
   * {@code syncLock}, then wakes every waiter at once. Waiters whose batch the fsync covered
   * return; one of the rest leads the next fsync, which covers everything appended meanwhile. (A
   * plain lock around the fsync would hand waiters through one at a time, a convoy that keeps
   * groups small.) An fsync cut short by an interrupt closes the channel; it is reopened and the
   * fsync repeated, which flushes the file whichever descriptor wrote it.
   */
  void syncThrough(long seq, int gen) {
    if (gen == log.generation() && durableSeq >= seq) {
      return;
    }
    boolean interrupted = Thread.interrupted();
    syncLock.lock();
    try {
      int attempts = 0;
      while (durableSeq < seq || gen != log.generation()) {
        if (gen != log.generation()) {
          throw new JournalUnavailableException(
              "journal fsync failed while batch "
                  + seq
                  + " waited for it; the batches written since the last durable one were cut off"
                  + " again, so nothing of it was kept",
              null);
        }
        log.checkUsable();
        if (syncing) {
          synced.awaitUninterruptibly();
          continue;
        }
        syncing = true;
        syncLock.unlock();
        try {
          interrupted |= forceOnce(seq, gen, attempts++);
        } finally {
          syncLock.lock();
          syncing = false;
          synced.signalAll();
        }
      }
    } finally {
      syncLock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** One fsync by the leader; returns whether an interrupt had to be set aside. */
  private boolean forceOnce(long seq, int gen, int attempt) {
    FileChannel ch;
    long target;
    long bytes;
    Path seg;
    writeLock.lock();
    try {
      if (gen != log.generation()) {
        return false; // cut off by a rollback: the caller's loop reports it
      }
      ch = active.channel;
      target = log.lastSeqLocked();
      bytes = active.segmentSize;
      seg = active.segment;
    } finally {
      writeLock.unlock();
    }
    try {
      forcer.force(ch);
      fsyncs.incrementAndGet();
      writeLock.lock();
      try {
        if (seg.equals(active.segment) && gen == log.generation()) {
          active.durableBytes = Math.max(active.durableBytes, bytes);
        }
      } finally {
        writeLock.unlock();
      }
      advanceDurable(target);
      return false;
    } catch (ClosedChannelException e) {
      // closed by a roll (which forced it first), by close(), or by an interrupt
      boolean interrupt = e instanceof ClosedByInterruptException;
      if (interrupt) {
        Thread.interrupted();
      }
      if (durableSeq < seq) {
        if (attempt >= MAX_INTERRUPTED_RETRIES) {
          throw log.failSync(e);
        }
        writeLock.lock();
        try {
          active.reopenIfClosed(ch);
        } catch (IOException reopen) {
          throw log.failSync(reopen);
        } finally {
          writeLock.unlock();
        }
      }
      return interrupt;
    } catch (IOException e) {
      throw log.failSync(e);
    }
  }

  private void backgroundSync() {
    try {
      long target;
      writeLock.lock();
      try {
        target = log.lastSeqLocked();
      } finally {
        writeLock.unlock();
      }
      if (target > durableSeq && !log.stopped()) {
        syncThrough(target, log.generation());
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.ERROR, "journal background fsync failed", e);
    }
  }

  /** Raises the durable sequence number to {@code seq} if it is lower. */
  synchronized void advanceDurable(long seq) {
    if (seq > durableSeq) {
      durableSeq = seq;
    }
  }
}
