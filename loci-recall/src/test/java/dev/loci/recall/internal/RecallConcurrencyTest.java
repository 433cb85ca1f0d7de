package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.RecordVersion;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recall computing vectors outside the engine's lock while writes, snapshots, index commits and
 * close run at the same time: real threads on a real data directory, two embedding models.
 */
class RecallConcurrencyTest {
  static final Namespace NS = Namespace.of("acme.race");
  static final String[] WORDS = RecallIndexTest.WORDS;
  static final long SEED = 20261123L;

  @TempDir Path tmp;

  /** A second model: the hashing vector of the text with a fixed word in front. */
  static final class SaltedProvider implements EmbeddingProvider {
    private final HashingEmbeddingProvider hashing = HashingEmbeddingProvider.create();

    @Override
    public String modelId() {
      return "salted-hashing-test-1";
    }

    @Override
    public int dimension() {
      return hashing.dimension();
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      return hashing.embedDocuments(texts.stream().map(t -> "salt " + t).toList());
    }
  }

  /** Hashing vectors, except that while armed each call waits at a gate until released. */
  static final class GatedProvider implements EmbeddingProvider {
    private final HashingEmbeddingProvider hashing = HashingEmbeddingProvider.create();
    volatile boolean armed;
    final AtomicInteger texts = new AtomicInteger();
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public String modelId() {
      return hashing.modelId();
    }

    @Override
    public int dimension() {
      return hashing.dimension();
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      this.texts.addAndGet(texts.size());
      if (armed) {
        entered.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return hashing.embedDocuments(texts);
    }
  }

