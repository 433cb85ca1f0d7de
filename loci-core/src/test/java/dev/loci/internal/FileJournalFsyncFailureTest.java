package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Durability;
import dev.loci.StorageException;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.JournalUnavailableException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed fsync leaves the file's state unknown: the journal cuts off what the last good fsync did
 * not cover, so a batch reported as failed is never read back (an fsync that fails cannot be
 * produced on a real disk in a test, so the fsync is replaced by one that throws).
 */
class FileJournalFsyncFailureTest {
  @TempDir Path dir;

  private static List<String> uids(Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    FileJournal.read(
        dir,
        1,
        true,
        (JournalEntry e) -> out.add(e.events().get(0).data().get("uid").asText()),
        d -> out.add("damage: " + d));
    return out;
  }

  @Test
  void awaitDurable_fsyncFails_batchCutOffReportedNotWrittenAndJournalTakesWritesAgain()
      throws IOException {
    try (FileJournal j = FileJournal.open(dir, Durability.always(), 1 << 20)) {
      j.appendDurably(FileJournalTest.batch("a"));
      j.appendDurably(FileJournalTest.batch("b"));
      j.sync();
      AtomicInteger failures = new AtomicInteger(1);
      j.forcer(
          ch -> {
            if (failures.getAndDecrement() > 0) {
              throw new IOException("Input/output error");
            }
            ch.force(false);
          });
      Journal.Appended failed = j.append(FileJournalTest.batch("lost"));
      assertThatThrownBy(failed::awaitDurable)
          .isInstanceOf(JournalUnavailableException.class)
          .hasMessageContaining("nothing of them was kept");
      assertThat(j.lastSeq()).isEqualTo(2);
      assertThat(j.unavailable()).get().asString().contains("Input/output error");
      assertThat(uids(dir)).containsExactly("a", "b");

      assertThat(j.appendDurably(FileJournalTest.batch("c"))).isEqualTo(3);
      assertThat(j.unavailable()).isEmpty();
    }
    try (FileJournal j = FileJournal.open(dir, Durability.always(), 1 << 20)) {
      assertThat(j.openDamage()).isEmpty();
    }
    assertThat(uids(dir)).containsExactly("a", "b", "c");
  }

  @Test
  void awaitDurable_fsyncAndCutFail_outcomeUnknownWritesStopUntilResumeCutsIt() throws IOException {
    try (FileJournal j = FileJournal.open(dir, Durability.always(), 1 << 20)) {
      j.appendDurably(FileJournalTest.batch("a"));
      boolean[] broken = {true};
      j.forcer(
          ch -> {
            if (broken[0]) {
              throw new IOException("Input/output error");
            }
            ch.force(false);
          });
      Journal.Appended failed = j.append(FileJournalTest.batch("lost"));
      assertThatThrownBy(failed::awaitDurable)
          .isInstanceOf(StorageException.class)
          .isNotInstanceOf(JournalUnavailableException.class)
          .hasMessageContaining("unknown");
      assertThat(j.unavailable()).get().asString().contains("writes are stopped");
      assertThatThrownBy(() -> j.append(FileJournalTest.batch("refused")))
          .isInstanceOf(StorageException.class);
      assertThat(j.resume()).as("the disk still fails").isPresent();

      broken[0] = false;
      assertThat(j.resume()).isEmpty();
      assertThat(uids(dir)).containsExactly("a");
      assertThat(j.appendDurably(FileJournalTest.batch("b"))).isEqualTo(2);
    }
    assertThat(uids(dir)).containsExactly("a", "b");
  }
}
