package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Durability;
import dev.loci.LociException;
import dev.loci.Namespace;
import dev.loci.spi.Decision;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The flat-combining write path: every queued command is completed, whatever the combiner hits. */
class EngineCombiningTest {
  private static final Namespace NS = Namespace.of("acme");

  @TempDir Path dir;

  private Engine open() {
    FileJournal journal = FileJournal.open(dir.resolve("journal"), Durability.none(), 1 << 20);
    return Engine.open(
        journal, Optional.empty(), List.of(new TraceLayer()), Clock.systemUTC(), List.of());
  }

  /** Waits until {@code t} is parked inside the engine, waiting for the combiner. */
  private static void awaitParked(Thread t) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!(LockSupport.getBlocker(t) instanceof WriteCombiner)) {
      assertThat(System.nanoTime()).as("thread %s parks in the engine", t).isLessThan(deadline);
      Thread.sleep(1);
    }
  }

  private static Decision<String> noop(String result) {
    return new Decision<>(List.of(), Set.of(), result);
  }

  @Test
  void execute_decideThrowsError_queuedCallersStillComplete() throws Exception {
    Engine engine = open();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    List<Thread> callers = new ArrayList<>();
    ExecutorService pool =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r);
              t.setDaemon(true);
              synchronized (callers) {
                callers.add(t);
              }
              return t;
            });
    try {
      Future<Object> failing =
          pool.submit(
              () ->
                  engine.execute(
                      NS,
                      "t",
                      ctx -> {
                        entered.countDown();
                        try {
                          release.await();
                        } catch (InterruptedException e) {
                          throw new IllegalStateException(e);
                        }
                        throw new AssertionError("a bug in a command");
                      }));
      assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
      List<Future<String>> queued = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        String name = "q" + i;
        queued.add(pool.submit(() -> engine.execute(NS, "t", ctx -> noop(name))));
      }
      synchronized (callers) {
        for (Thread t : callers.subList(1, callers.size())) {
          awaitParked(t);
        }
      }
      release.countDown();

      assertThatThrownBy(() -> failing.get(5, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(AssertionError.class);
      for (Future<String> f : queued) {
        try {
          f.get(5, TimeUnit.SECONDS); // succeeding or failing are both fine; hanging is not
        } catch (ExecutionException e) {
          assertThat(e.getCause()).isInstanceOf(LociException.class);
        } catch (TimeoutException e) {
          throw new AssertionError("a caller queued behind the failing command never returned", e);
        }
      }
    } finally {
      synchronized (callers) {
        callers.forEach(LockSupport::unpark); // let stuck callers out so the test leaks nothing
      }
      pool.shutdownNow();
    }
  }
}
