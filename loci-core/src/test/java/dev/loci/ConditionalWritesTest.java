package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Versions, conditional writes, {@link Traces#addNew}, the public JSON form and the append
 * listener: what the HTTP server builds its ETags, 409s and metrics on.
 */
class ConditionalWritesTest {
  private static final Namespace NS = Namespace.of("acme.alice");
  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00.123456Z");

  @TempDir Path dir;
  private final TestClock clock = new TestClock(T0);
  private final AtomicInteger appendedBatches = new AtomicInteger();
  private final AtomicLong appendedNanos = new AtomicLong();
  private Loci loci;
  private Traces traces;

  @BeforeEach
  void open() {
    loci =
        Loci.builder()
            .dataDir(dir)
            .clock(clock)
            .appendListener(
                (batches, nanos) -> {
                  appendedBatches.addAndGet(batches);
                  appendedNanos.addAndGet(nanos);
                })
            .open();
    traces = loci.traces();
  }

  @AfterEach
  void close() {
    loci.close();
  }

  @Test
  void version_changesWithEveryChange_evenWithinOneMicrosecond() {
    Trace t = traces.add(NS, "{\"a\":1}", List.of("x"));
    Trace updated = traces.update(NS, t.uid(), "{\"a\":2}");
    Trace replayed = traces.addIdempotent(NS, t.uid(), "{}", List.of());
    Trace retired = traces.retire(NS, t.uid());

    List<String> versions =
        List.of(t.version(), updated.version(), replayed.version(), retired.version());
    assertThat(versions).doesNotHaveDuplicates().allMatch(v -> v.matches("[A-Za-z0-9_-]{22}"));
    assertThat(traces.get(NS, t.uid()).version()).isEqualTo(retired.version());
  }

  @Test
  void version_namesTheState_sameStateSameVersion() {
    Trace t = traces.add(NS, "{\"a\":1}", List.of());
    traces.update(NS, t.uid(), "{\"a\":2}");
    Trace back = traces.update(NS, t.uid(), "{\"a\":1}"); // same clock reading: same state

    assertThat(back).isEqualTo(t);
    assertThat(back.version()).isEqualTo(t.version());
    clock.advance(java.time.Duration.ofMillis(1));
    assertThat(traces.update(NS, t.uid(), "{\"a\":1}").version()).isNotEqualTo(t.version());
  }

  @Test
  void updateIfVersion_current_writes() {
    Trace t = traces.add(NS, "{\"a\":1}", List.of());
    Trace updated = traces.update(NS, t.uid(), "{\"a\":2}", t.version());
    assertThat(updated.content()).isEqualTo("{\"a\":2}");
  }

  @Test
  void updateIfVersion_stale_throwsAndChangesNothing() {
    Trace t = traces.add(NS, "{\"a\":1}", List.of());
    Trace other = traces.update(NS, t.uid(), "{\"a\":2}");

    assertThatThrownBy(() -> traces.update(NS, t.uid(), "{\"a\":3}", t.version()))
        .isInstanceOf(StaleVersionException.class)
        .isInstanceOf(ConflictException.class)
        .hasMessageContaining(t.uid())
        .hasMessageContaining(other.version());
    assertThat(traces.get(NS, t.uid())).isEqualTo(other);
    assertThat(loci.lastSeq()).isEqualTo(2);
  }

  @Test
  void reviseIfVersion_stalePredecessor_throwsAndAddsNothing() {
    Trace t = traces.add(NS, "{\"a\":1}", List.of());
    String stale = t.version();
    traces.retire(NS, t.uid());

    assertThatThrownBy(() -> traces.revise(NS, t.uid(), "{\"b\":1}", List.of(), stale))
        .isInstanceOf(StaleVersionException.class);
    assertThat(traces.count(NamespaceScope.exactly(NS))).isEqualTo(1);

    Trace current = traces.get(NS, t.uid());
    Trace revised = traces.revise(NS, t.uid(), "{\"b\":1}", List.of(), current.version());
    assertThat(revised.predecessorUid()).contains(t.uid());
  }

  @Test
  void reviseIfMatch_racedByManyThreads_exactlyOneWins_unconditionalMayStillFork()
      throws Exception {
    Trace t = traces.add(NS, "{\"a\":1}", List.of());
    String seen = t.version();
    int threads = 16;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(threads);
    List<java.util.concurrent.Future<Trace>> outcomes = new java.util.ArrayList<>();
    for (int i = 0; i < threads; i++) {
      int n = i;
      outcomes.add(
          pool.submit(
              () -> {
                start.await();
                return traces.revise(NS, t.uid(), "{\"b\":" + n + "}", List.of(), seen);
              }));
    }
    int won = 0;
    for (java.util.concurrent.Future<Trace> f : outcomes) {
      try {
        f.get();
        won++;
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause())
            .isInstanceOf(StaleVersionException.class)
            .hasMessageContaining("already revised");
      }
    }
    pool.shutdown();
    assertThat(won).as("conditional revisions of one version").isEqualTo(1);
    assertThat(traces.count(NamespaceScope.exactly(NS))).isEqualTo(2);

    // without a condition, ADR-004 allows a second branch from the same predecessor
    traces.revise(NS, t.uid(), "{\"c\":1}", List.of());
    assertThat(traces.count(NamespaceScope.exactly(NS))).isEqualTo(3);
    // and the refusal survives a restart: the successor index is rebuilt from the journal
    loci.close();
    loci = Loci.builder().dataDir(dir).open();
    traces = loci.traces();
    assertThatThrownBy(() -> traces.revise(NS, t.uid(), "{\"d\":1}", List.of(), seen))
        .isInstanceOf(StaleVersionException.class);
  }

  @Test
  void retireIfVersion_stale_throwsAndChangesNothing() {
    Trace t = traces.add(NS, "{\"a\":1}", List.of());
    traces.addIdempotent(NS, t.uid(), "{}", List.of());

    assertThatThrownBy(() -> traces.retire(NS, t.uid(), t.version()))
        .isInstanceOf(StaleVersionException.class);
    assertThat(traces.get(NS, t.uid()).retired()).isFalse();
  }

  @Test
  void updateIfVersion_racingWriters_exactlyOneWins() throws Exception {
    Trace t = traces.add(NS, "{\"n\":0}", List.of());
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        int n = i + 1;
        results.add(
            pool.submit(
                () -> {
                  try {
                    traces.update(NS, t.uid(), "{\"n\":" + n + "}", t.version());
                    return true;
                  } catch (StaleVersionException e) {
                    return false;
                  }
                }));
      }
      int wins = 0;
      for (Future<Boolean> f : results) {
        wins += f.get() ? 1 : 0;
      }
      assertThat(wins).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void addNew_freeUid_addsWithReplayCountOne() {
    Trace t = traces.addNew(NS, "order-1", "{\"a\":1}", List.of("t"));
    assertThat(t.uid()).isEqualTo("order-1");
    assertThat(t.replayCount()).isEqualTo(1);
  }

  @Test
  void addNew_takenUid_throwsConflictAndChangesNothing() {
    Trace t = traces.addNew(NS, "order-1", "{\"a\":1}", List.of());

    assertThatThrownBy(() -> traces.addNew(NS, "order-1", "{\"a\":2}", List.of()))
        .isInstanceOf(ConflictException.class)
        .isNotInstanceOf(StaleVersionException.class)
        .hasMessageContaining("order-1");
    assertThat(traces.get(NS, "order-1")).isEqualTo(t);
    assertThat(traces.addNew(Namespace.of("other"), "order-1", "{}", List.of()).uid())
        .isEqualTo("order-1");
  }

  @Test
  void addNew_badUid_namesUid() {
    assertThatThrownBy(() -> traces.addNew(NS, "no spaces", "{}", List.of()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("uid: ");
  }

  @Test
  void toJson_firstVersion_snakeCaseWithContentAsValue() throws Exception {
    Trace t = traces.add(NS, "{\"text\": \"caf\u00e9 \\\"q\\\"\"}", List.of("a", "b"));
    JsonNode json = new ObjectMapper().readTree(t.toJson());

    assertThat(json.get("uid").asText()).isEqualTo(t.uid());
    assertThat(json.get("namespace").asText()).isEqualTo("acme.alice");
    assertThat(json.get("content").get("text").asText()).isEqualTo("caf\u00e9 \"q\"");
    assertThat(json.has("predecessor_uid")).isFalse();
    assertThat(json.get("created_at").asText()).isEqualTo("2026-11-22T10:00:00.123456Z");
    assertThat(json.get("updated_at").asText()).isEqualTo("2026-11-22T10:00:00.123456Z");
    assertThat(json.get("retired").asBoolean()).isFalse();
    assertThat(json.get("replay_count").asInt()).isEqualTo(1);
    assertThat(json.get("tags").toString()).isEqualTo("[\"a\",\"b\"]");
  }

  @Test
  void toJson_revision_carriesPredecessorUid() throws Exception {
    Trace t = traces.add(NS, "1", List.of());
    Trace r = traces.revise(NS, t.uid(), "2", List.of());
    JsonNode json = new ObjectMapper().readTree(r.toJson());
    assertThat(json.get("predecessor_uid").asText()).isEqualTo(t.uid());
    assertThat(json.get("content").asInt()).isEqualTo(2);
  }

  @Test
  void appendListener_toldOfEveryDurableBatch() {
    traces.add(NS, "{}", List.of());
    traces.add(NS, "{}", List.of());
    assertThat(appendedBatches.get()).isEqualTo(2);
    assertThat(appendedNanos.get()).isPositive();
  }

  @Test
  void total_countsEveryNamespace() {
    traces.add(NS, "{}", List.of());
    traces.add(Namespace.of("globex"), "{}", List.of());
    traces.add(Namespace.of("acme.bob"), "{}", List.of());
    assertThat(traces.total()).isEqualTo(3);
  }
}