  private static String text(Random r, int words) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < words; i++) {
      b.append(i == 0 ? "" : " ").append(WORDS[r.nextInt(WORDS.length)]);
    }
    return b.toString();
  }

  /** One writer's nodes: only that writer puts, changes and removes them. */
  private static final class Writer implements Runnable {
    final int index;
    final RecallMemory memory;
    final Random random;
    final AtomicBoolean stop;
    final Set<String> gone;
    final List<String> live = new ArrayList<>();
    final List<String> revivable = new ArrayList<>();
    int next;
    volatile int ops; // written by its thread only, read by the test thread

    Writer(int index, RecallMemory memory, AtomicBoolean stop, Set<String> gone) {
      this.index = index;
      this.memory = memory;
      this.random = new Random(SEED + index);
      this.stop = stop;
      this.gone = gone;
    }

    void putNew() {
      String id = "w" + index + "-" + next++;
      memory.putNode(NS, MemoryNode.builder(id, "unit", text(random, 6)).build());
      live.add(id);
    }

    /**
     * A live node, half the time one of the newest: another model may still be embedding it, which
     * is the race under test.
     */
    int pick() {
      return random.nextBoolean()
          ? live.size() - 1 - random.nextInt(Math.min(3, live.size()))
          : random.nextInt(live.size());
    }

    @Override
    public void run() {
      while (!stop.get()) {
        ops++;
        int op = random.nextInt(100);
        if (live.size() < 60 || live.size() < 100 && op < 25) {
          putNew();
        } else if (op < 45) {
          String id = live.get(pick());
          memory.putNode(NS, MemoryNode.builder(id, "unit", text(random, 6)).build());
        } else if (op < 60) {
          String from = live.get(random.nextInt(live.size()));
          String to = live.get(random.nextInt(live.size()));
          if (!from.equals(to)) {
            memory.putEdge(NS, MemoryEdge.of(from, to, "next_unit", 0.7));
          }
        } else if (op < 80) {
          String id = live.remove(pick());
          memory.removeNode(NS, id);
          if (random.nextBoolean()) {
            gone.add(id); // never put again
          } else {
            revivable.add(id);
          }
        } else if (!revivable.isEmpty()) {
          String id = revivable.remove(random.nextInt(revivable.size()));
          memory.putNode(NS, MemoryNode.builder(id, "unit", text(random, 6)).build());
          live.add(id);
        }
      }
    }
  }

  @Test
  void recallWritesSnapshotsAndCommits_concurrently_leaveEveryLiveNodeWithItsCurrentVector()
      throws Exception {
    Path dir = tmp.resolve("data");
    // (recall_nodesChangedOrRemovedWhileItEmbeds_... pins the narrow window between reading a
    // node and storing its vector; this test races everything else)
    EmbeddingProvider hashing = HashingEmbeddingProvider.create();
    EmbeddingProvider salted = new SaltedProvider();
    Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
    Set<String> gone = ConcurrentHashMap.newKeySet();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger recalls = new AtomicInteger();
    AtomicInteger snapshots = new AtomicInteger();
    AtomicInteger checks = new AtomicInteger();
    List<Writer> writers = new ArrayList<>();
    try (Loci loci =
        Loci.builder().dataDir(dir).durability(Durability.none()).snapshotAfter(0).open()) {
      RecallLayer layer = loci.layer(RecallLayer.class);
      layer.commitEvery(60_000); // not while filling
      // the namespace hovers around this many vectors, so searches switch between HNSW and the scan
      layer.exactBelow(150);
      List<RecallMemory> memories =
          List.of(RecallMemory.of(loci, hashing), RecallMemory.of(loci, salted));
      for (int w = 0; w < 2; w++) {
        Writer writer = new Writer(w, memories.get(w), stop, gone);
        for (int i = 0; i < 70; i++) {
          writer.putNew();
        }
        writers.add(writer);
      }
      layer.commitEvery(200); // index commits race the writes and recalls below
      List<Thread> threads = new ArrayList<>();
      for (Writer w : writers) {
        threads.add(new Thread(guarded(w::run, errors), "writer-" + w.index));
      }
      for (int t = 0; t < 4; t++) {
        RecallMemory memory = memories.get(t % 2);
        Random random = new Random(SEED + 100 + t);
        threads.add(
            new Thread(
                guarded(
                    () -> {
                      while (!stop.get()) {
                        RecallMode mode =
                            random.nextBoolean() ? RecallMode.EMBEDDING : RecallMode.HYBRID;
                        Set<String> goneBefore = Set.copyOf(gone);
                        List<String> ids =
                            memory
                                .recall(
                                    NS, RecallQuery.builder(text(random, 3), mode).k(10).build())
                                .ids();
                        for (String id : ids) {
                          if (goneBefore.contains(id)) {
                            throw new AssertionError(
                                mode + " recall returned " + id + ", removed before it began");
                          }
                        }
                        recalls.incrementAndGet();
                      }
                    },
                    errors),
                "recall-" + t));
      }
      // in one view of the engine, every stored vector is that of a live node's current content
      threads.add(
          new Thread(
              guarded(
                  () -> {
                    while (!stop.get()) {
                      for (RecallMemory m : memories) {
                        assertVectorsMatch(loci, m.embeddings(), false);
                      }
                      checks.incrementAndGet();
                      Thread.sleep(20);
                    }
                  },
                  errors),
              "checker"));
      threads.add(
          new Thread(
              guarded(
                  () -> {
                    while (!stop.get()) {
                      loci.snapshot();
                      snapshots.incrementAndGet();
                      Thread.sleep(50);
                    }
                  },
                  errors),
              "snapshot"));
      threads.forEach(Thread::start);
      // race for 4 s, and on a loaded machine on until every thread has had its turns (up to 60 s)
      long start = System.nanoTime();
      while (errors.isEmpty()
          && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60)
          && (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(4)
              || recalls.get() <= 4
              || snapshots.get() <= 2
              || checks.get() <= 2
              || writers.get(0).ops + writers.get(1).ops <= 10)) {
        Thread.sleep(50);
      }
      stop.set(true);
      for (Thread t : threads) {
        t.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(t.isAlive()).as("%s still running", t.getName()).isFalse();
      }
      assertThat(errors).as(() -> describe(errors)).isEmpty();
      assertThat(recalls.get()).as("recalls").isGreaterThan(4);
      assertThat(snapshots.get()).as("snapshots").isGreaterThan(2);
      assertThat(checks.get()).as("checks").isGreaterThan(2);
      assertThat(writers.get(0).ops + writers.get(1).ops).as("writes").isGreaterThan(10);
      for (RecallMemory m : memories) {
        assertVectorsMatch(loci, m.embeddings(), false);
        m.embed(NS, RecallMemory.Progress.NONE);
      }
      for (RecallMemory m : memories) {
        assertVectorsMatch(loci, m.embeddings(), true);
        for (RecallMode mode : List.of(RecallMode.EMBEDDING, RecallMode.HYBRID, RecallMode.PPR)) {
          for (RecallItem item :
              m.recall(NS, RecallQuery.builder("refund contract outage", mode).k(20).build())
                  .items()) {
            assertThat(m.node(NS, item.node().id()))
                .as("%s returned a live node", mode)
                .isPresent();
            assertThat(gone).doesNotContain(item.node().id());
          }
        }
      }
    }
    // what close committed: only current vectors, whether reused or caught up
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      for (EmbeddingProvider p : List.of(hashing, salted)) {
        RecallMemory m = RecallMemory.of(loci, p);
        assertVectorsMatch(loci, p, false);
        m.embed(NS, RecallMemory.Progress.NONE);
        assertVectorsMatch(loci, p, true);
      }
    }
  }

  /**
   * Every vector document of {@code provider}'s model is for a live node at its current version and
   * equals the provider's vector of its current content, one per node; {@code complete}: every live
   * node has one.
   */
  private static void assertVectorsMatch(Loci loci, EmbeddingProvider provider, boolean complete) {
    loci.executor()
        .read(
            () -> {
              assertVectorsMatch(loci.layer(RecallLayer.class), provider, complete);
              return null;
            });
  }

  /** {@link #assertVectorsMatch(Loci, EmbeddingProvider, boolean)}, holding the shared lock. */
  private static void assertVectorsMatch(
      RecallLayer layer, EmbeddingProvider provider, boolean complete) {
    List<VectorIndex.Stored> stored = layer.storedVectors(provider.modelId(), NS);
    Map<String, RecordVersion<MemoryNode>> live = new HashMap<>();
    layer
        .nodesAfter(NS, Optional.empty(), Integer.MAX_VALUE)
        .orElseThrow()
        .forEach(v -> live.put(v.value().id(), v));
    Map<String, VectorIndex.Stored> byId = new HashMap<>();
    for (VectorIndex.Stored s : stored) {
      assertThat(byId.put(s.id(), s))
          .as("%s: a second vector of %s", provider.modelId(), s.id())
          .isNull();
      RecordVersion<MemoryNode> v = live.get(s.id());
      assertThat(v)
          .as("%s: a vector of %s, which is not live", provider.modelId(), s.id())
          .isNotNull();
      assertThat(s.version())
          .as("%s: the version of the vector of %s", provider.modelId(), s.id())
          .isEqualTo(v.version());
      assertThat(s.vector())
          .as("%s: the vector of %s", provider.modelId(), s.id())
          .containsExactly(provider.embedDocuments(List.of(v.value().content())).get(0));
    }
    if (complete) {
      assertThat(byId.keySet())
          .as("%s: nodes with a vector", provider.modelId())
          .isEqualTo(live.keySet());
    }
  }

  /**
   * Runs {@code call} on a new thread, its outcome (value or throwable) going to {@code outcome},
   * and returns once the thread waits in {@code gated}'s model.
   */
  private static Thread startEmbedding(
      GatedProvider gated, Callable<?> call, AtomicReference<Object> outcome) throws Exception {
    gated.armed = true;
    Thread t =
        new Thread(
            () -> {
              try {
                outcome.set(call.call());
              } catch (Throwable e) {
                outcome.set(e);
              }
            },
            "embedding");
    t.start();
    assertThat(gated.entered.await(10, TimeUnit.SECONDS)).as("the call is embedding").isTrue();
    return t;
  }

  /** Lets {@code embedding} go on, waits for it, and returns its outcome. */
  private static Object finish(
      GatedProvider gated, Thread embedding, AtomicReference<Object> outcome)
      throws InterruptedException {
    gated.release.countDown();
    embedding.join(TimeUnit.SECONDS.toMillis(10));
    assertThat(embedding.isAlive()).as("still embedding").isFalse();
    gated.armed = false;
    return outcome.get();
  }

  /** An embedding recall of "refund". */
  private static RecallResult refund(RecallMemory m) {
    return m.recall(NS, RecallQuery.builder("refund", RecallMode.EMBEDDING).build());
  }

  /** Opens {@code dir} again: "refund" recalls {@code id}, and every vector is current. */
  private static void assertReopens(Path dir, GatedProvider gated, String id) {
    try (Loci loci = Loci.open(dir)) {
      RecallMemory m = RecallMemory.of(loci, gated);
      assertThat(refund(m).ids()).contains(id);
      assertVectorsMatch(loci, gated, true);
    }
  }

  @Test
  void recall_embeddingWhileTheInstanceCloses_failsAndLeavesNoIndexOpen() throws Exception {
    Path dir = tmp.resolve("data");
    GatedProvider gated = new GatedProvider();
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread recall;
    try (Loci loci = Loci.open(dir)) {
      RecallMemory slow = RecallMemory.of(loci, gated);
      Random r = new Random(SEED);
      for (int i = 0; i < 20; i++) {
        slow.putNode(NS, MemoryNode.builder("n" + i, "unit", text(r, 6)).build());
      }
      // written and embedded by another model's memory, so the gated one still lacks its vector
      RecallMemory.of(loci, new SaltedProvider())
          .putNode(NS, MemoryNode.builder("late", "unit", "refund contract").build());
      recall = startEmbedding(gated, () -> refund(slow), outcome);
    }
    // before the fix the late vector reopened the closed index (a writer holding its lock), the
    // recall answered, and the reopen below failed: "Lock held by this virtual machine"
    assertThat(finish(gated, recall, outcome))
        .as("a recall whose vectors arrive after close")
        .isInstanceOf(StorageException.class)
        .hasFieldOrPropertyWithValue("message", "this Loci instance is closed");
    assertReopens(dir, gated, "late");
  }

  @Test
  void putNode_embeddingWhileTheInstanceCloses_returnsTheDurableVersion() throws Exception {
    Path dir = tmp.resolve("data");
    GatedProvider gated = new GatedProvider();
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread put;
    try (Loci loci = Loci.open(dir)) {
      RecallMemory slow = RecallMemory.of(loci, gated);
      put =
          startEmbedding(
              gated,
              () -> slow.putNode(NS, MemoryNode.builder("a", "unit", "refund").build()),
              outcome);
    }
    assertThat(finish(gated, put, outcome)).isInstanceOf(RecordVersion.class);
    assertReopens(dir, gated, "a");
  }

  @Test
  void recall_nodesChangedOrRemovedWhileItEmbeds_storesNoVectorOfTheirOldText() throws Exception {
    GatedProvider gated = new GatedProvider();
    AtomicReference<Object> outcome = new AtomicReference<>();
    try (Loci loci = Loci.open(tmp.resolve("data"))) {
      RecallMemory slow = RecallMemory.of(loci, gated);
      RecallMemory other = RecallMemory.of(loci, new SaltedProvider());
      other.putNode(NS, MemoryNode.builder("changed", "unit", "refund delay").build());
      other.putNode(NS, MemoryNode.builder("removed", "unit", "refund notice").build());
      Thread recall = startEmbedding(gated, () -> refund(slow), outcome);
      other.putNode(NS, MemoryNode.builder("changed", "unit", "audit ledger").build());
      other.removeNode(NS, "removed");
      assertThat(finish(gated, recall, outcome))
          .isInstanceOfSatisfying(
              RecallResult.class, r -> assertThat(r.ids()).doesNotContain("removed"));
      assertVectorsMatch(loci, gated, false);
      assertThat(slow.embed(NS, RecallMemory.Progress.NONE)).isEqualTo(1);
      assertVectorsMatch(loci, gated, true);
    }
  }

  @Test
  void recall_nodesWrittenWhileItEmbeds_areLeftToTheNextCall() throws Exception {
    // regression: recall embedded until nothing was missing, so a stream of writes (an ingest)
    // arriving faster than the model embeds held it for as long as the stream lasted
    GatedProvider gated = new GatedProvider();
    AtomicReference<Object> outcome = new AtomicReference<>();
    try (Loci loci = Loci.open(tmp.resolve("data"))) {
      RecallMemory slow = RecallMemory.of(loci, gated);
      RecallMemory other = RecallMemory.of(loci, new SaltedProvider());
      other.putNode(NS, MemoryNode.builder("first", "unit", "refund").build());
      Thread recall = startEmbedding(gated, () -> refund(slow), outcome);
      Random r = new Random(SEED);
      for (int i = 0; i < 300; i++) {
        other.putNode(NS, MemoryNode.builder("n" + i, "unit", text(r, 6)).build());
      }
      assertThat(finish(gated, recall, outcome)).isInstanceOf(RecallResult.class);
      assertThat(gated.texts.get())
          .as("texts embedded: the missing node, then the query")
          .isEqualTo(2);
      assertThat(slow.embed(NS, RecallMemory.Progress.NONE)).isEqualTo(300);
      assertVectorsMatch(loci, gated, true);
    }
  }

  @Test
  void recall_afterClose_failsNamingTheClose() {
    RecallMemory m;
    try (Loci loci = Loci.open(tmp.resolve("data"))) {
      m = RecallMemory.of(loci);
      m.putNode(NS, MemoryNode.builder("a", "unit", "refund").build());
    }
    assertThatThrownBy(() -> m.recall(NS, RecallQuery.builder("refund", RecallMode.HYBRID).build()))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("closed");
  }

  @FunctionalInterface
  private interface Body {
    void run() throws Exception;
  }

  private static Runnable guarded(Body body, Queue<Throwable> errors) {
    return () -> {
      try {
        body.run();
      } catch (Throwable e) {
        errors.add(e);
      }
    };
  }

  private static String describe(Queue<Throwable> errors) {
    StringWriter out = new StringWriter();
    errors.forEach(e -> e.printStackTrace(new PrintWriter(out)));
    return "seed " + SEED + ":\n" + out;
  }
}
