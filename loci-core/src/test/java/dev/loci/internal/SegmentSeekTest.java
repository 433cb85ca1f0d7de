package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeking into a segment never starts after a batch that is wanted, whatever lines are damaged, and
 * on a healthy segment starts right before the first batch wanted.
 */
class SegmentSeekTest {
  private static final int BATCHES = 300;

  @TempDir Path dir;

  /** Writes {@link #BATCHES} batches of varied sizes into one segment; returns line starts. */
  private long[] write(Path journal, Random r) throws Exception {
    try (FileJournal j = FileJournal.open(journal, Durability.none(), 64L << 20)) {
      for (int i = 0; i < BATCHES; i++) {
        j.append(FileJournalTest.batch("u" + i + "-" + "x".repeat(r.nextInt(2000))));
      }
    }
    byte[] bytes = Files.readAllBytes(FileJournal.segments(journal).get(0));
    List<Long> starts = new ArrayList<>();
    starts.add(0L);
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n' && i + 1 < bytes.length) {
        starts.add(i + 1L);
      }
    }
    assertThat(starts).hasSize(BATCHES);
    return starts.stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void lineBelow_healthySegment_startsAtTheBatchJustBeforeTheOneWanted() throws Exception {
    Path journal = dir.resolve("j");
    long[] starts = write(journal, new Random(7));
    Path segment = FileJournal.segments(journal).get(0);
    for (long from = 1; from <= BATCHES + 2; from++) {
      long at = SegmentSeek.lineBelow(segment, from, 1);
      // batch s starts at starts[s - 1]
      long wanted = from <= BATCHES ? starts[(int) from - 1] : Files.size(segment);
      assertThat(at).as("from %d", from).isLessThanOrEqualTo(wanted);
      if (from > 1) {
        assertThat(at).as("from %d", from).isEqualTo(starts[(int) Math.min(from - 1, BATCHES) - 1]);
      } else {
        assertThat(at).isZero();
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {11, 12, 13, 14, 15, 16})
  void lineBelow_damagedLines_neverStartsAfterTheFirstBatchWanted(long seed) throws Exception {
    Random r = new Random(seed);
    Path journal = dir.resolve("j" + seed);
    long[] starts = write(journal, r);
    Path segment = FileJournal.segments(journal).get(0);
    byte[] bytes = Files.readAllBytes(segment);
    for (int k = 0; k < 1 + r.nextInt(20); k++) {
      int at = r.nextInt(bytes.length);
      bytes[at] = (byte) (r.nextInt(3) == 0 ? '\n' : bytes[at] ^ (1 << r.nextInt(7)));
    }
    Files.write(segment, bytes);
    for (int k = 0; k < 40; k++) {
      long from = 1 + r.nextInt(BATCHES);
      long at = SegmentSeek.lineBelow(segment, from, 1 + r.nextInt(4096));
      assertThat(at).as("seed %d from %d", seed, from).isLessThanOrEqualTo(starts[(int) from - 1]);
    }
  }

  @Test
  void read_fromSeqInsideALargeSegment_passesExactlyTheBatchesFromIt() throws Exception {
    Path journal = dir.resolve("big");
    try (FileJournal j = FileJournal.open(journal, Durability.none(), 64L << 20)) {
      for (int i = 0; i < 3000; i++) {
        j.append(FileJournalTest.batch("u" + i + "-" + "y".repeat(1000)));
      }
    }
    assertThat(Files.size(FileJournal.segments(journal).get(0))).isGreaterThan(3L << 20);
    for (long from : new long[] {1, 2, 1500, 2999, 3000, 3001}) {
      List<Long> seqs = new ArrayList<>();
      FileJournal.read(
          journal,
          from,
          false,
          e -> seqs.add(e.seq()),
          d -> {
            throw new AssertionError(d.toString());
          });
      assertThat(seqs).as("from %d", from).hasSize((int) Math.max(0, 3001 - from));
      if (!seqs.isEmpty()) {
        assertThat(seqs.get(0)).isEqualTo(from);
      }
    }
  }
}
