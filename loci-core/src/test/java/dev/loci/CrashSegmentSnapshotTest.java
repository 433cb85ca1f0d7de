package dev.loci;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.CrashFixture.Built;
import dev.loci.internal.FileJournal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Recovery across many small segments, compaction, and damaged or unknown snapshots: every path
 * through "newest valid snapshot + journal tail" ends in the same state.
 */
class CrashSegmentSnapshotTest {
  private static final int SEGMENTED_BATCHES = 150;
  private static final int SNAPSHOT_BATCHES = 120;

  @TempDir static Path tmp;

  /** Many segments of at most 1 KiB, no snapshot. */
  private static Built segmented;

  /** One segment, snapshots after batches 50 and 100. */
  private static Built snapshotted;

  @BeforeAll
  static void buildFixtures() {
    segmented =
        CrashFixture.build(
            tmp.resolve("segmented"),
            CrashFixture.BASE_SEED + 2,
            SEGMENTED_BATCHES,
            b -> b.segmentBytes(1024),
            Set.of());
    snapshotted =
        CrashFixture.build(
            tmp.resolve("snapshotted"),
            CrashFixture.BASE_SEED + 3,
            SNAPSHOT_BATCHES,
            b -> b,
            Set.of(50, 100));
    assertThat(snapshotted.snapshotSeqs()).containsExactly(50L, 100L);
  }

  // ------------------------------------------------------------------ segments

