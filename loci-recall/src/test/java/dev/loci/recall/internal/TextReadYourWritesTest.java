package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text index is written after the exclusive apply ({@link TextBacklog}); these races pin what a
 * lexical recall must still see: a write is found as soon as it is acknowledged, and a superseded
 * or removed version is never returned, by the writer or by a reader running alongside.
 */
class TextReadYourWritesTest {
  static final Namespace NS = Namespace.of("acme.ryw");
  static final long SEED = 20261126L;
  static final int WRITERS = 4;
  static final int READERS = 2;
  static final int OPS = 100;

  @TempDir Path tmp;

  /** A word only version {@code v} of writer {@code w}'s node {@code n} holds. */
  static String token(int w, int n, int v) {
    return "q" + w + "n" + n + "v" + v + "z";
  }

  private static List<RecallItem> lexical(RecallMemory m, String word) {
    return m.recall(NS, RecallQuery.builder(word, RecallMode.LEXICAL).k(10).build()).items();
  }

  @Test
  void lexicalRecall_racingWritersAndReaders_findsEveryAcknowledgedWriteAndNoStaleVersion()
      throws Exception {
    Random seeds = new Random(SEED);
    List<String> written = new CopyOnWriteArrayList<>(); // every token ever acknowledged
    Queue<String> errors = new ConcurrentLinkedQueue<>();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger readerChecks = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
    try (Loci loci =
        Loci.builder().dataDir(tmp.resolve("data")).durability(Durability.none()).open()) {
      RecallMemory memory = RecallMemory.of(loci);
      loci.layer(RecallLayer.class).commitEvery(5); // commits race the writes too
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        long seed = seeds.nextLong();
        writers.add(
            pool.submit(
                () -> {
                  Random r = new Random(seed);
                  int[] versions = new int[4]; // 0: not live
                  for (int op = 0; op < OPS; op++) {
                    int n = r.nextInt(versions.length);
                    String id = "w" + writer + "-" + n;
                    String before = versions[n] == 0 ? null : token(writer, n, versions[n]);
                    if (versions[n] > 0 && r.nextInt(4) == 0) {
                      memory.removeNode(NS, id);
                      versions[n] = 0;
                      if (lexical(memory, before).stream()
                          .anyMatch(i -> i.node().id().equals(id))) {
                        errors.add("removed " + id + " still found by " + before);
                      }
                      continue;
                    }
                    int v = op + 1;
                    String word = token(writer, n, v);
                    memory.putNode(
                        NS, MemoryNode.builder(id, "unit", "shared words " + word).build());
                    versions[n] = v;
                    written.add(word);
                    List<RecallItem> found = lexical(memory, word);
                    if (found.stream().noneMatch(i -> i.node().id().equals(id))) {
                      errors.add("acknowledged " + id + " not found by " + word);
                    }
                    if (before != null
                        && lexical(memory, before).stream()
                            .anyMatch(i -> i.node().id().equals(id))) {
                      errors.add("superseded " + id + " still found by " + before);
                    }
                  }
                  return null;
                }));
      }
      List<Future<?>> readers = new ArrayList<>();
      for (int i = 0; i < READERS; i++) {
        long seed = seeds.nextLong();
        readers.add(
            pool.submit(
                () -> {
                  Random r = new Random(seed);
                  while (!stop.get()) {
                    if (written.isEmpty()) {
                      Thread.onSpinWait();
                      continue;
                    }
                    String word = written.get(r.nextInt(written.size()));
                    // every hit must hold the word in the version the graph holds now
                    for (RecallItem item : lexical(memory, word)) {
                      if (!item.node().content().contains(word)) {
                        errors.add(
                            "stale hit "
                                + item.node().id()
                                + " for "
                                + word
                                + ": now '"
                                + item.node().content()
                                + "'");
                      }
                    }
                    readerChecks.incrementAndGet();
                  }
                  return null;
                }));
      }
      for (Future<?> f : writers) {
        f.get(5, TimeUnit.MINUTES);
      }
      stop.set(true);
      for (Future<?> f : readers) {
        f.get(1, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(errors).as("seed " + SEED).isEmpty();
    assertThat(readerChecks.get()).isPositive();
    assertThat(written).hasSizeGreaterThan(WRITERS * OPS / 2);
  }
}
