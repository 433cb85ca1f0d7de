package dev.loci.recall;

import dev.loci.Namespace;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Embeds the nodes an ingest has written on a thread of its own while the ingest writes its next
 * journal batch, so the model and the journal work at the same time instead of one after the other.
 *
 * <p>The ingesting thread calls {@link #written} after each journal batch returns (durable and
 * applied); that queues one embedding pass over the namespace unless one is already queued and not
 * yet started (a pass embeds every node missing a vector when it starts, so passes coalesce while
 * the model is behind). {@link #finish} waits for the queued passes and rethrows the first failure.
 * The journal sees exactly the batches of a plain ingest; vectors are derived data (the vector
 * index and the embedding cache), so a crash loses at most vectors that the next embed or recall
 * computes again.
 *
 * <p>Used by one ingesting thread; the passes run on one daemon thread, which {@link #close} lets
 * finish its current pass rather than interrupting it (an interrupt during a positional write would
 * close the embedding cache's file channel).
 */
final class EmbeddingOverlap implements AutoCloseable {
  private final Consumer<Namespace> pass;
  private final ExecutorService worker;
  private final Set<Namespace> queued = ConcurrentHashMap.newKeySet();
  private final List<Future<?>> passes = new ArrayList<>();

  /** {@code pass} embeds what a namespace lacks at the moment it is called. */
  EmbeddingOverlap(Consumer<Namespace> pass) {
    this.pass = pass;
    this.worker =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "loci-ingest-embedding");
              t.setDaemon(true);
              return t;
            });
  }

  /** A journal batch that wrote nodes of {@code ns} has returned. */
  void written(Namespace ns) {
    passes.removeIf(Future::isDone);
    if (queued.add(ns)) {
      passes.add(
          worker.submit(
              () -> {
                queued.remove(ns);
                pass.accept(ns);
              }));
    }
  }

  /**
   * Waits for every queued pass.
   *
   * @throws RuntimeException the first pass's failure, as it was thrown
   */
  void finish() {
    boolean interrupted = false;
    try {
      for (Future<?> f : List.copyOf(passes)) {
        while (true) {
          try {
            f.get();
            break;
          } catch (InterruptedException e) {
            interrupted = true;
          } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
              throw r;
            }
            if (e.getCause() instanceof Error err) {
              throw err;
            }
            throw new IllegalStateException(e.getCause());
          }
        }
      }
      passes.clear();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Lets the running pass end, drops the queued ones and stops the thread. */
  @Override
  public void close() {
    passes.forEach(f -> f.cancel(false));
    worker.shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        if (worker.awaitTermination(1, TimeUnit.MINUTES)) {
          break;
        }
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
