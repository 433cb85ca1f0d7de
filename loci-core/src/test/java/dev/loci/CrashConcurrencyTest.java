package dev.loci;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.internal.FileJournal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many threads writing and reading one instance at once: every acknowledged write is in the journal
 * exactly once and in the state, chains stay consistent, sequence numbers count exactly the writes
 * that changed state, and a reopen rebuilds the identical state.
 */
class CrashConcurrencyTest {
  private static final LegalCapability LEGAL = new LegalCapability("test");
  private static final int THREADS = 8;
  private static final int OPS_PER_THREAD = 250;
  private static final int IDEMPOTENT_UIDS = 5;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<Namespace> SPACES = List.of(CrashFixture.ALPHA, CrashFixture.BETA);

  /** One acknowledged write as the calling thread saw it. */
  private record Write(String kind, Namespace ns, String target, String sent, Trace result) {}

  /** Once with one big segment, once with 1 KiB segments so that rolls race group commits. */
  @ParameterizedTest(name = "segments of {0} bytes")
  @ValueSource(longs = {FileJournal.DEFAULT_SEGMENT_BYTES, 1024})
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void mixedWritersAndReaders_loseAndDuplicateNothing_andReopenIdentical(
      long segmentBytes, @TempDir Path tmp) throws Exception {
    long seed = CrashFixture.BASE_SEED ^ System.nanoTime();
    CrashFixture.withSeed(seed, () -> runMixed(tmp.resolve("data"), segmentBytes, seed));
  }

