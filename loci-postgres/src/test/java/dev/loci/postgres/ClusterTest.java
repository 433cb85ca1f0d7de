package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Page;
import dev.loci.StaleVersionException;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.spi.JournalUnavailableException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several Loci instances, each with its own data directory, over one PostgreSQL journal. */
class ClusterTest {
  private static final Namespace NS = Namespace.of("acme");

  private TestDatabase db;

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_cluster");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  private Loci server(String name) {
    return Loci.builder()
        .dataDir(dir.resolve(name))
        .journal(d -> PostgresJournal.open(db.url()))
        .open();
  }

  @Test
  void follow_writesOfAnotherServer_appliedWithoutBeingAsked() throws Exception {
    AtomicReference<PostgresJournal> journal = new AtomicReference<>();
    try (Loci a = server("a");
        Loci b =
            Loci.builder()
                .dataDir(dir.resolve("b"))
                .journal(
                    d -> {
                      journal.set(PostgresJournal.open(db.url()));
                      return journal.get();
                    })
                .open();
        AutoCloseable following = journal.get().follow(b::tryCatchUp, Duration.ofMillis(200))) {
      List<Trace> written = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        written.add(a.traces().add(NS, "{\"n\":" + i + "}", List.of("x")));
      }
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (b.lastSeq() < a.lastSeq() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      for (Trace t : written) {
        assertThat(b.traces().get(NS, t.uid())).isEqualTo(t);
      }
      assertThat(b.sharedHead()).hasValue(a.lastSeq());
    }
  }

  @Test
  void writes_whileTheDatabaseCutsConnections_failCleanlyThenResumeAndLoseNothingAcknowledged()
      throws Exception {
    Map<String, String> acknowledged = new ConcurrentHashMap<>(); // uid -> content
    Set<String> failed = ConcurrentHashMap.newKeySet();
    AtomicBoolean stop = new AtomicBoolean();
    try (Loci a = server("a")) {
      List<Thread> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        Thread t =
            new Thread(
                () -> {
                  for (int i = 0; !stop.get(); i++) {
                    String content = "{\"w\":" + writer + ",\"i\":" + i + "}";
                    try {
                      acknowledged.put(a.traces().add(NS, content, List.of("x")).uid(), content);
                    } catch (JournalUnavailableException e) {
                      failed.add(content); // certain: nothing of it was written
                    }
                  }
                });
        t.start();
        writers.add(t);
      }
      for (int round = 0; round < 10; round++) {
        Thread.sleep(100);
        try (Connection c = db.connect();
            Statement s = c.createStatement()) {
          s.execute(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                  + db.name
                  + "' AND pid <> pg_backend_pid()");
        }
      }
      Thread.sleep(300);
      stop.set(true);
      for (Thread t : writers) {
        t.join(30_000);
      }
      // the engine was never stopped: a write now succeeds without a reopen
      acknowledged.put(
          a.traces().add(NS, "{\"after\":true}", List.of("x")).uid(), "{\"after\":true}");
    }
    assertThat(acknowledged).hasSizeGreaterThan(10);
    assertThat(failed).as("cut connections made some writes fail").isNotEmpty();
    try (Loci joined = server("joined")) {
      for (Map.Entry<String, String> e : acknowledged.entrySet()) {
        assertThat(joined.traces().get(NS, e.getKey()).content()).isEqualTo(e.getValue());
      }
      Set<String> stored = new HashSet<>();
      Optional<String> cursor = Optional.empty();
      do { // every page: the writers may have stored more than one page holds
        TraceQuery.Builder q = TraceQuery.in(NS).limit(TraceQuery.MAX_LIMIT);
        cursor.ifPresent(q::cursor);
        Page<Trace> page = joined.traces().search(q.build());
        page.items().forEach(t -> stored.add(t.content()));
        cursor = page.nextCursor();
      } while (cursor.isPresent());
      assertThat(stored).hasSize(acknowledged.size()).doesNotContainAnyElementsOf(failed);
    }
  }

  @Test
  void databaseRefusingWrites_writesFailCleanly_degradedUntilItTakesThemAgain_thenResume()
      throws Exception {
    try (Loci a = server("a")) {
      Trace before = a.traces().add(NS, "{\"n\":1}", List.of("x"));
      assertThat(a.unavailable()).isEmpty();
      long seq = a.lastSeq();
      try (Connection c = db.connect();
          Statement s = c.createStatement()) {
        s.execute("ALTER TABLE loci_batch RENAME TO loci_batch_away"); // every insert now fails
      }
      try {
        assertThatThrownBy(() -> a.traces().add(NS, "{\"n\":2}", List.of("x")))
            .isInstanceOf(JournalUnavailableException.class);
        assertThat(a.unavailable()).hasValueSatisfying(r -> assertThat(r).contains("loci_batch"));
        assertThat(a.lastSeq()).isEqualTo(seq);
        assertThat(a.traces().get(NS, before.uid())).isEqualTo(before); // reads go on
      } finally {
        try (Connection c = db.connect();
            Statement s = c.createStatement()) {
          s.execute("ALTER TABLE loci_batch_away RENAME TO loci_batch");
        }
      }
      Trace after = a.traces().add(NS, "{\"n\":3}", List.of("x")); // no reopen needed
      assertThat(a.unavailable()).isEmpty();
      assertThat(a.traces().get(NS, after.uid())).isEqualTo(after);
      assertThat(a.lastSeq()).isEqualTo(seq + 1);
    }
  }

  @Test
  void catchUp_writesOfAnotherServer_becomeVisible() {
    try (Loci a = server("a");
        Loci b = server("b")) {
      Trace t = a.traces().add(NS, "{\"n\":1}", List.of("x"));
      assertThat(b.traces().find(NS, t.uid())).isEmpty();

      assertThat(b.catchUp()).isEqualTo(1);

      assertThat(b.traces().get(NS, t.uid())).isEqualTo(t);
      assertThat(b.lastSeq()).isEqualTo(a.lastSeq());
      assertThat(b.catchUp()).isZero();
    }
  }

  @Test
  void write_onAServerThatIsBehind_catchesUpAndSucceedsAfterTheOtherServersBatches() {
    try (Loci a = server("a");
        Loci b = server("b")) {
      Trace first = a.traces().add(NS, "{\"n\":1}", List.of("x"));
      Trace second = b.traces().add(NS, "{\"n\":2}", List.of("x")); // b never caught up

      assertThat(b.traces().get(NS, first.uid())).isEqualTo(first); // read-your-writes, and more
      assertThat(b.lastSeq()).isEqualTo(2);
      a.catchUp();
      assertThat(a.traces().get(NS, second.uid())).isEqualTo(second);
    }
  }

  @Test
  void conditionalUpdate_racedFromTwoServers_exactlyOneWins() throws Exception {
    try (Loci a = server("a");
        Loci b = server("b")) {
      Trace t = a.traces().add(NS, "{\"n\":0}", List.of("x"));
      b.catchUp();
      String version = t.version();
      ExecutorService pool = Executors.newFixedThreadPool(2);
      CyclicBarrier start = new CyclicBarrier(2);
      List<Future<Trace>> outcomes = new ArrayList<>();
      for (Loci server : List.of(a, b)) {
        outcomes.add(
            pool.submit(
                () -> {
                  start.await();
                  return server
                      .traces()
                      .update(
                          NS, t.uid(), "{\"by\":\"" + (server == a ? "a" : "b") + "\"}", version);
                }));
      }
      int won = 0;
      int stale = 0;
      for (Future<Trace> f : outcomes) {
        try {
          f.get();
          won++;
        } catch (java.util.concurrent.ExecutionException e) {
          assertThat(e.getCause()).isInstanceOf(StaleVersionException.class);
          stale++;
        }
      }
      pool.shutdown();
      assertThat(won).isEqualTo(1);
      assertThat(stale).isEqualTo(1);
      a.catchUp();
      b.catchUp();
      assertThat(a.traces().get(NS, t.uid())).isEqualTo(b.traces().get(NS, t.uid()));
    }
  }

  @Test
  void conditionalUpdate_staleOnAServerThatIsBehind_refusedAfterCatchingUp() {
    try (Loci a = server("a");
        Loci b = server("b")) {
      Trace t = a.traces().add(NS, "{\"n\":0}", List.of("x"));
      b.catchUp();
      a.traces().update(NS, t.uid(), "{\"n\":1}", t.version());

      // b has not seen a's update: its own state says the version matches, the journal says not
      assertThatThrownBy(() -> b.traces().update(NS, t.uid(), "{\"n\":2}", t.version()))
          .isInstanceOf(StaleVersionException.class);
      assertThat(b.traces().get(NS, t.uid()).content()).isEqualTo("{\"n\":1}");
    }
  }

  @Test
  void writesOfDisjointRecords_onAServerThatIsBehind_numberedAfterTheOthersWithoutDecidingAgain() {
    java.util.concurrent.atomic.AtomicReference<PostgresJournal> journalOfB =
        new java.util.concurrent.atomic.AtomicReference<>();
    try (Loci a = server("a");
        Loci b =
            Loci.builder()
                .dataDir(dir.resolve("b"))
                .journal(d -> journalOfB.updateAndGet(j -> PostgresJournal.open(db.url())))
                .open()) {
      Trace t = a.traces().add(NS, "{\"n\":0}", List.of("x"));
      // b has not seen t: its add is numbered 1, which a took, and none of a's keys is its own
      Trace u = b.traces().add(NS, "{\"n\":1}", List.of("y"));
      assertThat(journalOfB.get().rounds().moves()).isEqualTo(1);
      assertThat(journalOfB.get().rounds().refusals()).isZero();
      assertThat(b.lastSeq()).isEqualTo(2);
      // b applied a's batch before its own
      assertThat(b.traces().get(NS, t.uid())).isEqualTo(t);
      assertThat(b.traces().get(NS, u.uid()).content()).isEqualTo("{\"n\":1}");

      // a's update of t: its key is in no batch of b's, so it too moves instead of deciding again
      a.traces().update(NS, t.uid(), "{\"n\":2}", t.version());
      // b's update of t with the version it saw: t's key is in a's batch, refused and decided again
      assertThatThrownBy(() -> b.traces().update(NS, t.uid(), "{\"n\":3}", t.version()))
          .isInstanceOf(StaleVersionException.class);
      assertThat(journalOfB.get().rounds().refusals()).isEqualTo(1);
      a.catchUp();
      assertThat(a.traces().get(NS, u.uid())).isEqualTo(b.traces().get(NS, u.uid()));
      assertThat(a.traces().get(NS, t.uid())).isEqualTo(b.traces().get(NS, t.uid()));
      assertThat(b.traces().get(NS, t.uid()).content()).isEqualTo("{\"n\":2}");
    }
  }
}
