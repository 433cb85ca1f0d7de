package dev.loci.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs writer threads flat out for a warm-up and then a measured window, counting acknowledged
 * writes: a write counts once the call that made it returns.
 *
 * <p>Every writer gets a distinct record number from one shared counter. The first writer failure
 * stops all writers and is rethrown. Not reentrant; one run per instance of use.
 */
final class ThroughputRun {
  private static final long SLICE_NANOS = 20_000_000L;

  /** One writer: performs write number {@code i}; returning normally means acknowledged. */
  @FunctionalInterface
  interface Writer {
    /** Writes record {@code i}; throws if the write failed. */
    void write(long i) throws Exception;
  }

  /**
   * What a run counted.
   *
   * @param measured writes acknowledged inside the measured window
   * @param seconds the length of the measured window
   * @param total writes acknowledged over the whole run, warm-up included
   */
  record Result(long measured, double seconds, long total) {}

  private ThroughputRun() {}

  /**
   * Starts one thread per writer, lets them run for {@code warmup}, counts for {@code measure},
   * then stops them and waits for each to finish its write in progress.
   *
   * @throws IllegalStateException naming {@code label} if a writer failed, with its failure as
   *     cause
   * @throws CancellationException if the calling thread is interrupted (its flag stays set)
   */
  static Result run(String label, List<Writer> writers, Duration warmup, Duration measure) {
    AtomicLong next = new AtomicLong();
    LongAdder acked = new LongAdder();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>(writers.size());
    for (int k = 0; k < writers.size(); k++) {
      Writer w = writers.get(k);
      Thread t =
          new Thread(
              () -> {
                try {
                  start.await();
                  while (!stop.get()) {
                    w.write(next.getAndIncrement());
                    acked.increment();
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                  stop.set(true);
                }
              },
              label + "-writer-" + k);
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
    boolean interrupted = false;
    long c0 = 0;
    long c1 = 0;
    long t0 = 0;
    long t1 = 0;
    try {
      start.countDown();
      pause(warmup, stop);
      c0 = acked.sum();
      t0 = System.nanoTime();
      pause(measure, stop);
      c1 = acked.sum();
      t1 = System.nanoTime();
    } catch (InterruptedException e) {
      interrupted = true;
    } finally {
      stop.set(true);
      for (Thread t : threads) {
        while (t.isAlive()) {
          try {
            t.join();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
      throw new CancellationException(label + ": interrupted");
    }
    Throwable f = failure.get();
    if (f != null) {
      throw new IllegalStateException(label + ": a writer failed: " + f, f);
    }
    return new Result(c1 - c0, (t1 - t0) / 1e9, acked.sum());
  }

  /** Sleeps for {@code d}, in short slices so a failed writer ends the wait early. */
  private static void pause(Duration d, AtomicBoolean stop) throws InterruptedException {
    long deadline = System.nanoTime() + d.toNanos();
    long left;
    while (!stop.get() && (left = deadline - System.nanoTime()) > 0) {
      long slice = Math.min(left, SLICE_NANOS);
      Thread.sleep(slice / 1_000_000L, (int) (slice % 1_000_000L));
    }
  }
}
