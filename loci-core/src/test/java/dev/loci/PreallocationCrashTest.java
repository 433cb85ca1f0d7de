package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preallocated segments after a crash: a copy of a live directory (zero tails, several segments)
 * reopens with every acknowledged batch; a page of zeros inside the unsynced tail must not let a
 * later batch survive without the batches before it.
 */
class PreallocationCrashTest {
  private static final Namespace NS = CrashFixture.ALPHA;

  @Test
  void open_copyOfLiveDirectoryWithRolledPreallocatedSegments_everyBatchBackWithoutDamage(
      @TempDir Path tmp) throws Exception {
    Path live = tmp.resolve("live");
    Path copy = tmp.resolve("copy");
    Map<String, Trace> state;
    try (Loci loci = Loci.builder().dataDir(live).segmentBytes(2048).snapshotAfter(0).open()) {
      List<Trace> added = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        added.add(
            loci.traces()
                .add(NS, "{\"i\":" + i + ",\"pad\":\"" + "x".repeat(i * 7) + "\"}", List.of()));
        if (i % 9 == 0) {
          loci.traces().update(NS, added.get(i / 2).uid(), "{\"u\":" + i + "}");
        }
      }
      List<Path> segments = CrashFixture.segments(live);
      assertThat(segments).as("rolled").hasSizeGreaterThan(3);
      byte[] active = Files.readAllBytes(segments.get(segments.size() - 1));
      assertThat(active[active.length - 1]).as("the live active segment has a zero tail").isZero();
      for (Path s : segments.subList(0, segments.size() - 1)) {
        byte[] b = Files.readAllBytes(s);
        assertThat(b[b.length - 1])
            .as("rolled segment %s ends with its last line", s)
            .isEqualTo((byte) '\n');
      }
      assertThat(Loci.verify(live).damage()).as("verify beside the live instance").isEmpty();
      state = CrashFixture.state(loci);
      CrashFixture.copy(live, copy);
    }
    long lastSeq;
    try (Loci loci = CrashFixture.open(copy)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(CrashFixture.state(loci)).isEqualTo(state);
      lastSeq = loci.lastSeq();
      loci.traces().add(NS, "{\"after\":true}", List.of());
      assertThat(loci.lastSeq()).isEqualTo(lastSeq + 1);
    }
    try (Loci loci = CrashFixture.open(copy)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(loci.lastSeq()).isEqualTo(lastSeq + 1);
    }
    assertThat(Loci.verify(copy).damage()).isEmpty();
  }

  /**
   * With preallocation, appends overwrite blocks the file already has, so after a crash the page
   * cache may have reached the disk in any order: an unsynced line can read back as zeros while a
   * later unsynced line survived. Before preallocation the file grew, and ext4's ordered mode kept
   * grown files free of such holes.
   */
  @Test
  void open_unsyncedLineReadBackAsZerosBeforeALaterLine_recoversAPrefixOnly(@TempDir Path tmp)
      throws Exception {
    Path dir = tmp.resolve("data");
    List<Map<String, Trace>> states = new ArrayList<>();
    try (Loci loci = CrashFixture.open(dir)) {
      states.add(CrashFixture.state(loci));
      for (int i = 1; i <= 5; i++) {
        loci.traces().add(NS, "{\"i\":" + i + "}", List.of());
        states.add(CrashFixture.state(loci));
      }
    }
    Path segment = CrashFixture.onlySegment(dir);
    byte[] bytes = Files.readAllBytes(segment);
    long[] starts = CrashFixture.lineStarts(bytes);
    // the crash image: batches 1-3 synced; batch 4 (newline included) never reached the disk,
    // batch 5 did; the preallocated rest of the segment is zeros
    for (long i = starts[3]; i < starts[4]; i++) {
      bytes[(int) i] = 0;
    }
    Files.write(segment, CrashFixture.concat(bytes, new byte[8192]));

    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(CrashFixture.state(loci))
          .as("batches 4 and 5 were never acknowledged; only a prefix may come back")
          .isIn(states.get(3), states.get(5));
    }
  }
}
