package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.CrashFixture.Built;
import dev.loci.CrashFixture.Expected;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bit rot in a committed line that is not the last: the engine still opens, skips exactly the
 * damaged batches (and those that depend on them), reports each with file, offset and sequence,
 * keeps every other batch, and {@link Loci#verify} fails until the damage is gone.
 */
class CrashCorruptLineTest {
  private static final int BATCHES = 40;

  @TempDir static Path tmp;
  private static Built base;
  private static long[] starts;
  private static String segmentName;

  @BeforeAll
  static void buildFixture() throws IOException {
    base = CrashFixture.build(tmp.resolve("base"), CrashFixture.BASE_SEED + 1, BATCHES);
    Path segment = CrashFixture.onlySegment(base.dir());
    segmentName = segment.getFileName().toString();
    starts = CrashFixture.lineStarts(Files.readAllBytes(segment));
    assertThat(starts).hasSize(BATCHES + 1);
  }

  static LongStream seeds() {
    return CrashFixture.seeds(40);
  }

  /** One flipped bit: which line, where, and whether it turned a byte into a newline. */
  private record Flip(int line, long offset, boolean madeNewline) {}

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void bitFlips_inLinesBeforeTheLast_skipAndReportOnlyTheDamagedBatches(long seed) {
    CrashFixture.withSeed(seed, () -> checkFlips(seed));
  }

  private void checkFlips(long seed) throws IOException {
    Random r = new Random(seed);
    Path dir = CrashFixture.copy(base.dir(), tmp.resolve("flip-" + seed));
    Path segment = dir.resolve("journal").resolve(segmentName);
    int damagedLines = 1 + r.nextInt(2);
    Set<Integer> lines = new TreeSet<>();
    while (lines.size() < damagedLines) {
      lines.add(r.nextInt(BATCHES - 1)); // never the last line
    }
    List<Flip> flips = new ArrayList<>();
    for (int line : lines) {
      Set<Long> offsets = new TreeSet<>();
      int bits = 1 + r.nextInt(3);
      while (offsets.size() < bits) {
        // any byte of the line but its newline, which is covered by its own tests below
        offsets.add(starts[line] + r.nextLong(starts[line + 1] - 1 - starts[line]));
      }
      for (long offset : offsets) {
        byte now = CrashFixture.xor(segment, offset, 1 << r.nextInt(8));
        flips.add(new Flip(line, offset, now == '\n'));
      }
    }
    Set<Long> lost = new TreeSet<>();
    lines.forEach(l -> lost.add(l + 1L));
    Expected expected = CrashFixture.expect(base.ops(), lost);
    String what = "flips " + flips;

    Trace added;
    try (Loci loci = CrashFixture.open(dir)) {
      List<Damage> damage = loci.openDamage();
      assertThat(CrashFixture.ofKind(damage, Damage.Kind.TORN_TAIL)).as(what).isEmpty();
      assertThat(CrashFixture.ofKind(damage, Damage.Kind.SEQUENCE_GAP)).as(what).isEmpty();
      assertThat(CrashFixture.ofKind(damage, Damage.Kind.BAD_SNAPSHOT)).as(what).isEmpty();
      for (int line : lines) {
        assertBadLineReported(damage, segment, line, flips, what);
      }
      assertThat(CrashFixture.ofKind(damage, Damage.Kind.BAD_LINE))
          .as(what + ": every BAD_LINE lies in a damaged line")
          .allSatisfy(
              d ->
                  assertThat(lines)
                      .anyMatch(l -> d.offset() >= starts[l] && d.offset() < starts[l + 1]));
      assertThat(
              CrashFixture.ofKind(damage, Damage.Kind.APPLY_ERROR).stream()
                  .map(d -> d.seq().getAsLong())
                  .toList())
          .as(what + ": batches that depend on a lost one are skipped, and only those")
          .containsExactlyInAnyOrderElementsOf(expected.applyErrors());
      assertThat(CrashFixture.state(loci))
          .as(what + ": every other batch is applied")
          .isEqualTo(expected.state());
      assertThat(loci.lastSeq()).as(what).isEqualTo(BATCHES);
      added = loci.traces().add(CrashFixture.BETA, "{\"after\":\"flip\"}", List.of());
      assertThat(loci.lastSeq()).as(what).isEqualTo(BATCHES + 1);
    }

    VerifyReport report = Loci.verify(dir);
    assertThat(report.ok()).as(what + ": verify must fail").isFalse();
    for (int line : lines) {
      assertBadLineReported(report.damage(), segment, line, flips, what + " (verify)");
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(CrashFixture.state(loci))
          .as(what + ": after another reopen")
          .isEqualTo(CrashFixture.with(expected.state(), added));
    }
  }

  private static void assertBadLineReported(
      List<Damage> damage, Path segment, int line, List<Flip> flips, String what) {
    long firstFlip =
        flips.stream().filter(f -> f.line() == line).mapToLong(Flip::offset).min().orElseThrow();
    List<Damage> atLine =
        damage.stream()
            .filter(d -> d.kind() == Damage.Kind.BAD_LINE && d.offset() == starts[line])
            .toList();
    assertThat(atLine).as(what + ": BAD_LINE at the start of line " + line).hasSize(1);
    Damage d = atLine.get(0);
    assertThat(d.file()).as(what).isEqualTo(segment);
    if (firstFlip >= starts[line] + CrashFixture.seqPrefixLength(line + 1)) {
      assertThat(d.seq()).as(what + ": seq of line " + line).hasValue(line + 1);
    }
  }

  @Test
  void newlineFlip_betweenTwoMiddleLines_losesBothBatchesAndReportsThem() throws IOException {
    int line = BATCHES / 2;
    Path dir = CrashFixture.copy(base.dir(), tmp.resolve("newline-middle"));
    Path segment = dir.resolve("journal").resolve(segmentName);
    CrashFixture.xor(segment, starts[line + 1] - 1, 0x20); // '\n' -> '*'
    Expected expected = CrashFixture.expect(base.ops(), Set.of(line + 1L, line + 2L));
    try (Loci loci = CrashFixture.open(dir)) {
      List<Damage> damage = loci.openDamage();
      assertThat(damage)
          .anySatisfy(
              d -> {
                assertThat(d.kind()).isEqualTo(Damage.Kind.BAD_LINE);
                assertThat(d.offset()).isEqualTo(starts[line]);
                assertThat(d.seq()).hasValue(line + 1);
              });
      assertThat(damage)
          .as("the second batch of the merged line is reported missing")
          .anySatisfy(
              d -> {
                assertThat(d.kind()).isEqualTo(Damage.Kind.SEQUENCE_GAP);
                assertThat(d.offset()).isEqualTo(starts[line + 2]);
                assertThat(d.seq()).hasValue(line + 3);
              });
      assertThat(CrashFixture.state(loci)).isEqualTo(expected.state());
    }
    assertThat(Loci.verify(dir).ok()).isFalse();
  }

  /**
   * A flipped newline at the end of the second-to-last line merges it with the last line. The
   * merged line is the final line of the journal and fails its checksum, so it looks like a torn
   * write; but a torn write is a prefix of one line and can never end in a complete line with a
   * valid checksum, as this one does. Both batches were committed and acknowledged.
   */
  @Disabled(
      "bug: FileJournal.TailState treats any bad final line as a torn write, so two acknowledged"
          + " batches are truncated and reported only as a harmless TORN_TAIL; verify stays ok")
  @Test
  void newlineFlip_ofTheSecondToLastLine_isReportedAsLossNotAsATornTail() throws IOException {
    Path dir = CrashFixture.copy(base.dir(), tmp.resolve("newline-last"));
    Path segment = dir.resolve("journal").resolve(segmentName);
    CrashFixture.xor(segment, starts[BATCHES - 1] - 1, 0x20);
    assertThat(Loci.verify(dir).ok()).as("verify before opening").isFalse();
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(CrashFixture.lossy(loci.openDamage())).as("open damage").isNotEmpty();
      assertThat(CrashFixture.state(loci))
          .as("the last batch, intact on disk, is kept")
          .isEqualTo(CrashFixture.expect(base.ops(), Set.of((long) BATCHES - 1)).state());
    }
    assertThat(Files.size(segment)).as("nothing truncated").isEqualTo(starts[BATCHES]);
  }

  @Test
  void everyOtherLineDamaged_stillOpens_withEveryIntactBatchThatApplies() throws IOException {
    Path dir = CrashFixture.copy(base.dir(), tmp.resolve("every-other"));
    Path segment = dir.resolve("journal").resolve(segmentName);
    Set<Long> lost = new TreeSet<>();
    for (int line = 0; line < BATCHES - 1; line += 2) {
      CrashFixture.xor(segment, starts[line + 1] - 4, 0x01); // a checksum digit
      lost.add(line + 1L);
    }
    Expected expected = CrashFixture.expect(base.ops(), lost);
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(CrashFixture.ofKind(loci.openDamage(), Damage.Kind.BAD_LINE))
          .extracting(d -> d.seq().getAsLong())
          .containsExactlyElementsOf(lost);
      assertThat(new TreeMap<>(CrashFixture.state(loci))).isEqualTo(expected.state());
    }
  }
}
