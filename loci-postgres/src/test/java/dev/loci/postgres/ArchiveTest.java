package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Trace;
import dev.loci.VerifyReport;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.JournalLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archiving (docs/cluster.md): each server's compaction registers its snapshot; {@link
 * PostgresJournal#archive()} moves the batches every registered snapshot covers to {@code
 * loci_batch_archive}; replay, verify and joining servers still see every batch, and a server that
 * was behind the archiving cannot reuse an archived number.
 */
class ArchiveTest {
  private static final Namespace NS = Namespace.of("acme");

  private TestDatabase db;

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_archive");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  private Loci server(String name) {
    return server(name, new AtomicReference<>());
  }

  private Loci server(String name, AtomicReference<PostgresJournal> opened) {
    return Loci.builder()
        .dataDir(dir.resolve(name))
        .journal(
            d -> {
              opened.set(db.journal(d));
              return opened.get();
            })
        .open();
  }

  private long count(String table) throws SQLException {
    return scalar("SELECT COUNT(*) FROM " + table);
  }

  private long scalar(String query) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(query)) {
      r.next();
      return r.getLong(1);
    }
  }

  @Test
  void archive_movesWhatEveryRegisteredSnapshotCovers_andEveryReaderStillSeesEveryBatch()
      throws Exception {
    List<Trace> written = new ArrayList<>();
    AtomicReference<PostgresJournal> journalA = new AtomicReference<>();
    try (Loci a = server("a", journalA);
        Loci b = server("b")) {
      assertThat(journalA.get().archive().moved()).isZero(); // nobody registered: nothing moves
      for (int i = 0; i < 20; i++) {
        written.add(a.traces().add(NS, "{\"a\":" + i + "}", List.of()));
      }
      b.catchUp();
      assertThat(a.compact().snapshotSeq()).isEqualTo(20);
      for (int i = 0; i < 5; i++) {
        written.add(b.traces().add(NS, "{\"b\":" + i + "}", List.of()));
      }
      assertThat(b.compact().snapshotSeq()).isEqualTo(25);
      a.catchUp();

      JournalArchive.Report report = journalA.get().archive();
      assertThat(report.through()).isEqualTo(20); // a's snapshot is the lowest
      assertThat(report.moved()).isEqualTo(20);
      assertThat(report.servers())
          .extracting(JournalArchive.Server::snapshotSeq)
          .containsExactly(20L, 25L);
      assertThat(count("loci_batch_archive")).isEqualTo(20);
      assertThat(scalar("SELECT MIN(seq) FROM loci_batch")).isEqualTo(21);

      // appends go on above the archived numbers, from both servers
      written.add(a.traces().add(NS, "{\"after\":\"a\"}", List.of()));
      written.add(b.traces().add(NS, "{\"after\":\"b\"}", List.of()));
      assertThat(b.lastSeq()).isEqualTo(27);
      JoinTest.copy(
          dir.resolve("b").resolve("snapshots"), dir.resolve("copied").resolve("snapshots"));
    }

    VerifyReport verified = PostgresJournal.verify(PostgresUrl.parse(db.url()));
    assertThat(verified.damage()).isEmpty();
    assertThat(verified.batches()).isEqualTo(27); // the archived ones included

    // a new server with an empty data directory replays the archive and the table
    try (Loci fresh = server("fresh")) {
      assertThat(fresh.openDamage()).isEmpty();
      assertThat(fresh.lastSeq()).isEqualTo(27);
      for (Trace t : written) {
        assertThat(fresh.traces().get(NS, t.uid())).isEqualTo(t);
      }
    }
    // one joining from a copied snapshot replays only what follows it
    try (Loci copied = server("copied")) {
      assertThat(copied.openDamage()).isEmpty();
      assertThat(copied.lastSeq()).isEqualTo(27);
      for (Trace t : written) {
        assertThat(copied.traces().get(NS, t.uid())).isEqualTo(t);
      }
    }
  }

  @Test
  void serverBehindTheArchiving_neverReusesAnArchivedNumber() throws Exception {
    AtomicReference<PostgresJournal> journalA = new AtomicReference<>();
    try (Loci a = server("a", journalA);
        Loci late = server("late")) {
      for (int i = 0; i < 10; i++) {
        a.traces().add(NS, "{\"a\":" + i + "}", List.of());
      }
      late.catchUp(); // late has applied 10 and then stops following
      for (int i = 10; i < 20; i++) {
        a.traces().add(NS, "{\"a\":" + i + "}", List.of());
      }
      a.compact();
      assertThat(journalA.get().archive().through()).isEqualTo(20); // late never registered
      assertThat(count("loci_batch")).isZero();

      // late numbers its batch 11, whose row is archived: the primary key of loci_batch would no
      // longer refuse it; the archived mark does, late catches up from the archive and writes 21
      Trace t = late.traces().add(NS, "{\"late\":true}", List.of());
      assertThat(late.lastSeq()).isEqualTo(21);
      assertThat(late.traces().count(NamespaceScope.of("acme"))).isEqualTo(21);
      a.catchUp();
      assertThat(a.traces().get(NS, t.uid())).isEqualTo(t);
    }
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT COUNT(*), COUNT(DISTINCT seq) FROM (SELECT seq FROM loci_batch"
                    + " UNION ALL SELECT seq FROM loci_batch_archive) x")) {
      r.next();
      assertThat(r.getLong(1)).isEqualTo(21);
      assertThat(r.getLong(2)).isEqualTo(21);
    }
    assertThat(PostgresJournal.verify(PostgresUrl.parse(db.url())).damage()).isEmpty();
  }

  @Test
  void archivingWhileTwoServersWrite_losesNoAcknowledgedWriteAndNeverNumbersTwice()
      throws Exception {
    AtomicReference<PostgresJournal> journalA = new AtomicReference<>();
    List<Trace> acknowledged = java.util.Collections.synchronizedList(new ArrayList<>());
    long movedInAll = 0;
    try (Loci a = server("a", journalA);
        Loci b = server("b")) {
      List<Thread> writers = new ArrayList<>();
      for (Loci s : List.of(a, b)) {
        for (int w = 0; w < 2; w++) {
          int writer = w;
          writers.add(
              new Thread(
                  () -> {
                    for (int i = 0; i < 40; i++) {
                      acknowledged.add(
                          s.traces().add(NS, "{\"w\":" + writer + ",\"i\":" + i + "}", List.of()));
                    }
                  }));
        }
      }
      writers.forEach(Thread::start);
      while (writers.stream().anyMatch(Thread::isAlive)) {
        a.compact(); // both register newer snapshots while the writes go on
        b.compact();
        movedInAll += journalA.get().archive().moved();
      }
      for (Thread t : writers) {
        t.join();
      }
      a.catchUp();
      a.compact();
      b.catchUp();
      b.compact();
      movedInAll += journalA.get().archive().moved();
    }
    assertThat(acknowledged).hasSize(160);
    assertThat(movedInAll).isPositive();
    assertThat(scalar("SELECT COUNT(*) FROM loci_batch")).isZero(); // everything archived
    assertThat(
            scalar(
                "SELECT COUNT(DISTINCT seq) FROM (SELECT seq FROM loci_batch"
                    + " UNION ALL SELECT seq FROM loci_batch_archive) x"))
        .isEqualTo(count("loci_batch_archive"))
        .isEqualTo(160);
    assertThat(PostgresJournal.verify(PostgresUrl.parse(db.url())).damage()).isEmpty();
    try (Loci fresh = server("fresh")) {
      for (Trace t : acknowledged) {
        assertThat(fresh.traces().get(NS, t.uid())).isEqualTo(t);
      }
    }
  }

  @Test
  void forgetServer_letsArchivingPassARetiredServersSnapshot() throws Exception {
    AtomicReference<PostgresJournal> journalA = new AtomicReference<>();
    String retired;
    try (Loci old = server("old")) {
      old.traces().add(NS, "{\"old\":1}", List.of());
      old.compact();
      retired = Files.readString(dir.resolve("old").resolve(JournalArchive.SERVER_ID_FILE)).strip();
    }
    try (Loci a = server("a", journalA)) {
      for (int i = 0; i < 5; i++) {
        a.traces().add(NS, "{\"a\":" + i + "}", List.of());
      }
      a.compact();
      assertThat(journalA.get().archive().through()).isEqualTo(1); // held back by "old"
      assertThat(journalA.get().forgetServer(retired)).isTrue();
      assertThat(journalA.get().forgetServer(retired)).isFalse();
      JournalArchive.Report report = journalA.get().archive();
      assertThat(report.through()).isEqualTo(6);
      assertThat(report.moved()).isEqualTo(5);
    }
  }

  @Test
  void aVersionOneDatabase_isMigratedWithItsBatchesKept() throws Exception {
    Flyway.configure()
        .dataSource("jdbc:postgresql://" + TestDatabase.HOST + "/" + db.name, TestDatabase.USER, "")
        .locations("classpath:dev/loci/postgres/migration")
        .table("loci_schema_history")
        .target("1")
        .load()
        .migrate();
    Batch batch =
        new Batch(
            Instant.parse("2026-11-26T06:00:00Z"),
            NS,
            "local",
            List.of(Event.ofJson("trace.retired", "{\"uid\":\"x\"}")));
    try (Connection c = db.connect();
        PreparedStatement s =
            c.prepareStatement("INSERT INTO loci_batch (seq, ns, line) VALUES (1, 'acme', ?)")) {
      s.setBytes(1, JournalLine.encode(1, batch));
      s.executeUpdate();
    }
    try (PostgresJournal journal = PostgresJournal.open(db.url())) {
      List<Long> seqs = new ArrayList<>();
      journal.read(1, e -> seqs.add(e.seq()), d -> {});
      assertThat(seqs).containsExactly(1L);
      assertThat(journal.appendDurably(batch)).isEqualTo(2);
    }
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT MAX(version::int) FROM loci_schema_history")) {
      r.next();
      assertThat(r.getInt(1)).isEqualTo(JournalSchema.SCHEMA_VERSION).isEqualTo(3);
    }
  }
}
