package dev.loci.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
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
   * @param cpuSeconds CPU time the whole process used inside the measured window, or -1 if the JVM
   *     does not report it
   */
  record Result(long measured, double seconds, long total, double cpuSeconds) {}

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
    long cpu0 = -1;
    long cpu1 = -1;
    try {
      start.countDown();
      pause(warmup, stop);
      c0 = acked.sum();
      t0 = System.nanoTime();
      cpu0 = processCpuNanos();
      pause(measure, stop);
      c1 = acked.sum();
      t1 = System.nanoTime();
      cpu1 = processCpuNanos();
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
    double cpu = cpu0 < 0 || cpu1 < 0 ? -1 : (cpu1 - cpu0) / 1e9;
    return new Result(c1 - c0, (t1 - t0) / 1e9, acked.sum(), cpu);
  }

  /**
   * Runs the writers until {@code records} writes are acknowledged in all, each writer taking the
   * next record number until none are left. Used to build data and to warm up the JIT.
   *
   * @throws IllegalStateException naming {@code label} if a writer failed, with its failure as
   *     cause
   * @throws CancellationException if the calling thread is interrupted (its flag stays set)
   */
  static void runCount(String label, List<Writer> writers, long records) {
    AtomicLong next = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>(writers.size());
    for (int k = 0; k < writers.size(); k++) {
      Writer w = writers.get(k);
      Thread t =
          new Thread(
              () -> {
                try {
                  long i;
                  while (failure.get() == null && (i = next.getAndIncrement()) < records) {
                    w.write(i);
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              },
              label + "-writer-" + k);
      t.setDaemon(true);
      threads.add(t);
    }
    threads.forEach(Thread::start);
    boolean interrupted = false;
    for (Thread t : threads) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
          failure.compareAndSet(null, e);
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
  }

  /** CPU time used by the whole process so far, or -1 if the JVM does not report it. */
  static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
      return hotspot.getProcessCpuTime();
    }
    return -1;
  }

  /** Heap in use after a full GC (as far as {@code System.gc()} gets), in bytes. */
  static long heapInUse() {
    System.gc();
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
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
