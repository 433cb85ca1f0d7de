package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.postgres.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The global {@code --journal} option: record commands and {@code verify} over PostgreSQL. */
class JournalOptionTest {
  @TempDir Path tmp;
  private TestDatabase db;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_cli");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  @Test
  void traceCommands_withJournal_storeInPostgresAndAnotherDataDirReadsThem() {
    CliRunner first = new CliRunner(tmp.resolve("a"));
    CliRunner second = new CliRunner(tmp.resolve("b"));
    String uid = first.add("acme", "{\"n\":1}", "x");
    first.run("--journal", db.url(), "trace", "get", uid, "--ns", "acme");
    CliRunner.Result viaPostgres =
        first.run(
            "--journal",
            db.url(),
            "--json",
            "trace",
            "add",
            "--ns",
            "acme",
            "--content",
            "{\"n\":2}");
    assertThat(viaPostgres.exitCode()).as(viaPostgres.err()).isZero();
    String shared = viaPostgres.json().get("uid").asText();

    CliRunner.Result read =
        second.run("--journal", db.url(), "--json", "trace", "get", shared, "--ns", "acme");

    assertThat(read.exitCode()).as(read.err()).isZero();
    assertThat(read.json().get("content").get("n").asInt()).isEqualTo(2);
    assertThat(Files.exists(tmp.resolve("b").resolve("journal"))).isFalse();
    // the file journal of the first data directory was not used by the --journal write
    CliRunner.Result local = first.run("--json", "trace", "get", shared, "--ns", "acme");
    assertThat(local.exitCode()).isNotZero();
  }

  @Test
  void exportCompactImport_withJournal_sameTracesEverywhereAndNoRowDeleted() throws Exception {
    CliRunner a = new CliRunner(tmp.resolve("a"));
    CliRunner b = new CliRunner(tmp.resolve("b"));
    for (int i = 0; i < 5; i++) {
      CliRunner writer = i % 2 == 0 ? a : b; // two data directories write into one database
      CliRunner.Result r =
          writer.run("--journal", db.url(), "trace", "add", "--ns", "acme", "--content", "" + i);
      assertThat(r.exitCode()).as(r.err()).isZero();
    }
    Path fromA = tmp.resolve("a.jsonl");
    Path fromB = tmp.resolve("b.jsonl");
    assertThat(
            a.run("--journal", db.url(), "export", "--ns", "acme", "--out", fromA.toString())
                .exitCode())
        .isZero();
    assertThat(
            b.run("--journal", db.url(), "export", "--ns", "acme", "--out", fromB.toString())
                .exitCode())
        .isZero();
    assertThat(Files.readAllLines(fromA)).hasSize(5).isEqualTo(Files.readAllLines(fromB));

    CliRunner.Result compact = a.run("--journal", db.url(), "--json", "compact");
    assertThat(compact.exitCode()).as(compact.err()).isZero();
    assertThat(compact.json().get("snapshot_seq").asLong()).isEqualTo(5);
    assertThat(compact.json().get("segments_deleted").asLong()).isZero();
    assertThat(Files.list(tmp.resolve("a").resolve("snapshots")).count()).isPositive();
    CliRunner.Result verify = a.run("--journal", db.url(), "--json", "verify");
    assertThat(verify.exitCode()).as(verify.out()).isZero();
    assertThat(verify.json().get("batches").asLong()).isEqualTo(5);

    try (TestDatabase other = TestDatabase.create("loci_cli_import")) {
      CliRunner c = new CliRunner(tmp.resolve("c"));
      CliRunner.Result imported =
          c.run("--journal", other.url(), "--json", "import", "--ns", "acme", fromA.toString());
      assertThat(imported.exitCode()).as(imported.err()).isZero();
      assertThat(imported.json().get("applied").asInt()).isEqualTo(5);
      Path fromC = tmp.resolve("c.jsonl");
      CliRunner fresh = new CliRunner(tmp.resolve("d")); // replays the imported rows from scratch
      assertThat(
              fresh
                  .run(
                      "--journal", other.url(), "export", "--ns", "acme", "--out", fromC.toString())
                  .exitCode())
          .isZero();
      assertThat(Files.readAllLines(fromC)).isEqualTo(Files.readAllLines(fromA));
    }
  }

  @Test
  void compactArchive_movesWhatEveryRegisteredServerCovers_verifyAndExportStillSeeAll()
      throws Exception {
    CliRunner a = new CliRunner(tmp.resolve("a"));
    CliRunner b = new CliRunner(tmp.resolve("b"));
    for (int i = 0; i < 4; i++) {
      CliRunner.Result r =
          a.run("--journal", db.url(), "trace", "add", "--ns", "acme", "--content", "" + i);
      assertThat(r.exitCode()).as(r.err()).isZero();
    }
    CliRunner.Result first = a.run("--journal", db.url(), "--json", "compact", "--archive");
    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.json().get("archived_batches").asLong()).isEqualTo(4); // a alone: all of it
    assertThat(first.json().get("servers")).hasSize(1);
    String idA = first.json().get("servers").get(0).get("id").asText();
    assertThat(Files.readString(tmp.resolve("a").resolve("journal-server-id")).strip())
        .isEqualTo(idA);

    for (int i = 4; i < 6; i++) {
      assertThat(
              b.run("--journal", db.url(), "trace", "add", "--ns", "acme", "--content", "" + i)
                  .exitCode())
          .isZero();
    }
    CliRunner.Result second = b.run("--journal", db.url(), "compact", "--archive");
    assertThat(second.exitCode()).as(second.err()).isZero();
    assertThat(second.out())
        .contains("0 batches archived; every batch through seq 4 is in loci_batch_archive")
        .contains("server " + idA + ": snapshot at seq 4");
    CliRunner.Result third =
        b.run("--journal", db.url(), "--json", "compact", "--archive", "--forget-server", idA);
    assertThat(third.exitCode()).as(third.err()).isZero();
    assertThat(third.json().get("archived_through").asLong()).isEqualTo(6);

