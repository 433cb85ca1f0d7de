package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Trace;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a server learns of other servers' batches: the notification wakes it long before its poll
 * would, the poll finds what a lost notification did not announce, and a server's own writes are
 * visible to its own reads at once.
 */
class FollowTest {
  private static final Namespace NS = Namespace.of("acme");

  private TestDatabase db;

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_follow");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  /** A follower of its own and the instance it feeds. */
  private record Follower(Loci loci, AutoCloseable following) implements AutoCloseable {
    @Override
    public void close() throws Exception {
      try (Loci l = loci) {
        following.close();
      }
    }
  }

  private Follower follower(String name, Duration poll) throws Exception {
    AtomicReference<PostgresJournal> journal = new AtomicReference<>();
    Loci loci =
        Loci.builder()
            .dataDir(dir.resolve(name))
            .journal(
                d -> {
                  journal.set(PostgresJournal.open(db.url()));
                  return journal.get();
                })
            .open();
    AutoCloseable following = journal.get().follow(loci::tryCatchUp, poll);
    awaitListening();
    return new Follower(loci, following);
  }

  private Loci writer(String name) {
    return Loci.builder()
        .dataDir(dir.resolve(name))
        .journal(d -> PostgresJournal.open(db.url()))
        .open();
  }

  /** Waits until some session of the test database has run {@code LISTEN loci_batch}. */
  private void awaitListening() throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      while (System.nanoTime() < deadline) {
        try (ResultSet r =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND query = 'LISTEN loci_batch'")) {
          r.next();
          if (r.getLong(1) > 0) {
            return;
          }
        }
        Thread.sleep(20);
      }
    }
    throw new AssertionError("the follower never listened");
  }

  private static long millisUntilApplied(Loci follower, long seq) throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + Duration.ofSeconds(30).toNanos();
    while (follower.lastSeq() < seq && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(follower.lastSeq()).as("applied").isGreaterThanOrEqualTo(seq);
    return Duration.ofNanos(System.nanoTime() - start).toMillis();
  }

  @Test
  void notification_wakesTheFollowerLongBeforeItsPoll() throws Exception {
    Duration poll = Duration.ofSeconds(60);
    try (Follower b = follower("b", poll);
        Loci a = writer("a")) {
      for (int round = 0; round < 3; round++) {
        Trace t = a.traces().add(NS, "{\"round\":" + round + "}", List.of());
        long waited = millisUntilApplied(b.loci(), a.lastSeq());
        assertThat(waited).as("woken by NOTIFY, not by the %s poll", poll).isLessThan(20_000);
        assertThat(b.loci().traces().get(NS, t.uid())).isEqualTo(t);
      }
    }
  }

  @Test
  void lostNotifications_pollFindsTheBatches() throws Exception {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        Loci a = writer("a")) {
      a.traces().add(NS, "{\"first\":true}", List.of()); // the schema exists now
      s.execute("ALTER TABLE loci_batch DISABLE TRIGGER USER"); // appends notify nobody
      try (Follower b = follower("b", Duration.ofMillis(300))) {
        Trace t = a.traces().add(NS, "{\"unannounced\":true}", List.of());
        millisUntilApplied(b.loci(), a.lastSeq());
        assertThat(b.loci().traces().get(NS, t.uid())).isEqualTo(t);
      }
    }
  }

  @Test
  void notificationsLost_followerWithALongPoll_staysBehindUntilThePoll() throws Exception {
    // the converse of the test above: without the trigger and with a long poll nothing wakes it
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        Loci a = writer("a")) {
      a.traces().add(NS, "{\"first\":true}", List.of());
      s.execute("ALTER TABLE loci_batch DISABLE TRIGGER USER");
      try (Follower b = follower("b", Duration.ofSeconds(60))) {
        long before = b.loci().lastSeq();
        a.traces().add(NS, "{\"unannounced\":true}", List.of());
        Thread.sleep(1_500);
        assertThat(b.loci().lastSeq()).isEqualTo(before).isLessThan(a.lastSeq());
        assertThat(b.loci().tryCatchUp()).isPositive(); // what the poll would have done
        assertThat(b.loci().lastSeq()).isEqualTo(a.lastSeq());
      }
    }
  }

  @Test
  void readYourWrites_aServersOwnWriteIsVisibleToItsNextRead() throws Exception {
    try (Follower a = follower("a", Duration.ofSeconds(60));
        Loci other = writer("other")) {
      for (int i = 0; i < 20; i++) {
        other.traces().add(NS, "{\"other\":" + i + "}", List.of()); // a is behind now and then
        Trace mine = a.loci().traces().add(NS, "{\"mine\":" + i + "}", List.of());
        assertThat(a.loci().traces().get(NS, mine.uid())).isEqualTo(mine);
        Trace revised =
            a.loci().traces().update(NS, mine.uid(), "{\"mine2\":" + i + "}", mine.version());
        assertThat(a.loci().traces().get(NS, mine.uid())).isEqualTo(revised);
      }
    }
  }
}
