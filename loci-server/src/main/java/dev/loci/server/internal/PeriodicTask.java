package dev.loci.server.internal;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a maintenance task on a schedule while the server runs: first a minute after start (or
 * sooner when the period is shorter), then every period, on one daemon thread, never overlapping
 * itself. A run that fails is logged and the task runs again at the next period. Thread-safe.
 */
public final class PeriodicTask implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.loci.server.tasks");
  private final ScheduledExecutorService timer;

  private PeriodicTask(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /** Starts running {@code task} every {@code every} on a thread named {@code name}. */
  public static PeriodicTask start(String name, Duration every, Runnable task) {
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
    long first = Math.min(Duration.ofMinutes(1).toMillis(), every.toMillis());
    timer.scheduleWithFixedDelay(
        () -> {
          try {
            task.run();
          } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, name + " failed, tried again next run: " + e, e);
          }
        },
        first,
        every.toMillis(),
        TimeUnit.MILLISECONDS);
    return new PeriodicTask(timer);
  }

  /** Stops the schedule and waits for a run in progress to finish. */
  @Override
  public void close() {
    timer.shutdown();
    try {
      if (!timer.awaitTermination(5, TimeUnit.MINUTES)) {
        timer.shutdownNow();
      }
    } catch (InterruptedException e) {
      timer.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
