package dev.loci.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Loci;
import dev.loci.Namespace;
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

  @Test
  void aFailedCatchUpRead_failsThatWriteAsUnavailable_andWritesResumeOnceReadsWork()
      throws Exception {
    try (Loci a = server("a");
        Loci b = server("b")) {
      a.traces().add(NS, "{\"n\":\"a1\"}", List.of());
      // b catches up with a1, then appends more than one statement reads in a catch-up, so a
      // reads them with a cursor over the archive and the table
      for (int i = 0; i < 1001; i++) {
        b.traces().add(NS, "{\"n\":\"b" + i + "\"}", List.of());
      }
      sql("ALTER TABLE loci_batch_archive RENAME TO loci_batch_archive_away");
      // a's append is refused (b took the number), and reading b's batch fails
      assertThatThrownBy(() -> a.traces().add(NS, "{\"n\":\"a2\"}", List.of()))
          .isInstanceOf(JournalUnavailableException.class);
      sql("ALTER TABLE loci_batch_archive_away RENAME TO loci_batch_archive");

      String a3 = a.traces().add(NS, "{\"n\":\"a3\"}", List.of()).uid();
      // a applied b's batch and wrote after it; a2 was never written
      assertThat(a.lastSeq()).isEqualTo(1003);
      assertThat(a.traces().get(NS, a3).content()).contains("a3");
    }
  }
}
