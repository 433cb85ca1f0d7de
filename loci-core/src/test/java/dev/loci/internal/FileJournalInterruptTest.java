package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.Trace;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An interrupted caller must not cost the journal its channel. */
class FileJournalInterruptTest {
  private static final Namespace NS = Namespace.of("acme");
  private static final Instant TS = Instant.parse("2026-11-22T10:00:00.123456Z");

  @TempDir Path dir;

  private static Batch batch(String uid) {
    ObjectNode data = Json.object();
    data.put("uid", uid);
    return new Batch(TS, NS, "test", List.of(new Event("trace.retired", data)));
  }

  @Test
  void append_interruptedCallerNeedingPreallocation_journalStaysUsable() {
    try (FileJournal j = FileJournal.open(dir, Durability.none(), 1 << 20)) {
      Thread.currentThread().interrupt();
      Throwable first = null;
      try {
        j.append(batch("a"));
      } catch (RuntimeException e) {
        first = e;
      } finally {
        Thread.interrupted();
      }
      assertThat(first).as("an interrupted append").isNull();
      assertThat(j.append(batch("b")).seq()).isEqualTo(2);
    }
  }

  @Test
  void add_interruptedFirstWriteOfSegment_laterWritesStillSucceed() {
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      Thread.currentThread().interrupt();
      try {
        loci.traces().add(NS, "1", List.of());
      } catch (RuntimeException e) {
        // the interrupted write itself may fail; the instance must not
      } finally {
        Thread.interrupted();
      }
      Trace t = loci.traces().add(NS, "2", List.of());
      assertThat(loci.traces().get(NS, t.uid()).content()).isEqualTo("2");
    }
  }
}
