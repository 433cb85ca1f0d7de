package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Damage;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.Trace;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalBehindException;
import dev.loci.spi.JournalEntry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Journal SPI contract against the machine's PostgreSQL, and Loci opened over it. */
class PostgresJournalTest {
  private static final Namespace NS = Namespace.of("acme");
  private static final Instant TS = Instant.parse("2026-11-24T10:00:00.123456Z");

  private TestDatabase db;

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_journal");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  static Batch batch(String uid) {
    return new Batch(
        TS, NS, "test", List.of(Event.ofJson("trace.retired", "{\"uid\":\"" + uid + "\"}")));
  }

  static List<JournalEntry> readAll(Journal journal, List<Damage> damage) {
    List<JournalEntry> entries = new ArrayList<>();
    journal.read(1, entries::add, damage::add);
    return entries;
  }

  private long rows() throws Exception {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT COUNT(*) FROM loci_batch")) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void append_groupOfBatches_committedTogetherInSequenceAndReadBackExactly() throws Exception {
    try (PostgresJournal journal = PostgresJournal.open(db.url())) {
      Journal.Appended a = journal.append(batch("a"));
      Journal.Appended b = journal.append(batch("b"));
      Journal.Appended c = journal.append(batch("c"));
      assertThat(rows()).isZero(); // numbered, pending until a wait for durability
      c.awaitDurable();
      a.awaitDurable();
      b.awaitDurable();

      assertThat(List.of(a.seq(), b.seq(), c.seq())).containsExactly(1L, 2L, 3L);
      assertThat(rows()).isEqualTo(3);
      List<Damage> damage = new ArrayList<>();
      List<JournalEntry> entries = readAll(journal, damage);
      assertThat(damage).isEmpty();
      assertThat(entries).extracting(JournalEntry::seq).containsExactly(1L, 2L, 3L);
      assertThat(entries.get(1).events().get(0).data().get("uid").asText()).isEqualTo("b");
      assertThat(entries.get(0).ts()).isEqualTo(TS);
      assertThat(entries.get(0).namespace()).isEqualTo(NS);
    }
  }

  @Test
  void append_afterAnotherWriterAppended_refusedWithNothingWritten() throws Exception {
    try (PostgresJournal first = PostgresJournal.open(db.url());
        PostgresJournal second = PostgresJournal.open(db.url())) {
      first.appendDurably(batch("a"));

      assertThatThrownBy(() -> second.appendDurably(batch("b")))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("another writer appended")
          .hasMessageContaining("nothing was written");
      assertThat(rows()).isEqualTo(1);
      assertThat(second.lastSeq()).isZero(); // the refused number is free again
    }
  }

  @Test
  void read_throughASequenceNumber_byOneStatementAndByTheCursor_stopsThere() {
    try (PostgresJournal a = PostgresJournal.open(db.url());
        PostgresJournal b = PostgresJournal.open(db.url())) {
      List<Batch> batches = new ArrayList<>();
      for (int i = 0; i < 1010; i++) {
        batches.add(batch("a" + i));
      }
      List<Journal.Appended> appended = a.appendBatches(batches);
      appended.get(appended.size() - 1).awaitDurable();
      List<Long> seqs = new ArrayList<>();
      List<Damage> damage = new ArrayList<>();
      b.read(3, 7, e -> seqs.add(e.seq()), damage::add); // a few: one statement
      assertThat(seqs).containsExactly(3L, 4L, 5L, 6L, 7L);
      assertThat(b.lastSeq()).isEqualTo(7);
      seqs.clear();
      b.read(8, 1008, e -> seqs.add(e.seq()), damage::add); // more than 1,000: the cursor
      assertThat(seqs).hasSize(1001).startsWith(8L).endsWith(1008L);
      assertThat(b.lastSeq()).isEqualTo(1008);
      assertThat(damage).isEmpty();
      // b numbers after what it read: 1009 is a's, refused; after reading the rest, 1011
      assertThatThrownBy(() -> b.appendDurably(batch("b")))
          .isInstanceOf(JournalBehindException.class)
          .hasMessageContaining("batch 1009");
      b.read(1009, Long.MAX_VALUE, e -> seqs.add(e.seq()), damage::add);
      assertThat(b.appendDurably(batch("b"))).isEqualTo(1011);
    }
  }

  @Test
  void advanceTo_numbersNextBatchAboveTheFloorAfterReopen() {
    try (PostgresJournal journal = PostgresJournal.open(db.url())) {
      journal.advanceTo(41);
      assertThat(journal.appendDurably(batch("a"))).isEqualTo(42);
    }
    try (PostgresJournal journal = PostgresJournal.open(db.url())) {
      List<Damage> damage = new ArrayList<>();
      assertThat(readAll(journal, damage)).extracting(JournalEntry::seq).containsExactly(42L);
      assertThat(damage).isEmpty(); // numbers below the floor are not a gap
    }
  }

  @Test
  void read_damagedRowAndMissingRow_reportedWithTheirSequenceAndOthersRead() throws Exception {
    try (PostgresJournal journal = PostgresJournal.open(db.url())) {
      for (String uid : List.of("a", "b", "c", "d")) {
        journal.appendDurably(batch(uid));
      }
    }
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      // flip one byte of batch 2's line (the uid), and lose batch 3
      s.execute(
          "UPDATE loci_batch SET line = overlay(line placing '\\x5a'::bytea from"
              + " position('\"b\"'::bytea in line) + 1 for 1) WHERE seq = 2");
      s.execute("DELETE FROM loci_batch WHERE seq = 3");
    }
    try (PostgresJournal journal = PostgresJournal.open(db.url())) {
      List<Damage> damage = new ArrayList<>();
      assertThat(readAll(journal, damage)).extracting(JournalEntry::seq).containsExactly(1L, 4L);
      assertThat(damage)
          .extracting(Damage::kind)
          .containsExactly(Damage.Kind.BAD_LINE, Damage.Kind.SEQUENCE_GAP);
      assertThat(damage.get(0).detail()).contains("crc32c mismatch");
      assertThat(damage.get(1).detail()).isEqualTo("batches 3 to 3 are missing");
    }
  }

  /**
   * A snapshot's sync() can run while the engine's round has numbered batches and not yet awaited
   * them. If another server took those numbers, the refusal must reach the round's own wait (which
   * decides again), and no later batch of the round may be given a number already handed out.
   */
  @Test
  void sync_refusedWhileARoundIsPending_keepsTheNumbersAndTheOwnerMeetsTheRefusal() {
    try (PostgresJournal mine = PostgresJournal.open(db.url());
        PostgresJournal other = PostgresJournal.open(db.url())) {
      Journal.Appended first = mine.append(batch("mine-1"));
      assertThat(other.appendDurably(batch("other"))).isEqualTo(1); // takes number 1 first

      mine.sync(); // the snapshot's sync: refused, but nothing it must keep is lost

      Journal.Appended second = mine.append(batch("mine-2"));
      assertThat(List.of(first.seq(), second.seq())).containsExactly(1L, 2L); // never 1 twice
      assertThatThrownBy(second::awaitDurable).isInstanceOf(JournalBehindException.class);
      assertThat(readAll(other, new ArrayList<>()))
          .extracting(e -> e.events().get(0).data().get("uid").asText())
          .containsExactly("other");
    }
  }

  @Test
  void open_poolSizeOption_isTheNumberOfConnectionsItKeeps() throws Exception {
    try (PostgresJournal journal =
        PostgresJournal.open(
            PostgresUrl.parse(db.url()), JournalOptions.defaults().withPoolSize(7))) {
      journal.appendDurably(batch("a"));
      long connections = 0;
      for (int i = 0; i < 600 && connections != 7; i++) { // the pool fills in the background
        Thread.sleep(50);
        connections = connectionsTo(db.name);
      }
      assertThat(connections).isEqualTo(7);
    }
    assertThatThrownBy(() -> JournalOptions.defaults().withPoolSize(2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pool_size: expected 3 to 1000 connections, found 2");
  }

  private long connectionsTo(String database) throws Exception {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        java.sql.ResultSet r =
            s.executeQuery(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = '"
                    + database
                    + "' AND pid <> pg_backend_pid()")) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void open_schemaNewerThanThisBuild_refusedNamingTheVersion() throws Exception {
    PostgresJournal.open(db.url()).close();
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO loci_schema_history (installed_rank, version, description, type, script,"
              + " checksum, installed_by, execution_time, success) VALUES (99, '99', 'future',"
              + " 'SQL', 'V99__future.sql', 0, 'test', 0, true)");
    }
    assertThatThrownBy(() -> PostgresJournal.open(db.url()))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("at version 99")
        .hasMessageContaining("never downgrade");
  }

  @Test
  void append_connectionsTerminatedByTheDatabase_failsWithNothingWrittenThenRecovers()
      throws Exception {
    try (PostgresJournal journal = PostgresJournal.open(db.url())) {
      journal.appendDurably(batch("a"));
      try (Connection c = db.connect();
          Statement s = c.createStatement()) {
        s.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
                + db.name
                + "' AND pid <> pg_backend_pid()");
      }
      // The pool notices dead connections when it hands them out or when a statement fails; a
      // failed write must have written nothing, and a later one must succeed.
      List<Long> written = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        try {
          written.add(journal.appendDurably(batch("b" + i)));
        } catch (StorageException e) {
          assertThat(e).hasMessageContaining("nothing was written");
        }
      }
      assertThat(written).isNotEmpty();
      List<Damage> damage = new ArrayList<>();
      List<JournalEntry> entries = readAll(journal, damage);
      assertThat(damage).isEmpty();
      assertThat(entries).hasSize(1 + written.size());
      assertThat(entries.get(entries.size() - 1).seq()).isEqualTo(1 + written.size());
    }
  }

  @Test
  void loci_concurrentWritersOverPostgres_aNewServerReplaysEveryAcknowledgedWrite()
      throws Exception {
    List<Trace> acknowledged = Collections.synchronizedList(new ArrayList<>());
    try (Loci loci =
        Loci.builder()
            .dataDir(dir.resolve("server-1"))
            .journal(d -> PostgresJournal.open(db.url()))
            .open()) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < 8; w++) {
        int writer = w;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 50; i++) {
                    acknowledged.add(
                        loci.traces()
                            .add(
                                NS,
                                "{\"w\":" + writer + ",\"i\":" + i + "}",
                                List.of("w" + writer)));
                  }
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
      pool.shutdown();
    }
    // a second server with an empty data directory joins by replaying the database's journal
    try (Loci joined =
        Loci.builder()
            .dataDir(dir.resolve("server-2"))
            .journal(d -> PostgresJournal.open(db.url()))
            .open()) {
      assertThat(joined.traces().total()).isEqualTo(400);
      for (Trace t : acknowledged) {
        assertThat(joined.traces().get(NS, t.uid())).isEqualTo(t);
      }
    }
    assertThat(rows()).isBetween(1L, 400L); // group commit: a row per batch, batches per round
  }
}