  @Test
  void reopen_withManySmallSegments_restoresTheFullState() throws IOException {
    List<Path> segments = CrashFixture.segments(segmented.dir());
    assertThat(segments).hasSizeGreaterThan(20);
    for (Path s : segments) {
      long size = Files.size(s);
      long lines = CrashFixture.lineStarts(Files.readAllBytes(s)).length - 1;
      assertThat(size <= 1024 || lines == 1)
          .as(
              "%s holds %d bytes in %d lines: rolled at 1 KiB unless one line is bigger",
              s, size, lines)
          .isTrue();
    }
    try (Loci loci =
        CrashFixture.open(CrashFixture.copy(segmented.dir(), tmp.resolve("seg-open")))) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(loci.lastSeq()).isEqualTo(SEGMENTED_BATCHES);
      assertThat(CrashFixture.state(loci)).isEqualTo(segmented.finalState());
    }
    VerifyReport report = Loci.verify(segmented.dir());
    assertThat(report.damage()).isEmpty();
    assertThat(report.segments()).isEqualTo(segments.size());
    assertThat(report.batches()).isEqualTo(SEGMENTED_BATCHES);
  }

  @Test
  void cut_inTheLastSegment_reopensToTheCommittedPrefix() throws Exception {
    List<Path> segments = CrashFixture.segments(segmented.dir());
    Path last = segments.get(segments.size() - 1);
    byte[] bytes = Files.readAllBytes(last);
    long[] starts = CrashFixture.lineStarts(bytes);
    long before = FileJournal.firstSeq(last) - 1;
    Set<Long> cuts = new TreeSet<>();
    for (long s : starts) {
      cuts.add(s);
      cuts.add(Math.max(0, s - 1));
      cuts.add(Math.min(bytes.length, s + 1));
    }
    long seed = CrashFixture.BASE_SEED ^ 0xc0ffee;
    Random r = new Random(seed);
    for (int i = 0; i < 15; i++) {
      cuts.add(r.nextLong(bytes.length));
    }
    CrashFixture.withSeed(
        seed,
        () -> {
          for (long cut : cuts) {
            checkCutOfLastSegment(last.getFileName().toString(), bytes, starts, before, cut);
          }
        });
  }

  private static void checkCutOfLastSegment(
      String name, byte[] bytes, long[] starts, long before, long cut) throws IOException {
    Path dir = CrashFixture.copy(segmented.dir(), tmp.resolve("seg-cut-" + cut));
    Path segment = dir.resolve("journal").resolve(name);
    CrashFixture.truncate(segment, cut);
    int lines = 0;
    while (lines + 1 < starts.length && starts[lines + 1] <= cut) {
      lines++;
    }
    int complete = lines;
    boolean inside = cut > starts[complete];
    String at = "cut of " + name + " at " + cut + " of " + bytes.length;
    Trace added;
    try (Loci loci = CrashFixture.open(dir)) {
      if (inside) {
        assertThat(loci.openDamage())
            .as(at)
            .singleElement()
            .satisfies(
                d -> {
                  assertThat(d.kind()).isEqualTo(Damage.Kind.TORN_TAIL);
                  assertThat(d.file()).isEqualTo(segment);
                  assertThat(d.offset()).isEqualTo(starts[complete]);
                });
      } else {
        assertThat(loci.openDamage()).as(at).isEmpty();
      }
      assertThat(Files.size(segment)).as(at).isEqualTo(starts[complete]);
      assertThat(loci.lastSeq()).as(at).isEqualTo(before + complete);
      assertThat(CrashFixture.state(loci))
          .as(at)
          .isEqualTo(segmented.states().get((int) before + complete));
      added = loci.traces().add(CrashFixture.ALPHA, "{\"cut\":" + cut + "}", List.of());
      assertThat(loci.lastSeq()).as(at).isEqualTo(before + complete + 1);
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).as(at).isEmpty();
      assertThat(CrashFixture.state(loci))
          .as(at)
          .isEqualTo(CrashFixture.with(segmented.states().get((int) before + complete), added));
    }
    assertThat(Loci.verify(dir).damage()).as(at).isEmpty();
  }

  @Test
  void compact_deletesOldSegments_andReopenFromTheSnapshotGivesTheSameState() throws IOException {
    Path dir = CrashFixture.copy(segmented.dir(), tmp.resolve("compact"));
    int segmentsBefore = CrashFixture.segments(dir).size();
    List<Trace> added = new ArrayList<>();
    try (Loci loci = CrashFixture.open(dir)) {
      Loci.CompactReport report = loci.compact();
      assertThat(report.snapshotSeq()).isEqualTo(SEGMENTED_BATCHES);
      assertThat(report.segmentsDeleted()).isEqualTo(segmentsBefore);
      assertThat(CrashFixture.segments(dir))
          .extracting(p -> p.getFileName().toString())
          .containsExactly(FileJournal.segmentName(SEGMENTED_BATCHES + 1));
      assertThat(CrashFixture.snapshots(dir))
          .extracting(p -> p.getFileName().toString())
          .containsExactly(String.format("%020d.snapshot", SEGMENTED_BATCHES));
      assertThat(CrashFixture.state(loci)).isEqualTo(segmented.finalState());
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(loci.lastSeq()).isEqualTo(SEGMENTED_BATCHES);
      assertThat(CrashFixture.state(loci)).isEqualTo(segmented.finalState());
      for (int i = 0; i < 10; i++) {
        added.add(loci.traces().add(CrashFixture.BETA, "{\"after_compact\":" + i + "}", List.of()));
      }
      assertThat(loci.lastSeq()).as("numbers continue after the snapshot").isEqualTo(160);
    }
    Map<String, Trace> expected = segmented.finalState();
    for (Trace t : added) {
      expected = CrashFixture.with(expected, t);
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(loci.lastSeq()).isEqualTo(160);
      assertThat(CrashFixture.state(loci)).isEqualTo(expected);
      Loci.CompactReport again = loci.compact();
      assertThat(again.snapshotSeq()).isEqualTo(160);
      assertThat(again.segmentsDeleted()).isPositive();
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(CrashFixture.state(loci)).isEqualTo(expected);
      assertThat(CrashFixture.snapshots(dir)).hasSize(1);
    }
    assertThat(Loci.verify(dir).damage()).isEmpty();
  }

  // ------------------------------------------------------------------ damaged snapshots

  static LongStream seeds() {
    return CrashFixture.seeds(10);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void corruptNewestSnapshot_isReported_andOpenFallsBackWithoutLosingState(long seed) {
    CrashFixture.withSeed(
        seed,
        () -> {
          Path dir = CrashFixture.copy(snapshotted.dir(), tmp.resolve("bad-snap-" + seed));
          List<Path> snaps = CrashFixture.snapshots(dir);
          Path newest = snaps.get(1);
          long offset = flipRandomByte(newest, new Random(seed));
          String what = "byte " + offset + " of " + newest.getFileName();
          try (Loci loci = CrashFixture.open(dir)) {
            assertThat(loci.openDamage())
                .as(what)
                .singleElement()
                .satisfies(
                    d -> {
                      assertThat(d.kind()).isEqualTo(Damage.Kind.BAD_SNAPSHOT);
                      assertThat(d.file()).isEqualTo(newest);
                      assertThat(d.seq()).hasValue(100);
                    });
            assertThat(loci.lastSeq()).as(what).isEqualTo(SNAPSHOT_BATCHES);
            assertThat(CrashFixture.state(loci)).as(what).isEqualTo(snapshotted.finalState());
          }
          VerifyReport report = Loci.verify(dir);
          assertThat(report.ok()).as(what).isFalse();
          assertThat(report.damage())
              .as(what)
              .singleElement()
              .satisfies(
                  d -> {
                    assertThat(d.kind()).isEqualTo(Damage.Kind.BAD_SNAPSHOT);
                    assertThat(d.file()).isEqualTo(newest);
                  });
        });
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void corruptEverySnapshot_opensFromTheJournalAlone(long seed) {
    CrashFixture.withSeed(
        seed,
        () -> {
          Path dir = CrashFixture.copy(snapshotted.dir(), tmp.resolve("bad-snaps-" + seed));
          Random r = new Random(seed);
          List<Path> snaps = CrashFixture.snapshots(dir);
          for (Path s : snaps) {
            flipRandomByte(s, r);
          }
          try (Loci loci = CrashFixture.open(dir)) {
            assertThat(loci.openDamage())
                .extracting(Damage::kind, Damage::file)
                .containsExactlyInAnyOrder(
                    org.assertj.core.groups.Tuple.tuple(Damage.Kind.BAD_SNAPSHOT, snaps.get(0)),
                    org.assertj.core.groups.Tuple.tuple(Damage.Kind.BAD_SNAPSHOT, snaps.get(1)));
            assertThat(CrashFixture.state(loci)).isEqualTo(snapshotted.finalState());
          }
        });
  }

  @Test
  void truncatedSnapshot_isABadSnapshot_andOpenFallsBack() throws IOException {
    Path dir = CrashFixture.copy(snapshotted.dir(), tmp.resolve("short-snap"));
    Path newest = CrashFixture.snapshots(dir).get(1);
    CrashFixture.truncate(newest, Files.size(newest) / 2);
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage())
          .singleElement()
          .satisfies(d -> assertThat(d.kind()).isEqualTo(Damage.Kind.BAD_SNAPSHOT));
      assertThat(CrashFixture.state(loci)).isEqualTo(snapshotted.finalState());
    }
  }

  @Test
  void journalCutBelowTheNewestSnapshot_opensFromTheSnapshot_andNeverReusesSequenceNumbers()
      throws IOException {
    Path dir = CrashFixture.copy(snapshotted.dir(), tmp.resolve("journal-behind"));
    Path segment = CrashFixture.onlySegment(dir);
    long[] starts = CrashFixture.lineStarts(Files.readAllBytes(segment));
    CrashFixture.truncate(segment, starts[90]); // batches 91..120 gone, snapshot 100 remains
    Trace added;
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(CrashFixture.lossy(loci.openDamage())).isEmpty();
      assertThat(loci.lastSeq()).isEqualTo(100);
      assertThat(CrashFixture.state(loci)).isEqualTo(snapshotted.states().get(100));
      added = loci.traces().add(CrashFixture.ALPHA, "{\"after\":\"snapshot\"}", List.of());
      assertThat(loci.lastSeq()).isEqualTo(101);
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.lastSeq()).isEqualTo(101);
      assertThat(CrashFixture.state(loci))
          .isEqualTo(CrashFixture.with(snapshotted.states().get(100), added));
    }
  }

  /**
   * After compaction the snapshot is the only copy of the batches it covers. If it rots, opening
   * must say that those batches are gone, as {@link Loci#verify} does, instead of only that the
   * snapshot is bad and "an older snapshot or the journal" is used: neither holds them.
   */
  @Test
  void corruptSnapshotAfterCompaction_openReportsTheBatchesNoLongerAnywhere() throws IOException {
    Path dir = CrashFixture.copy(segmented.dir(), tmp.resolve("compact-rot"));
    try (Loci loci = CrashFixture.open(dir)) {
      loci.compact();
      loci.traces().add(CrashFixture.ALPHA, "{\"after\":\"compact\"}", List.of());
    }
    Path snapshot = CrashFixture.snapshots(dir).get(0);
    CrashFixture.xor(snapshot, Files.size(snapshot) / 2, 0x01);
    assertThat(Loci.verify(dir).damage())
        .extracting(Damage::kind)
        .containsExactlyInAnyOrder(Damage.Kind.BAD_SNAPSHOT, Damage.Kind.SEQUENCE_GAP);
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage())
          .extracting(Damage::kind)
          .containsExactlyInAnyOrder(Damage.Kind.BAD_SNAPSHOT, Damage.Kind.SEQUENCE_GAP);
      assertThat(CrashFixture.ofKind(loci.openDamage(), Damage.Kind.SEQUENCE_GAP))
          .singleElement()
          .satisfies(d -> assertThat(d.seq()).hasValue(SEGMENTED_BATCHES + 1));
    }
  }

  /**
   * Batches missing from the journal but covered by a valid snapshot are not lost: opening restores
   * them from the snapshot and reports nothing, so verify must not fail either.
   */
  @Test
  void verify_gapInTheJournalCoveredByASnapshot_isNotLoss() throws IOException {
    Path dir = CrashFixture.copy(snapshotted.dir(), tmp.resolve("gap-covered"));
    Path segment = CrashFixture.onlySegment(dir);
    long[] starts = CrashFixture.lineStarts(Files.readAllBytes(segment));
    CrashFixture.truncate(segment, starts[90]); // batches 91..120 gone, snapshot 100 remains
    try (Loci loci = CrashFixture.open(dir)) {
      loci.traces().add(CrashFixture.ALPHA, "{\"after\":\"snapshot\"}", List.of());
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).isEmpty();
    }
    assertThat(Loci.verify(dir).ok()).as("%s", Loci.verify(dir).damage()).isTrue();
  }

  // ------------------------------------------------------------------ snapshot versions

  @Test
  void snapshotOfVersion99_isRefused_withAnErrorNamingTheVersion() throws IOException {
    Path dir = CrashFixture.copy(snapshotted.dir(), tmp.resolve("v99"));
    Path newest = CrashFixture.snapshots(dir).get(1);
    rewriteHeader(newest, "\"version\":1,", "\"version\":99,");
    byte[] before = Files.readAllBytes(newest);

    assertThatThrownBy(() -> CrashFixture.open(dir))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("version 99")
        .hasMessageContaining(newest.getFileName().toString());
    assertThat(Files.readAllBytes(newest)).as("the file is left alone").isEqualTo(before);

    VerifyReport report = Loci.verify(dir);
    assertThat(report.ok()).isFalse();
    assertThat(report.damage())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(Damage.Kind.BAD_SNAPSHOT);
              assertThat(d.file()).isEqualTo(newest);
              assertThat(d.detail()).contains("version 99");
            });

    // the error says to move the file away; then the journal and the older snapshot serve
    Files.move(newest, tmp.resolve("v99-moved.snapshot"));
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(CrashFixture.state(loci)).isEqualTo(snapshotted.finalState());
    }
  }

  /**
   * A bit flip in the version digit of a version-1 snapshot is damage, not a file from the future:
   * the file's own checksum says so. It must be skipped like any other damaged snapshot, not stop
   * the data directory from opening.
   */
  @Test
  void snapshotVersionDigitFlipped_isABadSnapshot_notAnUnknownVersion() throws IOException {
    Path dir = CrashFixture.copy(snapshotted.dir(), tmp.resolve("v-flip"));
    Path newest = CrashFixture.snapshots(dir).get(1);
    byte[] bytes = Files.readAllBytes(newest);
    int digit = new String(bytes, UTF_8).indexOf("\"version\":1,") + "\"version\":".length();
    CrashFixture.xor(newest, digit, 0x02); // '1' -> '3'
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage())
          .singleElement()
          .satisfies(d -> assertThat(d.kind()).isEqualTo(Damage.Kind.BAD_SNAPSHOT));
      assertThat(CrashFixture.state(loci)).isEqualTo(snapshotted.finalState());
    }
  }

  /** Flips one random byte of {@code file} to another value; returns its offset. */
  private static long flipRandomByte(Path file, Random r) throws IOException {
    long offset = r.nextLong(Files.size(file));
    CrashFixture.xor(file, offset, 1 + r.nextInt(255));
    return offset;
  }

  /**
   * Replaces text in a snapshot's header line and recomputes the end line's checksum, as a writer
   * of that header would have.
   */
  private static void rewriteHeader(Path file, String from, String to) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    long[] starts = CrashFixture.lineStarts(bytes);
    String header = new String(bytes, 0, (int) starts[1], UTF_8);
    assertThat(header).contains(from);
    byte[] newHeader = header.replace(from, to).getBytes(UTF_8);
    int footerStart = (int) starts[starts.length - 2];
    byte[] body = Arrays.copyOfRange(bytes, (int) starts[1], footerStart);
    String footer = new String(bytes, footerStart, bytes.length - footerStart, UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(newHeader);
    crc.update(body);
    String newFooter =
        footer.replaceFirst(
            "\"crc32c\":\"[0-9a-f]{8}\"", String.format("\"crc32c\":\"%08x\"", crc.getValue()));
    assertThat(newFooter).isNotEqualTo(footer);
    Files.write(file, CrashFixture.concat(newHeader, body, newFooter.getBytes(UTF_8)));
  }
}
