package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Flat combining under load: many threads on few keys, so rounds defer commands; every caller
 * returns, no update is lost, and the journal replays to the same state. And close() racing with
 * writers: every writer returns, acknowledged writes survive.
 */
class EngineStressTest {
  private static final Namespace NS = CrashFixture.ALPHA;

  static java.util.stream.LongStream seeds() {
    return CrashFixture.seeds(3);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void execute_manyThreadsFewKeys_everyCallerReturnsAndNoReplayIsLost(
      long seed, @TempDir Path dir) {
    CrashFixture.withSeed(
        seed,
        () -> {
          int threads = 12;
          int perThread = 150;
          int uids = 4;
          Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
          Map<String, Trace> state;
          try (Loci loci = CrashFixture.open(dir)) {
            Traces traces = loci.traces();
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
              Random r = new Random(seed + i);
              futures.add(
                  pool.submit(
                      () -> {
                        start.await();
                        for (int k = 0; k < perThread; k++) {
                          int pick = r.nextInt(10);
                          if (pick < 6) {
                            String uid = "u" + r.nextInt(uids);
                            traces.addIdempotent(NS, uid, "{\"k\":" + k + "}", List.of());
                            calls.computeIfAbsent(uid, u -> new AtomicLong()).incrementAndGet();
                          } else if (pick < 8) {
                            traces.add(NS, "{\"k\":" + k + "}", List.of("t" + r.nextInt(3)));
                          } else {
                            String uid = "u" + r.nextInt(uids);
                            if (traces.find(NS, uid).isPresent()) {
                              traces.update(NS, uid, "{\"upd\":" + k + "}");
                            }
                          }
                        }
                        return null;
                      }));
            }
            start.countDown();
            for (Future<?> f : futures) {
              try {
                f.get(40, TimeUnit.SECONDS);
              } catch (TimeoutException e) {
                throw new AssertionError("a writer never returned: lost wakeup", e);
              }
            }
            pool.shutdown();
            for (Map.Entry<String, AtomicLong> e : calls.entrySet()) {
              assertThat(traces.get(NS, e.getKey()).replayCount())
                  .as("replay count of %s equals the number of addIdempotent calls", e.getKey())
                  .isEqualTo(e.getValue().get());
            }
            state = CrashFixture.state(loci);
          }
          try (Loci loci = CrashFixture.open(dir)) {
            assertThat(loci.openDamage()).isEmpty();
            assertThat(CrashFixture.state(loci)).isEqualTo(state);
          }
        });
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void close_racingWithWriters_everyWriterReturnsAndAcknowledgedWritesSurvive(@TempDir Path tmp)
      throws Exception {
    long seed = CrashFixture.BASE_SEED;
    CrashFixture.withSeed(
        seed,
        () -> {
          Random r = new Random(seed);
          for (int round = 0; round < 60; round++) {
            Path dir = tmp.resolve("r" + round);
            Set<String> acked = ConcurrentHashMap.newKeySet();
            Loci loci =
                Loci.builder().dataDir(dir).durability(Durability.none()).snapshotAfter(0).open();
            int threads = 6;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Throwable>> futures = new ArrayList<>();
            CountDownLatch running = new CountDownLatch(threads);
            for (int i = 0; i < threads; i++) {
              futures.add(
                  pool.submit(
                      () -> {
                        running.countDown();
                        try {
                          while (true) {
                            acked.add(loci.traces().add(NS, "1", List.of()).uid());
                          }
                        } catch (RuntimeException e) {
                          return e;
                        }
                      }));
            }
            running.await();
            Thread.sleep(r.nextInt(5));
            loci.close();
            for (Future<Throwable> f : futures) {
              Throwable end;
              try {
                end = f.get(10, TimeUnit.SECONDS);
              } catch (TimeoutException e) {
                throw new AssertionError("round " + round + ": a writer hangs after close", e);
              }
              assertThat(end)
                  .as("round %d: why a writer stopped", round)
                  .isInstanceOf(StorageException.class)
                  .hasMessageNotContaining("internal error");
            }
            pool.shutdown();
            try (Loci reopened = CrashFixture.open(dir)) {
              assertThat(reopened.openDamage()).as("round %d", round).isEmpty();
              for (String uid : acked) {
                assertThat(reopened.traces().find(NS, uid))
                    .as("round %d: acknowledged %s", round, uid)
                    .isPresent();
              }
            }
          }
        });
  }
}
