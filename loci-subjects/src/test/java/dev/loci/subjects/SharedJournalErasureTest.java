package dev.loci.subjects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.LociException;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Trace;
import dev.loci.VerifyReport;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryType;
import dev.loci.pathway.PathwayMemory;
import dev.loci.postgres.PostgresJournal;
import dev.loci.postgres.PostgresUrl;
import dev.loci.postgres.TestDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Erasure over a PostgreSQL journal that two servers share (docs/cluster.md): one transaction
 * rewrites the rows of {@code loci_batch} and {@code loci_batch_archive} and appends the erasure's
 * event, which every server applies (state, indexes, snapshots); a failure or a lost connection in
 * the middle leaves everything as it was, and a rerun completes it.
 */
class SharedJournalErasureTest {
  static final Namespace NS = Namespace.of("acme.hr");
  static final Namespace OTHER = Namespace.of("acme.sales");
  static final LegalCapability LEGAL = new LegalCapability("dpo@acme");
  static final String ALICE = "subj-alice-pg4z";
  static final String BOB = "subj-bob-pg8w";
  static final NamespaceScope ALL = NamespaceScope.of("acme.*");

  @TempDir Path dir;
  TestDatabase db;
  final List<Loci> open = new ArrayList<>();

  Loci a;
  Loci b;
  final AtomicReference<PostgresJournal> journalOfB = new AtomicReference<>();
  Kept kept;

  /** Servers a and b over one database, seeded; a's journal archived what both snapshots cover. */
  @BeforeEach
  void openTwoServersAndSeed() throws SQLException {
    db = TestDatabase.create("loci_erase");
    AtomicReference<PostgresJournal> journal = new AtomicReference<>();
    a = server("a", journal);
    b = server("b", journalOfB);
    kept = seed(journal.get());
  }

  @AfterEach
  void closeAll() throws Exception {
    for (Loci l : open) {
      l.close();
    }
    db.close();
  }

  Loci server(String name, AtomicReference<PostgresJournal> journal) {
    Loci loci =
        Loci.builder()
            .dataDir(dir.resolve(name))
            .journal(
                d -> {
                  journal.set(db.journal(d));
                  return journal.get();
                })
            .open();
    open.add(loci);
    return loci;
  }

  Loci server(String name) {
    return server(name, new AtomicReference<>());
  }

  void close(Loci loci) {
    open.remove(loci);
    loci.close();
  }

  /** What {@link #seed} wrote that must survive. */
  record Kept(Trace aliceTrace, Trace bobTrace, Memory bobMemory) {}

  /**
   * Alice and Bob in every layer, written from both servers, part of it archived, both servers with
   * snapshots that hold Alice.
   */
  Kept seed(PostgresJournal journal) throws SQLException {
    Trace a1 =
        a.traces()
            .add(
                NS,
                "{\"subject_ids\":[\"" + ALICE + "\"],\"note\":\"ALPHA-SECRET-1 lives in Leeds\"}",
                List.of("hr"));
    a.traces()
        .update(
            NS, a1.uid(), "{\"subject_ids\":[\"" + ALICE + "\"],\"note\":\"ALPHA-SECRET-2 York\"}");
    Trace bob =
        a.traces()
            .add(NS, "{\"subject_ids\":[\"" + BOB + "\"],\"note\":\"BRAVO-KEEP-1\"}", List.of());
    b.catchUp();
    a.compact();
    b.compact();
    assertThat(journal.archive().moved()).as("batches archived").isPositive();
    b.traces().revise(NS, a1.uid(), "{\"note\":\"ALPHA-SECRET-3 on leave\"}", List.of());
    PathwayMemory.of(b)
        .insertJson(
            NS,
            "{\"task_class\":\"hr.review\",\"file_path\":\"cases/17\","
                + "\"reducer_summary\":\"ALPHA-SECRET-4 asked for a raise\","
                + "\"final_verdict\":\"ALPHA-SECRET-5 approved\",\"subject_ids\":[\""
                + ALICE
                + "\"]}");
    GovernedMemory.of(b)
        .propose(
            OTHER,
            MemoryDraft.of(MemoryType.PREFERENCE, "ALPHA-SECRET-6 prefers tea", "agent-7")
                .withSlot("drink")
                .withSubjects(List.of(ALICE)));
    Memory bm =
        GovernedMemory.of(b)
            .propose(
                OTHER,
                MemoryDraft.of(MemoryType.PREFERENCE, "BRAVO-KEEP-2 prefers coffee", "agent-7")
                    .withSlot("drink")
                    .withSubjects(List.of(BOB)))
            .memory();
    a.catchUp();
    a.snapshot();
    b.snapshot();
    assertThat(rowsContaining("ALPHA-SECRET")).isPositive();
    return new Kept(a1, bob, bm);
  }