  private void runMixed(Path dir, long segmentBytes, long seed) throws Exception {
    List<Trace> known = new CopyOnWriteArrayList<>();
    Set<String> retireClaimed = ConcurrentHashMap.newKeySet();
    List<Write> writes = Collections.synchronizedList(new ArrayList<>());
    Map<String, Trace> before;
    long lastSeq;
    try (Loci loci =
        Loci.builder().dataDir(dir).segmentBytes(segmentBytes).snapshotAfter(0).open()) {
      // a few traces to start from, so every thread can update and revise at once; the shared
      // idempotent uids exist before the race (a race on a new one is its own test below)
      for (Namespace ns : SPACES) {
        for (int i = 0; i < 4; i++) {
          String sent = "{\"seedling\":" + i + "}";
          Trace t = loci.traces().add(ns, sent, List.of("seedling"));
          known.add(t);
          writes.add(new Write("add", ns, t.uid(), sent, t));
        }
        for (int i = 0; i < IDEMPOTENT_UIDS; i++) {
          String sent = "{\"idem\":" + i + "}";
          Trace t = loci.traces().addIdempotent(ns, "idem-" + i, sent, List.of("idem"));
          known.add(t);
          writes.add(new Write("add", ns, t.uid(), sent, t));
        }
      }
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      try {
        CyclicBarrier start = new CyclicBarrier(THREADS);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < THREADS; w++) {
          long threadSeed = seed + w;
          int writer = w;
          done.add(
              pool.submit(
                  () -> {
                    start.await();
                    worker(loci, writer, new Random(threadSeed), known, retireClaimed, writes);
                    return null;
                  }));
        }
        for (Future<?> f : done) {
          f.get(50, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      // history reads are recorded as legal reads: batches of their own, not trace writes
      lastSeq = loci.lastSeq() - loci.legalReads().list(CrashFixture.ALL).size();
      before = CrashFixture.state(loci);
      checkAgainstWrites(loci, before, writes);
      checkHistories(loci, before);
    }
    assertThat(lastSeq).as("one sequence number per acknowledged write").isEqualTo(writes.size());
    checkJournal(dir, writes, before);
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(loci.lastSeq() - loci.legalReads().list(CrashFixture.ALL).size())
          .isEqualTo(lastSeq);
      assertThat(CrashFixture.state(loci)).as("state after reopen").isEqualTo(before);
    }
  }

  private static void worker(
      Loci loci,
      int w,
      Random r,
      List<Trace> known,
      Set<String> retireClaimed,
      List<Write> writes) {
    Traces traces = loci.traces();
    for (int i = 0; i < OPS_PER_THREAD; i++) {
      Namespace ns = SPACES.get(r.nextInt(SPACES.size()));
      List<Trace> inNs = known.stream().filter(t -> t.namespace().equals(ns)).toList();
      Trace target = inNs.get(r.nextInt(inNs.size()));
      String sent = "{\"w\":" + w + ",\"i\":" + i + "}";
      String tag = "t" + r.nextInt(3);
      int pick = r.nextInt(100);
      if (pick < 25) {
        Trace t = traces.add(ns, sent, List.of(tag));
        assertThat(traces.get(ns, t.uid())).as("read your own add").isEqualTo(t);
        known.add(t);
        writes.add(new Write("add", ns, t.uid(), sent, t));
      } else if (pick < 35) {
        String uid = "idem-" + r.nextInt(IDEMPOTENT_UIDS); // shared by all threads
        Trace t = traces.addIdempotent(ns, uid, sent, List.of(tag));
        assertThat(t.replayCount()).isGreaterThan(1);
        writes.add(new Write("replay", ns, uid, sent, t));
      } else if (pick < 55) {
        Trace t = traces.update(ns, target.uid(), sent);
        assertThat(t.content()).isEqualTo(sent);
        writes.add(new Write("update", ns, target.uid(), sent, t));
      } else if (pick < 70) {
        Trace t = traces.revise(ns, target.uid(), sent, List.of(tag));
        assertThat(t.predecessorUid()).contains(target.uid());
        known.add(t);
        writes.add(new Write("revise", ns, target.uid(), sent, t));
      } else if (pick < 75) {
        if (retireClaimed.add(CrashFixture.key(target))) {
          Trace t = traces.retire(ns, target.uid());
          assertThat(t.retired()).isTrue();
          writes.add(new Write("retire", ns, target.uid(), "", t));
        }
      } else if (pick < 90) {
        boolean retired = r.nextBoolean();
        Page<Trace> page =
            traces.search(
                TraceQuery.in(CrashFixture.ALL).tag(tag).includeRetired(retired).limit(50).build());
        Set<String> seen = new HashSet<>();
        Trace previous = null;
        for (Trace t : page.items()) {
          assertThat(seen.add(CrashFixture.key(t))).as("listed once").isTrue();
          assertThat(t.hasTag(tag)).isTrue();
          assertThat(retired || !t.retired()).as("retired only when asked").isTrue();
          if (previous != null) {
            assertThat(t.createdAt()).isAfterOrEqualTo(previous.createdAt());
          }
          previous = t;
        }
      } else {
        List<Trace> chain = traces.history(ns, target.uid(), LEGAL);
        for (int k = 0; k + 1 < chain.size(); k++) {
          assertThat(chain.get(k).predecessorUid()).contains(chain.get(k + 1).uid());
        }
        assertThat(chain.get(chain.size() - 1).predecessorUid()).isEmpty();
      }
    }
  }

  /** The final state against what the threads were told. */
  private static void checkAgainstWrites(Loci loci, Map<String, Trace> state, List<Write> writes) {
    long created = writes.stream().filter(w -> w.kind().matches("add|revise")).count();
    assertThat((long) state.size()).as("traces = adds + revises").isEqualTo(created);
    assertThat(loci.traces().count(CrashFixture.ALL)).isEqualTo(created);
    Map<String, Integer> replays = new HashMap<>();
    Map<String, Trace> latestUpdate = new HashMap<>();
    Set<String> retired = new HashSet<>();
    for (Write w : writes) {
      String key = w.ns().value() + " " + w.target();
      switch (w.kind()) {
        case "add", "revise" -> {
          Trace stored = state.get(CrashFixture.key(w.result()));
          assertThat(stored).as("created trace %s", w.result().uid()).isNotNull();
          assertThat(stored.createdAt()).isEqualTo(w.result().createdAt());
          assertThat(stored.predecessorUid()).isEqualTo(w.result().predecessorUid());
        }
        case "replay" -> replays.merge(key, 1, Integer::sum);
        case "update" ->
            latestUpdate.merge(
                key, w.result(), (a, b) -> a.updatedAt().isAfter(b.updatedAt()) ? a : b);
        case "retire" -> retired.add(key);
        default -> throw new IllegalStateException(w.kind());
      }
    }
    for (Trace t : state.values()) {
      String key = CrashFixture.key(t);
      assertThat(t.replayCount())
          .as("replays of %s", key)
          .isEqualTo(1 + replays.getOrDefault(key, 0));
      assertThat(t.retired()).as("retired %s", key).isEqualTo(retired.contains(key));
      Trace updated = latestUpdate.get(key);
      if (updated != null) {
        assertThat(t.updatedAt())
            .as("latest update time of %s", key)
            .isEqualTo(updated.updatedAt());
      }
    }
  }

  /** Every history is a chain of predecessors that ends at a root, made of current traces. */
  private static void checkHistories(Loci loci, Map<String, Trace> state) {
    for (Trace t : state.values()) {
      List<Trace> chain = loci.traces().history(t.namespace(), t.uid(), LEGAL);
      assertThat(chain.get(0)).isEqualTo(t);
      for (int k = 0; k < chain.size(); k++) {
        Trace step = chain.get(k);
        assertThat(state.get(CrashFixture.key(step))).isEqualTo(step);
        Optional<String> pred = step.predecessorUid();
        if (k + 1 < chain.size()) {
          assertThat(pred).as("step %d of %s", k, t.uid()).contains(chain.get(k + 1).uid());
        } else {
          assertThat(pred).as("chain of %s ends at a root", t.uid()).isEmpty();
        }
      }
    }
  }

  /**
   * The journal holds every acknowledged write exactly once, in an order whose replay gives the
   * final state: the last {@code trace.updated} of a uid is its current content.
   */
  private static void checkJournal(Path dir, List<Write> writes, Map<String, Trace> state)
      throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    long legalReads = 0;
    for (Path segment : CrashFixture.segments(dir)) {
      for (String line : Files.readAllLines(segment, UTF_8)) {
        JsonNode batch = JSON.readTree(line);
        assertThat(batch.get("seq").asLong()).isEqualTo(lines.size() + legalReads + 1L);
        if (batch.get("events").get(0).get("type").asText().startsWith("audit.")) {
          legalReads++;
        } else {
          lines.add(batch);
        }
      }
    }
    assertThat(lines).hasSize(writes.size());
    Map<String, Integer> created = new HashMap<>();
    Map<String, String> lastContent = new HashMap<>();
    List<String> updates = new ArrayList<>();
    List<String> retires = new ArrayList<>();
    List<String> replays = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      JsonNode batch = lines.get(i);
      assertThat(batch.get("events")).hasSize(1);
      JsonNode event = batch.get("events").get(0);
      JsonNode data = event.get("data");
      String key = batch.get("ns").asText() + " " + data.get("uid").asText();
      switch (event.get("type").asText()) {
        case "trace.added", "trace.revised" -> {
          created.merge(key, 1, Integer::sum);
          lastContent.put(key, data.get("content").asText());
        }
        case "trace.updated" -> {
          updates.add(key + " " + data.get("content").asText());
          lastContent.put(key, data.get("content").asText());
        }
        case "trace.retired" -> retires.add(key);
        case "trace.replayed" -> replays.add(key);
        default -> throw new AssertionError("unexpected event " + event);
      }
    }
    assertThat(created.values()).as("each trace created once").allMatch(n -> n == 1);
    assertThat(created.keySet())
        .containsExactlyInAnyOrderElementsOf(
            writes.stream()
                .filter(w -> w.kind().matches("add|revise"))
                .map(w -> CrashFixture.key(w.result()))
                .toList());
    assertThat(updates)
        .containsExactlyInAnyOrderElementsOf(
            writes.stream()
                .filter(w -> w.kind().equals("update"))
                .map(w -> w.ns().value() + " " + w.target() + " " + w.sent())
                .toList());
    assertThat(retires)
        .containsExactlyInAnyOrderElementsOf(
            writes.stream()
                .filter(w -> w.kind().equals("retire"))
                .map(w -> w.ns().value() + " " + w.target())
                .toList());
    assertThat(replays)
        .containsExactlyInAnyOrderElementsOf(
            writes.stream()
                .filter(w -> w.kind().equals("replay"))
                .map(w -> w.ns().value() + " " + w.target())
                .toList());
    lastContent.forEach(
        (key, content) ->
            assertThat(state.get(key).content()).as("content of %s", key).isEqualTo(content));
  }

  // ------------------------------------------------------------------ races on one uid

  /**
   * Exactly one of N concurrent addIdempotent calls of a new uid adds it; the others replay it, and
   * each caller is told a distinct replay count, 1 to N.
   */
  @RepeatedTest(5)
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void addIdempotent_sameUidFromManyThreads_makesOneTraceWithReplayCountN(@TempDir Path tmp)
      throws Exception {
    int n = 16;
    Namespace ns = CrashFixture.ALPHA;
    List<Trace> results =
        raceOnce(
            n,
            tmp,
            (loci, i) ->
                loci.traces().addIdempotent(ns, "same-uid", "{\"by\":" + i + "}", List.of("race")));
    assertThat(results)
        .extracting(Trace::replayCount)
        .as("each caller saw a distinct count")
        .containsExactlyInAnyOrderElementsOf(rangeClosed(1, n));
    Trace first = results.stream().filter(t -> t.replayCount() == 1).findFirst().orElseThrow();
    try (Loci loci = CrashFixture.open(tmp)) {
      assertThat(loci.traces().count(NamespaceScope.exactly(ns))).isEqualTo(1);
      Trace stored = loci.traces().get(ns, "same-uid");
      assertThat(stored.replayCount()).isEqualTo(n);
      assertThat(stored.content()).as("the first add's content is kept").isEqualTo(first.content());
      assertThat(loci.lastSeq()).isEqualTo(n);
    }
  }

  @RepeatedTest(5)
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void revise_samePredecessorFromManyThreads_allSucceedWithDistinctUids(@TempDir Path tmp)
      throws Exception {
    int n = 16;
    Namespace ns = CrashFixture.BETA;
    Trace root;
    try (Loci loci = CrashFixture.open(tmp)) {
      root = loci.traces().add(ns, "{\"root\":true}", List.of());
    }
    List<Trace> results =
        raceOnce(
            n,
            tmp,
            (loci, i) -> {
              if (i == 0) {
                return loci.traces()
                    .retire(ns, root.uid()); // a retired predecessor may still be revised
              }
              return loci.traces().revise(ns, root.uid(), "{\"rev\":" + i + "}", List.of());
            });
    List<Trace> revisions = results.subList(1, n);
    assertThat(revisions).extracting(Trace::uid).doesNotHaveDuplicates();
    assertThat(revisions).allSatisfy(t -> assertThat(t.predecessorUid()).contains(root.uid()));
    try (Loci loci = CrashFixture.open(tmp)) {
      assertThat(loci.lastSeq()).isEqualTo(1 + n);
      assertThat(loci.traces().count(NamespaceScope.exactly(ns))).isEqualTo(n);
      assertThat(loci.traces().get(ns, root.uid()).retired()).isTrue();
      for (Trace t : revisions) {
        assertThat(loci.traces().history(ns, t.uid(), LEGAL))
            .extracting(Trace::uid)
            .containsExactly(t.uid(), root.uid());
        assertThat(loci.traces().get(ns, t.uid())).isEqualTo(t);
      }
    }
  }

  /**
   * A caller thread that is interrupted (a cancelled request, an executor shut down) may see its
   * own write fail, but must not take the instance down for every other thread. FileChannel closes
   * itself when a thread blocked in it, or entering it, is interrupted.
   */
  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void interruptedWriter_doesNotStopOtherWriters(@TempDir Path tmp) throws Exception {
    try (Loci loci = CrashFixture.open(tmp)) {
      Trace before = loci.traces().add(CrashFixture.ALPHA, "{\"before\":true}", List.of());
      Thread interrupted =
          new Thread(
              () -> {
                Thread.currentThread().interrupt();
                try {
                  loci.traces().add(CrashFixture.ALPHA, "{\"interrupted\":true}", List.of());
                } catch (RuntimeException e) {
                  // the interrupted caller's own write may fail
                }
              });
      interrupted.start();
      interrupted.join();
      Trace after = loci.traces().add(CrashFixture.ALPHA, "{\"after\":true}", List.of());
      assertThat(loci.traces().get(CrashFixture.ALPHA, before.uid())).isEqualTo(before);
      assertThat(loci.traces().get(CrashFixture.ALPHA, after.uid())).isEqualTo(after);
    }
  }

  /**
   * {@link Loci} is thread-safe, so snapshots and compactions may be requested from several threads
   * (a scheduled compaction, an operator's, the one on close) while writers run. None may fail, and
   * the directory must reopen to the same state.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void snapshotAndCompact_fromSeveralThreadsWhileWriting_neverFail(@TempDir Path tmp)
      throws Exception {
    Map<String, Trace> before;
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    try (Loci loci = Loci.builder().dataDir(tmp).segmentBytes(1024).snapshotAfter(0).open()) {
      ExecutorService pool = Executors.newFixedThreadPool(6);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
          int writer = w;
          done.add(
              pool.submit(
                  () -> {
                    for (int i = 0; i < 300; i++) {
                      loci.traces()
                          .add(
                              CrashFixture.ALPHA,
                              "{\"w\":" + writer + ",\"i\":" + i + "}",
                              List.of());
                    }
                    return null;
                  }));
        }
        for (int m = 0; m < 4; m++) {
          boolean compact = m % 2 == 1;
          done.add(
              pool.submit(
                  () -> {
                    for (int k = 0; k < 15; k++) {
                      try {
                        if (compact) {
                          loci.compact();
                        } else {
                          loci.snapshot();
                        }
                      } catch (RuntimeException e) {
                        failures.add(e.toString());
                      }
                    }
                    return null;
                  }));
        }
        for (Future<?> f : done) {
          f.get(50, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      before = CrashFixture.state(loci);
    }
    assertThat(failures).isEmpty();
    assertThat(Loci.verify(tmp).damage()).isEmpty();
    try (Loci loci = CrashFixture.open(tmp)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(CrashFixture.state(loci)).isEqualTo(before);
    }
  }

  @FunctionalInterface
  private interface Racer {
    Trace run(Loci loci, int i);
  }

  /** Opens {@code dir}, runs {@code n} racers released together, closes; results by racer. */
  private static List<Trace> raceOnce(int n, Path dir, Racer racer) throws Exception {
    Trace[] results = new Trace[n];
    try (Loci loci = CrashFixture.open(dir)) {
      ExecutorService pool = Executors.newFixedThreadPool(n);
      try {
        CyclicBarrier start = new CyclicBarrier(n);
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          int me = i;
          done.add(
              pool.submit(
                  () -> {
                    start.await();
                    results[me] = racer.run(loci, me);
                    return null;
                  }));
        }
        for (Future<?> f : done) {
          f.get(20, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
    }
    return List.of(results);
  }

  private static List<Integer> rangeClosed(int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      out.add(i);
    }
    return out;
  }
}
