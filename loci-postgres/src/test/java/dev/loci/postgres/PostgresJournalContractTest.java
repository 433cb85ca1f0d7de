package dev.loci.postgres;

import dev.loci.spi.Journal;
import dev.loci.spi.JournalContract;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The {@link Journal} contract the file journal meets, met by the PostgreSQL journal too. */
class PostgresJournalContractTest extends JournalContract {
  private TestDatabase db;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_contract");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  @Override
  protected Journal open(Path dir) {
    return PostgresJournal.open(db.url());
  }
}