  @Test
  void erase_onOneServer_leavesNoByteInAnyRowOrFileOfEitherServer_andKeepsEveryoneElse()
      throws Exception {
    long auditBefore = Subjects.of(b).manifest(BOB, ALL).auditEntries();

    ErasureReport report = Subjects.of(a).erase(LEGAL, ALL, NS, ALICE, "GDPR art. 17, ticket 9");

    assertThat(report.records()).isEqualTo(5); // two traces, a pathway trace, a memory, its node
    assertThat(report.batchesRewritten()).isGreaterThanOrEqualTo(5);
    assertThat(rowsContaining("ALPHA-SECRET")).as("rows holding Alice's content").isZero();
    assertThat(rowsContaining(ALICE)).as("rows holding Alice's id").isZero();
    assertThat(rowsContaining("BRAVO-KEEP-1")).isPositive();
    assertThat(b.catchUp()).as("b applies the erasure").isPositive();
    for (Loci server : List.of(a, b)) {
      assertErased(server);
    }
    assertThat(Subjects.of(b).manifest(BOB, ALL).auditEntries()).isEqualTo(auditBefore);
    // while both run: the snapshots, indexes and caches hold nothing of Alice any more
    assertThat(filesContaining("ALPHA-SECRET")).isEmpty();
    assertThat(filesContaining(ALICE)).isEmpty();

    close(a);
    close(b);
    assertThat(filesContaining("ALPHA-SECRET")).isEmpty();
    assertThat(filesContaining(ALICE)).isEmpty();
    assertThat(filesContaining("BRAVO-KEEP-2")).isNotEmpty();
    VerifyReport verify = PostgresJournal.verify(PostgresUrl.parse(db.url()));
    assertThat(verify.ok()).as("verify: %s", verify.damage()).isTrue();

    // a server that joins afterwards replays the scrubbed rows; the others reopen from snapshots
    Loci c = server("c");
    assertErased(c);
    assertErased(server("a"));
    assertErased(server("b"));
    assertThat(filesContaining("ALPHA-SECRET")).isEmpty();
  }

