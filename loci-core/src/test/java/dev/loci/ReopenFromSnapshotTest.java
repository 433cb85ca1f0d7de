package dev.loci;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.internal.FileJournal;
import dev.loci.internal.JournalLines;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening from a snapshot reads only the journal after it (the segment is entered by a seek and its
 * tail read from the end), and still ends where a full replay ends: a torn tail after the snapshot
 * is truncated and reported, and a line out of order does not make the journal reuse a number.
 */
class ReopenFromSnapshotTest {
  private static final Namespace NS = Namespace.of("acme");
  private static final String PAD = "z".repeat(900);

  @TempDir Path tmp;

  private static void add(Loci loci, int from, int to) {
    for (int i = from; i < to; i++) {
      loci.traces()
          .addIdempotent(NS, "t" + i, "{\"i\":" + i + ",\"pad\":\"" + PAD + "\"}", List.of());
    }
  }

  private static List<String> state(Loci loci) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 4000; i++) {
      loci.traces().find(NS, "t" + i).ifPresent(t -> out.add(t.toJson()));
    }
    return out;
  }

  @Test
  void open_snapshotInsideALargeSegmentThenTornTail_truncatedReportedAndSameAsFullReplay()
      throws Exception {
    Path data = tmp.resolve("data");
    try (Loci loci =
        Loci.builder().dataDir(data).durability(Durability.none()).snapshotAfter(0).open()) {
      add(loci, 0, 3000);
      loci.snapshot();
      add(loci, 3000, 3200);
    }
    Path segment = FileJournal.segments(data.resolve("journal")).get(0);
    assertThat(Files.size(segment))
        .as("one segment, large enough to seek in")
        .isGreaterThan(3L << 20);
    long goodSize = Files.size(segment);
    Files.write(segment, "{\"seq\":3201,\"ts\":\"2026-".getBytes(UTF_8), StandardOpenOption.APPEND);
    Path replayed = CrashFixture.copy(data, tmp.resolve("replayed"));
    deleteTree(replayed.resolve("snapshots"));

    List<String> fromSnapshot;
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      assertThat(loci.openDamage())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.kind()).isEqualTo(Damage.Kind.TORN_TAIL);
                assertThat(d.offset()).isEqualTo(goodSize);
              });
      assertThat(Files.size(segment)).isEqualTo(goodSize);
      assertThat(loci.lastSeq()).isEqualTo(3200);
      fromSnapshot = state(loci);
      loci.traces().addIdempotent(NS, "after", "{}", List.of());
      assertThat(loci.lastSeq()).isEqualTo(3201);
    }
    try (Loci loci = Loci.builder().dataDir(replayed).snapshotAfter(0).open()) {
      assertThat(loci.lastSeq()).isEqualTo(3200);
      assertThat(fromSnapshot).hasSize(3200).isEqualTo(state(loci));
    }
    assertThat(Loci.verify(data).damage()).isEmpty();
  }

  @Test
  void open_goodLineOutOfOrderBeforeTheTail_nextAppendGoesPastTheHighestNumber() throws Exception {
    Path data = tmp.resolve("data");
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      add(loci, 0, 5);
    }
    Path segment = FileJournal.segments(data.resolve("journal")).get(0);
    List<String> lines = Files.readAllLines(segment, UTF_8);
    // a well-formed batch numbered 50 between batches 3 and 4: damage, but the number is taken
    byte[] stray =
        JournalLines.encode(
            50,
            new Batch(
                Instant.parse("2026-11-22T10:00:00Z"),
                NS,
                "test",
                List.of(Event.ofJson("trace.retired", "{\"uid\":\"nobody\"}"))));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      out.write((lines.get(i) + "\n").getBytes(UTF_8));
      if (i == 2) {
        out.write(stray);
      }
    }
    Files.write(segment, out.toByteArray());

    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      assertThat(loci.openDamage()).isNotEmpty();
      loci.traces().addIdempotent(NS, "next", "{}", List.of());
      assertThat(loci.lastSeq()).isEqualTo(51);
    }
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      assertThat(loci.traces().find(NS, "next"))
          .as("the batch after the stray one is read")
          .isPresent();
    }
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
