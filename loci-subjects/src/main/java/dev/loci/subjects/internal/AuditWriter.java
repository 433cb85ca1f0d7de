package dev.loci.subjects.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes audit entries to the {@link AuditLog} in batches, off the engine's apply path: entries
 * queue as batches are applied, and a background thread writes them every second (or once 4,096 are
 * waiting). Writing each entry as it is applied put a write to a subject's file on every journal
 * commit, and ext4 then flushes those files with the journal's fsync (data is ordered before
 * metadata): 35-40 % of durable write throughput in {@code loci bench subjects}. Entries come from
 * the journal, so a batch lost with a crash is made again on replay. Readers of the logs call
 * {@link #flush} and {@link #materialize} first, snapshots {@link #force}, close {@link
 * #checkpoint}. Thread-safe.
 */
final class AuditWriter implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(AuditWriter.class.getName());
  private static final int BATCH = 4096;

  private final AuditLog log;
  private final Runnable beforeFlush;
  private final Object queueLock = new Object();
  private final ReentrantLock writing = new ReentrantLock();
  private final ScheduledExecutorService timer;
  private List<AuditEntry> queue = new ArrayList<>(); // guarded by queueLock

  /**
   * @param beforeFlush run at the start of every flush, before its lock is taken: brings the queue
   *     up to date (the subject layer applies the batches its index has not yet taken in)
   */
  AuditWriter(AuditLog log, Runnable beforeFlush) {
    this.log = log;
    this.beforeFlush = beforeFlush;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "loci-audit-writer");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(this::flushQuietly, 1, 1, TimeUnit.SECONDS);
  }

  /** Queues {@code e}, in order after every entry queued before. */
  void add(AuditEntry e) {
    boolean full;
    synchronized (queueLock) {
      queue.add(e);
      full = queue.size() == BATCH;
    }
    if (full) {
      timer.execute(this::flushQuietly);
    }
  }

  /** Writes every queued entry now; what fails stays queued, in order, and is logged. */
  void flush() {
    beforeFlush.run();
    writing.lock();
    try {
      List<AuditEntry> batch;
      synchronized (queueLock) {
        batch = queue;
        queue = new ArrayList<>();
      }
      try {
        log.appendAll(batch);
      } catch (IOException | RuntimeException ex) {
        LOG.log(
            System.Logger.Level.WARNING,
            "subject audit log: up to "
                + batch.size()
                + " entries not written yet, tried again within a second: "
                + ex.getMessage());
        // those written are skipped (by number) when the batch is appended again
        synchronized (queueLock) {
          List<AuditEntry> back = new ArrayList<>(batch);
          back.addAll(queue);
          queue = back;
        }
      }
    } finally {
      writing.unlock();
    }
  }

  private void flushQuietly() {
    try {
      flush();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "subject audit log: " + e);
    }
  }

  /**
   * Flushes, then forces every written entry to disk.
   *
   * @throws IOException if an entry could not be written or the files not forced
   */
  void force() throws IOException {
    writing.lock();
    try {
      flush();
      synchronized (queueLock) {
        if (!queue.isEmpty()) {
          throw new IOException(queue.size() + " audit entries could not be written");
        }
      }
      log.force();
    } finally {
      writing.unlock();
    }
  }

  /** Writes every subject's spooled lines to its file, for a reader of the files. */
  void materialize() throws IOException {
    writing.lock();
    try {
      log.materialize();
    } finally {
      writing.unlock();
    }
  }

  /**
   * Flushes, then brings every subject file up to date, forces them and empties the spool.
   *
   * @throws IOException if an entry could not be written or the files not forced
   */
  void checkpoint() throws IOException {
    writing.lock();
    try {
      force();
      log.checkpoint();
    } finally {
      writing.unlock();
    }
  }

  /** Rotates the key: a new key signs from now on, each chain records the rotation. */
  String[] rotate(AuditKeys keys) throws IOException {
    writing.lock();
    try {
      flush();
      String[] ids = keys.rotate();
      log.rotated(ids[0], ids[1]);
      log.force();
      return ids;
    } finally {
      writing.unlock();
    }
  }

  /** Holds off every write to the files until {@link #release}, for a consistent read of them. */
  void hold() {
    writing.lock();
  }

  /** Ends a {@link #hold}. */
  void release() {
    writing.unlock();
  }

  /** Has the background thread flush soon. */
  void flushSoon() {
    try {
      timer.execute(this::flushQuietly);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed: whoever reads next brings the queue up to date
    }
  }

  /** Drops every queued entry (the state they came from was cleared). */
  void clear() {
    synchronized (queueLock) {
      queue.clear();
    }
  }

  /** Stops the background thread and closes the files, without writing what is queued. */
  @Override
  public void close() {
    timer.shutdown();
    try {
      if (!timer.awaitTermination(30, TimeUnit.SECONDS)) {
        timer.shutdownNow();
      }
    } catch (InterruptedException e) {
      timer.shutdownNow();
      Thread.currentThread().interrupt();
    }
    writing.lock();
    try {
      log.close();
    } finally {
      writing.unlock();
    }
  }
}