  @Test
  void aFollowingServer_appliesTheErasureWithoutBeingAsked_andReplacesItsSnapshot()
      throws Exception {
    try (AutoCloseable following = journalOfB.get().follow(b::tryCatchUp, Duration.ofSeconds(30))) {
      Subjects.of(a).erase(LEGAL, ALL, NS, ALICE, "GDPR art. 17, ticket 13");

      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while ((b.lastSeq() < a.lastSeq() || !filesIn(dir.resolve("b"), ALICE).isEmpty())
          && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertErased(b);
      assertThat(filesIn(dir.resolve("b"), "ALPHA-SECRET")).isEmpty();
      assertThat(filesIn(dir.resolve("b"), ALICE)).isEmpty();
    }
  }

  @Test
  void aServerDownDuringTheErasure_erasesItsStateIndexesAndSnapshotsWhenItReopens()
      throws Exception {
    close(b);

    Subjects.of(a).erase(LEGAL, ALL, NS, ALICE, "GDPR art. 17, ticket 10");

    assertThat(filesIn(dir.resolve("b"), "ALPHA-SECRET"))
        .as("b's files before it returns")
        .isNotEmpty();
    b = server("b");
    assertErased(b);
    assertThat(filesIn(dir.resolve("b"), "ALPHA-SECRET")).isEmpty();
    assertThat(filesIn(dir.resolve("b"), ALICE)).isEmpty();
  }

  @Test
  void aFailureOrALostConnectionMidTransaction_leavesEverythingAsItWas_andARerunCompletes()
      throws Exception {
    long rows = rowsContaining("ALPHA-SECRET");
    long head = a.lastSeq();

    // the erasure's own batch is refused after every row was rewritten in the transaction
    sql(
        "CREATE FUNCTION refuse_erasure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            + " IF position('subjects.erased' IN convert_from(NEW.line, 'UTF8')) > 0 THEN"
            + " RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$",
        "CREATE TRIGGER refuse BEFORE INSERT ON loci_batch FOR EACH ROW"
            + " EXECUTE FUNCTION refuse_erasure()");
    assertThatThrownBy(() -> Subjects.of(a).erase(LEGAL, ALL, NS, ALICE, "ticket 11"))
        .isInstanceOf(LociException.class)
        .hasMessageContaining("refused by the test");
    assertUntouched(rows, head);

    // the erasing connection dies in the middle (once: the sequence is not transactional)
    sql(
        "DROP TRIGGER refuse ON loci_batch",
        "CREATE SEQUENCE kills",
        "CREATE FUNCTION kill_erasure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            + " IF position('subjects.erased' IN convert_from(NEW.line, 'UTF8')) > 0"
            + " AND nextval('kills') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid());"
            + " END IF; RETURN NEW; END $$",
        "CREATE TRIGGER kill BEFORE INSERT ON loci_batch FOR EACH ROW"
            + " EXECUTE FUNCTION kill_erasure()");
    assertThatThrownBy(() -> Subjects.of(a).erase(LEGAL, ALL, NS, ALICE, "ticket 12"))
        .isInstanceOf(LociException.class);
    assertUntouched(rows, head);

    // the intents left behind are run again when a reopens: the erasure completes
    close(a);
    Loci reopened = server("a");
    assertThat(rowsContaining("ALPHA-SECRET")).isZero();
    b.catchUp();
    assertErased(reopened);
    assertErased(b);
    assertThat(filesContaining("ALPHA-SECRET")).isEmpty();
    assertThat(Files.list(dir.resolve("a").resolve("subjects").resolve("erasures")).toList())
        .as("intents left")
        .isEmpty();
  }

  private void assertUntouched(long rows, long head) throws Exception {
    assertThat(rowsContaining("ALPHA-SECRET")).isEqualTo(rows);
    assertThat(scalar("SELECT MAX(seq) FROM loci_batch")).isEqualTo(head);
    b.catchUp();
    for (Loci server : List.of(a, b)) {
      assertThat(Subjects.of(server).manifest(ALICE, ALL).records()).hasSize(5);
      assertThat(Subjects.of(server).manifest(ALICE, ALL).erasure()).isEmpty();
    }
  }

  private void assertErased(Loci server) {
    Subjects subjects = Subjects.of(server);
    SubjectManifest m = subjects.manifest(ALICE, ALL);
    assertThat(m.records()).isEmpty();
    assertThat(m.erasure()).hasValueSatisfying(e -> assertThat(e.records()).isEqualTo(5));
    assertThat(server.traces().get(NS, kept.aliceTrace().uid()).content()).doesNotContain("ALPHA");
    assertThat(server.traces().get(NS, kept.bobTrace().uid()).content()).contains("BRAVO-KEEP-1");
    assertThat(GovernedMemory.of(server).get(OTHER, kept.bobMemory().id()).content())
        .isEqualTo("BRAVO-KEEP-2 prefers coffee");
    assertThat(subjects.manifest(BOB, ALL).records()).hasSize(3);
    assertThat(subjects.verifyAudit(Optional.empty()).problems()).isEmpty();
  }

  private long rowsContaining(String text) throws SQLException {
    String q = "position(convert_to('" + text + "', 'UTF8') IN line) > 0";
    return scalar("SELECT COUNT(*) FROM loci_batch WHERE " + q)
        + scalar("SELECT COUNT(*) FROM loci_batch_archive WHERE " + q);
  }

  private long scalar(String query) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(query)) {
      r.next();
      return r.getLong(1);
    }
  }

  private void sql(String... statements) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      for (String st : statements) {
        s.execute(st);
      }
    }
  }

  private List<Path> filesContaining(String text) throws IOException {
    return filesIn(dir, text);
  }

  private static List<Path> filesIn(Path root, String text) throws IOException {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    List<Path> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        byte[] bytes;
        try {
          bytes = Files.readAllBytes(f);
        } catch (java.nio.file.NoSuchFileException gone) {
          continue; // a running server replaced it (a snapshot) after the walk listed it
        }
        if (SubjectsTest.indexOf(bytes, needle) >= 0) {
          out.add(root.relativize(f));
        }
      }
    }
    return out;
  }
}
