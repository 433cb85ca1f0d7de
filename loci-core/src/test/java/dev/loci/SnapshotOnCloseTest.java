package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When closing writes a snapshot: after enough batches, or after enough events whatever the batch
 * count (a bulk ingest writes few batches of many events), counting events replayed on open too.
 */
class SnapshotOnCloseTest {
  private static final Namespace NS = Namespace.of("acme");

  @TempDir Path dir;

  private long snapshots() throws IOException {
    Path snaps = dir.resolve("snapshots");
    if (!Files.isDirectory(snaps)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(snaps)) {
      return files.count();
    }
  }

  private Loci open(long afterEvents) {
    return Loci.builder().dataDir(dir).snapshotAfter(1_000).snapshotAfterEvents(afterEvents).open();
  }

  @Test
  void close_eventsBelowTheThreshold_noSnapshot() throws Exception {
    try (Loci loci = open(5)) {
      for (int i = 0; i < 4; i++) {
        loci.traces().add(NS, "{\"i\":" + i + "}", List.of());
      }
    }
    assertThat(snapshots()).isZero();
  }

  @Test
  void close_eventsReachTheThresholdInFewerBatchesThanSnapshotAfter_writesASnapshot()
      throws Exception {
    try (Loci loci = open(5)) {
      for (int i = 0; i < 5; i++) {
        loci.traces().add(NS, "{\"i\":" + i + "}", List.of());
      }
    }
    assertThat(snapshots()).isEqualTo(1);
    try (Loci loci = open(5)) {
      assertThat(loci.traces().total()).isEqualTo(5); // restored from it
    }
    assertThat(snapshots()).as("nothing new to snapshot").isEqualTo(1);
  }

  @Test
  void close_afterReplayingEnoughEventsOnOpen_writesASnapshot() throws Exception {
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      for (int i = 0; i < 6; i++) {
        loci.traces().add(NS, "{\"i\":" + i + "}", List.of());
      }
    }
    assertThat(snapshots()).isZero();
    try (Loci loci = open(6)) {
      assertThat(loci.traces().total()).isEqualTo(6); // replayed, nothing written
    }
    assertThat(snapshots()).isEqualTo(1);
  }

  @Test
  void snapshotAfterEvents_belowOne_refusedNamingTheOption() {
    assertThatThrownBy(() -> Loci.builder().snapshotAfterEvents(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("snapshotAfterEvents")
        .hasMessageContaining("found 0");
  }
}