    CliRunner.Result verify = a.run("--journal", db.url(), "--json", "verify");
    assertThat(verify.exitCode()).as(verify.out()).isZero();
    assertThat(verify.json().get("batches").asLong()).isEqualTo(6);
    Path out = tmp.resolve("all.jsonl");
    CliRunner fresh = new CliRunner(tmp.resolve("fresh"));
    assertThat(
            fresh
                .run("--journal", db.url(), "export", "--ns", "acme", "--out", out.toString())
                .exitCode())
        .isZero();
    assertThat(Files.readAllLines(out)).hasSize(6);
  }

  @Test
  void subjectErase_withJournal_scrubsTheRowsAndAnotherDataDirAppliesIt() throws Exception {
    CliRunner a = new CliRunner(tmp.resolve("a"));
    CliRunner b = new CliRunner(tmp.resolve("b"));
    String subject = "pat-cli-9q";
    for (String note : new String[] {"ZETA-SECRET-1", "ZETA-SECRET-2"}) {
      String content = "{\"subject_ids\":[\"" + subject + "\"],\"note\":\"" + note + "\"}";
      CliRunner.Result r =
          a.run("--journal", db.url(), "trace", "add", "--ns", "clinic", "--content", content);
      assertThat(r.exitCode()).as(r.err()).isZero();
    }
    CliRunner.Result shown = b.run("--journal", db.url(), "--json", "subject", "show", subject);
    assertThat(shown.json().get("records")).hasSize(2);
    assertThat(b.run("--journal", db.url(), "compact").exitCode()).isZero(); // holds the secret

    CliRunner.Result erased =
        a.run(
            "--journal",
            db.url(),
            "--json",
            "subject",
            "erase",
            subject,
            "--ns",
            "clinic",
            "--reason",
            "request 7",
            "--legal-token",
            a.legalToken());

    assertThat(erased.exitCode()).as(erased.err()).isZero();
    assertThat(erased.json().get("records").asInt()).isEqualTo(2);
    CliRunner.Result after = b.run("--journal", db.url(), "--json", "subject", "show", subject);
    assertThat(after.json().get("records")).isEmpty();
    assertThat(after.json().get("erasure").get("records").asInt()).isEqualTo(2);
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        java.sql.ResultSet r =
            s.executeQuery(
                "SELECT COUNT(*) FROM loci_batch WHERE position('ZETA' IN convert_from(line,"
                    + " 'UTF8')) > 0")) {
      r.next();
      assertThat(r.getLong(1)).isZero();
    }
    try (java.util.stream.Stream<Path> files = Files.walk(tmp)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertThat(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1))
            .as("%s", f)
            .doesNotContain("ZETA-SECRET")
            .doesNotContain(subject);
      }
    }
  }

  @Test
  void compactArchive_withoutJournal_isAUsageError() {
    CliRunner cli = new CliRunner(tmp.resolve("a"));
    cli.add("acme", "{\"n\":1}", "x");

    CliRunner.Result r = cli.run("compact", "--archive");

    assertThat(r.exitCode()).isEqualTo(2);
    CliRunner.assertOneErrorLine(r, "--archive", "--journal");
  }

  @Test
  void journalPoolSize_outOfRange_isAnErrorNamingTheOption() {
    CliRunner cli = new CliRunner(tmp.resolve("a"));

    CliRunner.Result r =
        cli.run("--journal", db.url(), "--journal-pool-size", "2", "trace", "search", "--ns", "a");

    assertThat(r.exitCode()).isNotZero();
    assertThat(r.err()).contains("--journal-pool-size: expected 3 to 1000 connections, found 2");
  }

  @Test
  void verify_withJournal_checksEveryRowAndExitsOneOnDamage() throws Exception {
    CliRunner cli = new CliRunner(tmp.resolve("a"));
    for (int i = 0; i < 3; i++) {
      assertThat(
              cli.run("--journal", db.url(), "trace", "add", "--ns", "acme", "--content", "" + i)
                  .exitCode())
          .isZero();
    }
    CliRunner.Result clean = cli.run("--journal", db.url(), "--json", "verify");
    assertThat(clean.exitCode()).as(clean.err()).isZero();
    assertThat(clean.json().get("batches").asLong()).isEqualTo(3);

    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("DELETE FROM loci_batch WHERE seq = 2");
    }
    CliRunner.Result damaged = cli.run("--journal", db.url(), "verify");

    assertThat(damaged.exitCode()).isEqualTo(1);
    assertThat(damaged.out()).contains("sequence_gap").contains("batches 2 to 2 are missing");
    assertThat(damaged.err()).contains("damage found in postgresql://");
  }

  @Test
  void journal_notAPostgresUrl_isAUsageErrorNamingTheOption() {
    CliRunner cli = new CliRunner(tmp.resolve("a"));

    CliRunner.Result r = cli.run("--journal", "mysql://h/db", "trace", "search", "--ns", "acme");

    assertThat(r.exitCode()).isEqualTo(2);
    CliRunner.assertOneErrorLine(r, "--journal", "postgresql://");
  }

  @Test
  void journal_passwordInUrl_neverPrinted() {
    CliRunner cli = new CliRunner(tmp.resolve("a"));
    String url = db.url().replace("postgres@", "postgres:s3cret-pw@");

    CliRunner.Result r = cli.run("--journal", url, "verify");

    assertThat(r.out() + r.err()).doesNotContain("s3cret-pw");
  }
}
