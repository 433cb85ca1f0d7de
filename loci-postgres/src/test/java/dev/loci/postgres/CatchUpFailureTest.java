package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.spi.JournalUnavailableException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server whose read of the batches other servers appended fails (here the archive table, which
 * every read joins, is gone for a while; in production a lost connection) fails that write as
 * unavailable and takes writes again once the journal reads again; before, the failure stopped
 * every write until a restart although nothing had been written.
 */
class CatchUpFailureTest {
  private static final Namespace NS = Namespace.of("acme");

  private TestDatabase db;

  @TempDir Path dir;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_catchup");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  private Loci server(String name) {
    return Loci.builder()
        .dataDir(dir.resolve(name))
        .journal(
            d ->
                PostgresJournal.open(
                    PostgresUrl.parse(db.url()), JournalOptions.defaults().withDataDir(d)))
        .open();
  }

  private void sql(String statement) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  /** a writes x; b writes more than a catch-up reads in one statement, then updates x. */
  private String aBehindByAThousandBatches(Loci a, Loci b) {
    String x = a.traces().add(NS, "{\"n\":\"x\"}", List.of()).uid();
    // a's catch-up then reads them with a cursor over the archive and the table
    for (int i = 0; i < 1001; i++) {
      b.traces().add(NS, "{\"n\":\"b" + i + "\"}", List.of()); // the first one applies x
    }
    b.traces().update(NS, x, "{\"n\":\"x by b\"}");
    return x;
  }

  @Test
  void aFailedCatchUpRead_failsThatWriteAsUnavailable_andWritesResumeOnceReadsWork()
      throws Exception {
    try (Loci a = server("a");
        Loci b = server("b")) {
      String x = aBehindByAThousandBatches(a, b);
      sql("ALTER TABLE loci_batch_archive RENAME TO loci_batch_archive_away");
      // a's update of x is refused (b's batch holds x), and reading b's batches fails
      assertThatThrownBy(() -> a.traces().update(NS, x, "{\"n\":\"x by a\"}"))
          .isInstanceOf(JournalUnavailableException.class);
      sql("ALTER TABLE loci_batch_archive_away RENAME TO loci_batch_archive");

      String a3 = a.traces().add(NS, "{\"n\":\"a3\"}", List.of()).uid();
      // a applied b's batches and wrote after them; its update was never written
      assertThat(a.lastSeq()).isEqualTo(1004);
      assertThat(a.traces().get(NS, a3).content()).contains("a3");
      assertThat(a.traces().get(NS, x).content()).contains("x by b");
    }
  }

  @Test
  void aWriteMovedPastOthersBatches_whoseReadFails_failsSayingItIsWritten_andIsAppliedLater()
      throws Exception {
    // numbers of four digits throughout: the database renumbers a round only within a digit count
    PostgresJournal.open(db.url()).close(); // creates the schema
    sql("UPDATE loci_journal SET floor = 1000");
    try (Loci a = server("a");
        Loci b = server("b")) {
      aBehindByAThousandBatches(a, b);
      sql("ALTER TABLE loci_batch_archive RENAME TO loci_batch_archive_away");
      // no key of a2 is in b's batches: numbered after them and written, but not applied on a
      assertThatThrownBy(() -> a.traces().add(NS, "{\"n\":\"a2\"}", List.of()))
          .isInstanceOf(StorageException.class)
          .isNotInstanceOf(JournalUnavailableException.class)
          .hasMessageContaining("written to the journal as batch 2004")
          .hasMessageContaining("a later catch-up applies it");
      sql("ALTER TABLE loci_batch_archive_away RENAME TO loci_batch_archive");

      a.traces().add(NS, "{\"n\":\"a3\"}", List.of());
      assertThat(a.lastSeq()).isEqualTo(2005);
      assertThat(a.traces().total()).isEqualTo(1004); // x, b's 1001, a2, a3
      b.catchUp();
      assertThat(b.traces().total()).isEqualTo(1004);
    }
  }
}
