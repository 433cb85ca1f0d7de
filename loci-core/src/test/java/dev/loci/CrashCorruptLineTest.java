package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.CrashFixture.Built;
import dev.loci.CrashFixture.Expected;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  /**
   * A flipped newline between two middle lines runs two complete batches together. Both are intact
   * byte for byte, so they are recovered; the damaged line break is still reported, so {@code
   * verify} fails until the segment is compacted away.
   */
  @Test
  void newlineFlip_betweenTwoMiddleLines_recoversBothBatchesAndReportsTheDamage()
      throws IOException {
    int line = BATCHES / 2;
    Path dir = CrashFixture.copy(base.dir(), tmp.resolve("newline-middle"));
    Path segment = dir.resolve("journal").resolve(segmentName);
    CrashFixture.xor(segment, starts[line + 1] - 1, 0x20); // '\n' -> '*'
    Expected expected = CrashFixture.expect(base.ops(), Set.of());
    try (Loci loci = CrashFixture.open(dir)) {
      List<Damage> damage = loci.openDamage();
      assertThat(damage)
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.kind()).isEqualTo(Damage.Kind.BAD_LINE);
                assertThat(d.offset()).isEqualTo(starts[line]);
                assertThat(d.seq()).hasValue(line + 1);
                assertThat(d.detail()).contains("2 recovered, 0 unreadable");
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
  @Test
  void newlineFlip_ofTheSecondToLastLine_isReportedNotTruncatedAsATornTail() throws IOException {
    Path dir = CrashFixture.copy(base.dir(), tmp.resolve("newline-last"));
    Path segment = dir.resolve("journal").resolve(segmentName);
    CrashFixture.xor(segment, starts[BATCHES - 1] - 1, 0x20);
    assertThat(Loci.verify(dir).ok()).as("verify before opening").isFalse();
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(CrashFixture.lossy(loci.openDamage())).as("open damage").isNotEmpty();
      assertThat(CrashFixture.state(loci))
          .as("both batches, intact on disk, are kept")
          .isEqualTo(CrashFixture.expect(base.ops(), Set.of()).state());
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
