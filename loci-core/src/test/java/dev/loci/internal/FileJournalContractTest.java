package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalContract;
import java.nio.file.Path;

/**
 * The {@link Journal} contract, met by the file journal with fsync on every append, whose
 * concurrent writers share fsyncs (group commit).
 */
class FileJournalContractTest extends JournalContract {
  @Override
  protected Journal open(Path dir) {
    return FileJournal.open(dir.resolve("journal"), Durability.always(), 1 << 20);
  }

  @Override
  protected void afterConcurrentAppends(Journal journal, int appends) {
    assertThat(((FileJournal) journal).fsyncCount())
        .as("group commit: fsyncs for %d durable appends", appends)
        .isLessThan(appends);
  }
}
