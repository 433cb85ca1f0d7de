package dev.loci.postgres;

import static dev.loci.postgres.PostgresJournalTest.batch;
import static dev.loci.postgres.PostgresJournalTest.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Damage;
import dev.loci.StorageException;
import dev.loci.spi.JournalBehindException;
import dev.loci.spi.JournalEntry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Appends commit without waiting for the WAL flush and wait for it after the commit, in the same
 * round trip ({@link JournalFlush}): servers racing for the same numbers, a refusal's connection, a
 * connection cut or a failure between the commit and the flush.
 */
class SharedFlushTest {
  private TestDatabase db;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_flush");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  private String query(String sql) throws Exception {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  private static PostgresJournal open(TestDatabase db) {
    // the smallest pool, so a connection a refusal left in a failed transaction is handed out again
    return PostgresJournal.open(
        PostgresUrl.parse(db.url()),
        JournalOptions.defaults().withPoolSize(JournalOptions.MIN_POOL_SIZE));
  }

  @Test
  void append_waitsForItsOwnFlushAlone_andCommitsWithoutWaitingOnceAnotherServerWrites()
      throws Exception {
    try (Connection c = db.connect();
        PostgresJournal first = open(db);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE seen (n serial, setting text)");
      s.execute(
          "CREATE FUNCTION note() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO seen"
              + " (setting) VALUES (current_setting('synchronous_commit')); RETURN NULL; END $$");
      s.execute(
          "CREATE TRIGGER noting AFTER INSERT ON loci_batch FOR EACH STATEMENT EXECUTE FUNCTION"
              + " note()");
      assertThat(first.appendDurably(batch("a"))).isEqualTo(1); // alone
      try (PostgresJournal second = open(db)) {
        assertThat(second.appendDurably(batch("b"))).isEqualTo(2); // it saw nobody write
      }
      assertThatThrownBy(() -> first.appendDurably(batch("refused")))
          .isInstanceOf(JournalBehindException.class);
      first.read(1, e -> {}, d -> {});

      assertThat(first.appendDurably(batch("c"))).isEqualTo(3);

      assertThat(query("SELECT string_agg(setting, ',' ORDER BY n) FROM seen"))
          .isEqualTo("on,on,off");
      // the session's own setting is untouched: only the append's transaction commits that way
      assertThat(query("SHOW synchronous_commit")).isEqualTo("on");
    }
  }

  @Test
  void append_refusedBecauseAnotherServerTookTheNumber_leavesItsConnectionUsable()
      throws Exception {
    try (PostgresJournal first = open(db);
        PostgresJournal second = open(db)) {
      first.appendDurably(batch("a"));
      second.flushWith(JournalFlush.WAL); // shares flushes from the first append on

      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> second.appendDurably(batch("refused")))
            .isInstanceOf(JournalBehindException.class);
      }
      second.read(1, e -> {}, d -> {}); // catches up: the next number is free
      for (int i = 0; i < 2 * JournalOptions.MIN_POOL_SIZE; i++) {
        assertThat(second.appendDurably(batch("b" + i))).isEqualTo(2 + i);
      }
      assertThat(query("SELECT COUNT(*) FROM loci_batch")).isEqualTo("7");
    }
  }

  /**
   * Two callers' batches share a round; the first caller's flush is refused (another server holds
   * the numbers), then a read moves the journal past those numbers. The second caller must still
   * hear of the refusal: once, its wait returned as if its batch were stored at a number another
   * server's batch holds (an acknowledged write that is not in the journal).
   */
  @Test
  void roundRefused_itsOtherBatchesAreRefusedToo_evenAfterAReadMovedThePast() throws Exception {
    try (PostgresJournal first = open(db);
        PostgresJournal second = open(db)) {
      var mine = second.append(batch("mine"));
      var alsoMine = second.append(batch("also-mine"));
      first.appendDurably(batch("theirs-1"));
      first.appendDurably(batch("theirs-2"));

      assertThatThrownBy(mine::awaitDurable).isInstanceOf(JournalBehindException.class);
      second.read(1, e -> {}, d -> {}); // catches up with the other server: through 2
      assertThatThrownBy(alsoMine::awaitDurable).isInstanceOf(JournalBehindException.class);

      assertThat(second.appendDurably(batch("again"))).isEqualTo(3);
      assertThat(readAll(first, new ArrayList<>()))
          .extracting(e -> e.events().get(0).data().get("uid").asText())
          .containsExactly("theirs-1", "theirs-2", "again");
    }
  }

  @Test
  void appends_racedFromTwoServers_everyAcknowledgedBatchStoredOnceAtItsNumber() throws Exception {
    int threadsPerServer = 3;
    int perThread = 40;
    Map<Long, String> acknowledged = new ConcurrentHashMap<>();
    try (PostgresJournal first = open(db);
        PostgresJournal second = open(db)) {
      ExecutorService threads = Executors.newFixedThreadPool(2 * threadsPerServer);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> refusals = new ArrayList<>();
      for (int t = 0; t < 2 * threadsPerServer; t++) {
        PostgresJournal journal = t % 2 == 0 ? first : second;
        String writer = "w" + t;
        refusals.add(
            threads.submit(
                () -> {
                  start.await();
                  int refused = 0;
                  for (int i = 0; i < perThread; ) {
                    String uid = writer + "-" + i;
                    try {
                      long seq = journal.appendDurably(batch(uid));
                      assertThat(acknowledged.put(seq, uid)).isNull();
                      i++;
                    } catch (StorageException e) {
                      // another server took the number (this round, or a round it rode with)
                      refused++;
                      journal.read(journal.durableSeq() + 1, x -> {}, d -> {});
                    }
                  }
                  return refused;
                }));
      }
      start.countDown();
      int refused = 0;
      for (Future<Integer> f : refusals) {
        refused += f.get();
      }
      threads.shutdown();

      List<Damage> damage = new ArrayList<>();
      List<JournalEntry> entries = readAll(first, damage);
      assertThat(damage).isEmpty();
      int total = 2 * threadsPerServer * perThread;
      assertThat(acknowledged).hasSize(total);
      assertThat(entries).hasSize(total); // nothing refused was stored
      for (int i = 0; i < total; i++) {
        JournalEntry e = entries.get(i);
        assertThat(e.seq()).isEqualTo(i + 1L);
        assertThat(e.events().get(0).data().get("uid").asText())
            .isEqualTo(acknowledged.get(e.seq()));
      }
      assertThat(refused).isPositive(); // they did race for the same numbers
    }
  }

  @Test
  void append_connectionKilledAfterItsCommitBeforeTheFlush_acknowledgedOnceFlushed()
      throws Exception {
    try (PostgresJournal journal = open(db)) {
      journal.appendDurably(batch("a"));
      // the database ends the appending connection right after the commit
      journal.flushWith(new JournalFlush("SELECT pg_terminate_backend(pg_backend_pid())"));

      assertThat(journal.appendDurably(batch("b"))).isEqualTo(2);

      journal.flushWith(JournalFlush.WAL);
      assertThat(journal.appendDurably(batch("c"))).isEqualTo(3);
      List<Damage> damage = new ArrayList<>();
      assertThat(readAll(journal, damage))
          .extracting(e -> e.events().get(0).data().get("uid").asText())
          .containsExactly("a", "b", "c");
      assertThat(damage).isEmpty();
    }
  }

  @Test
  void append_flushFailsAfterTheCommit_resolvedAsWrittenNotAsFailed() throws Exception {
    try (PostgresJournal journal = open(db)) {
      journal.flushWith(new JournalFlush("SELECT 1 / 0"));

      assertThat(journal.appendDurably(batch("a"))).isEqualTo(1);

      journal.flushWith(JournalFlush.WAL);
      assertThat(journal.appendDurably(batch("b"))).isEqualTo(2);
      assertThat(query("SELECT COUNT(*) FROM loci_batch")).isEqualTo("2");
      assertThat(journal.unavailable()).isEmpty();
    }
  }

  @Test
  void append_failingBeforeItsCommit_writesNothingAndTheNextOneSucceeds() throws Exception {
    try (Connection c = db.connect();
        PostgresJournal journal = open(db);
        Statement s = c.createStatement()) {
      journal.flushWith(JournalFlush.WAL);
      s.execute(
          "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION"
              + " 'refused by test'; END $$");
      s.execute(
          "CREATE TRIGGER refusing AFTER INSERT ON loci_batch FOR EACH STATEMENT EXECUTE FUNCTION"
              + " refuse()");
      for (int i = 0; i < JournalOptions.MIN_POOL_SIZE + 1; i++) {
        assertThatThrownBy(() -> journal.appendDurably(batch("refused")))
            .isInstanceOf(StorageException.class)
            .hasMessageContaining("nothing was written");
      }
      s.execute("DROP TRIGGER refusing ON loci_batch");

      assertThat(journal.appendDurably(batch("a"))).isEqualTo(1);
      assertThat(query("SELECT COUNT(*) FROM loci_batch")).isEqualTo("1");
    }
  }
}
