package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.ConflictException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real races on one data directory: counters and version chains stay exact. */
class PathwayConcurrencyTest {
  static final Namespace NS = Namespace.of("race");

  @TempDir Path dir;

  @Test
  void concurrentReplaysAndRevisions_loseNothingAndForkNoChain() throws Exception {
    int threads = 8;
    int perThread = 50;
    AtomicInteger revised = new AtomicInteger();
    AtomicInteger conflicts = new AtomicInteger();
    String root;
    try (Loci loci = Loci.open(dir)) {
      PathwayMemory pathways = PathwayMemory.of(loci);
      PathwayTrace t =
          pathways.insert(NS, PathwayTrace.builder("scrum_review", "crates/a/b.rs")).trace();
      root = t.traceUid();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        int worker = w;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    if (worker % 2 == 0) {
                      pathways.recordReplay(NS, root, true);
                    } else {
                      // every reviser races to extend the chain from the head it last saw
                      // one read: the chain and its head from the same view
                      List<PathwayTrace> seen =
                          pathways.listVersions(NS, root, new LegalCapability("test"));
                      String head = seen.get(seen.size() - 1).traceUid();
                      try {
                        pathways.revise(NS, head, b -> b.finalVerdict("by " + worker));
                        revised.incrementAndGet();
                      } catch (ConflictException e) {
                        conflicts.incrementAndGet();
                      }
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get();
      }
      pool.shutdown();
    }
    try (Loci loci = Loci.open(dir)) {
      PathwayMemory pathways = PathwayMemory.of(loci);
      List<PathwayTrace> chain = pathways.listVersions(NS, root, new LegalCapability("test"));
      assertThat(chain).hasSize(1 + revised.get());
      for (int i = 0; i < chain.size(); i++) {
        assertThat(chain.get(i).version()).isEqualTo(i + 1);
        assertThat(chain.get(i).supersededAt().isPresent()).isEqualTo(i < chain.size() - 1);
      }
      assertThat(revised.get() + conflicts.get()).isEqualTo(threads / 2 * perThread);
      PathwayStats stats = pathways.stats(NamespaceScope.exactly(NS));
      assertThat(stats.headTraces()).as("no forked chain").isEqualTo(1);
      assertThat(stats.replays()).isEqualTo((long) threads / 2 * perThread);
      assertThat(stats.replaysSucceeded()).isEqualTo(stats.replays());
    }
  }
}
