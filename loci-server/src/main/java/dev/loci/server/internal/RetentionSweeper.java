package dev.loci.server.internal;

import dev.loci.subjects.Subjects;
import dev.loci.subjects.SweepReport;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the retention sweep ({@link Subjects#sweep}) on a schedule while the server runs: first a
 * minute after start (so a server that was down at its usual time catches up), then every {@code
 * every}. A failed sweep is logged and tried again at the next run; a sweep never overlaps another.
 * Thread-safe.
 */
public final class RetentionSweeper implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.loci.server.retention");
  private final ScheduledExecutorService timer;

  private RetentionSweeper(ScheduledExecutorService timer) {
    this.timer = timer;
  }

  /** Starts sweeping {@code subjects} every {@code every}, by {@code clock}'s time. */
  public static RetentionSweeper start(Subjects subjects, Duration every, Clock clock) {
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "loci-retention-sweep");
              t.setDaemon(true);
              return t;
            });
    long first = Math.min(Duration.ofMinutes(1).toMillis(), every.toMillis());
    timer.scheduleWithFixedDelay(
        () -> sweep(subjects, clock), first, every.toMillis(), TimeUnit.MILLISECONDS);
    return new RetentionSweeper(timer);
  }

  private static void sweep(Subjects subjects, Clock clock) {
    try {
      SweepReport r = subjects.sweep(clock.instant(), false);
      if (!r.expired().isEmpty() || r.held() > 0) {
        LOG.log(
            System.Logger.Level.INFO,
            "retention sweep erased "
                + r.expired().size()
                + " records; a legal hold kept "
                + r.held());
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "retention sweep failed, tried again next run: " + e, e);
    }
  }

  /** Stops the schedule and waits for a sweep in progress to finish. */
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
