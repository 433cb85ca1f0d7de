package dev.loci.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Damage;
import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Trace;
import dev.loci.spi.Batch;
import dev.loci.spi.Event;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal's line format, group commit, rolling and the recovery rules the seed lists. */
class FileJournalTest {
  private static final Namespace NS = Namespace.of("acme");
  private static final Instant TS = Instant.parse("2026-11-22T10:00:00.123456Z");

  @TempDir Path dir;

  static Batch batch(String uid) {
    ObjectNode data = Json.object();
    data.put("uid", uid);
    return new Batch(TS, NS, "test", List.of(new Event("trace.retired", data)));
  }

  /** Every batch in the segments of {@code dir}; fails on any damage. */
  static List<JournalEntry> readAll(Path dir) throws java.io.IOException {
    List<JournalEntry> read = new ArrayList<>();
    FileJournal.read(
        dir,
        1,
        true,
        read::add,
        d -> {
          throw new AssertionError(d.toString());
        });
    return read;
  }

  @Test
  void encode_line_matchesTheDesignFormatAndChecksum() {
    byte[] line = JournalLines.encode(42, batch("u"));
    String text = new String(line, UTF_8);

    assertThat(text)
        .startsWith(
            "{\"seq\":42,\"ts\":\"2026-11-22T10:00:00.123456Z\",\"ns\":\"acme\",\"actor\":\"test\","
                + "\"events\":[{\"type\":\"trace.retired\",\"data\":{\"uid\":\"u\"}}],\"crc32c\":\"")
        .endsWith("\"}\n");
    String prefix = text.substring(0, text.indexOf(",\"crc32c\""));
    CRC32C crc = new CRC32C();
    crc.update(prefix.getBytes(UTF_8));
    assertThat(text).contains(String.format("\"crc32c\":\"%08x\"", crc.getValue()));
  }

  @Test
  void salvage_mergedLinesWhoseDataHoldsASeqKey_recoversBothBatches() {
    Batch withSeqKey =
        new Batch(TS, NS, "test", List.of(Event.ofJson("trace.retired", "{\"x\":{\"seq\":9}}")));
    byte[] a = JournalLines.encode(1, withSeqKey);
    byte[] b = JournalLines.encode(2, batch("u"));
    byte[] merged = new byte[a.length + b.length - 1];
    System.arraycopy(a, 0, merged, 0, a.length);
    merged[a.length - 1] = '*'; // the damaged line break
    System.arraycopy(b, 0, merged, a.length, b.length - 1);

    JournalLines.Salvage salvage =
        JournalLines.salvage(merged, 0, merged.length, JournalLines.namespaceCache());

    assertThat(salvage.entries()).extracting(JournalEntry::seq).containsExactly(1L, 2L);
    assertThat(salvage.badParts()).isZero();
  }

  @Test
  void decode_flippedByte_rejectedAsChecksumMismatch() {
    byte[] line = JournalLines.encode(7, batch("u"));
    line[30] ^= 0x01;
    assertThat(JournalLines.checksumMatches(line, 0, line.length - 1)).isFalse();
  }

  @Test
  void append_thenRead_returnsBatchesInOrder() {
    try (FileJournal j = FileJournal.open(dir, Durability.always(), 1 << 20)) {
      for (int i = 0; i < 5; i++) {
        assertThat(j.appendDurably(batch("u" + i))).isEqualTo(i + 1);
      }
    }
    List<JournalEntry> read = new ArrayList<>();
    List<Damage> damage = new ArrayList<>();
    try (FileJournal j = FileJournal.open(dir, Durability.always(), 1 << 20)) {
      assertThat(j.lastSeq()).isEqualTo(5);
      j.read(1, read::add, damage::add);
      assertThat(j.appendDurably(batch("next"))).isEqualTo(6);
    }
    assertThat(damage).isEmpty();
    assertThat(read).extracting(JournalEntry::seq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(read.get(2).events().get(0).data().get("uid").asText()).isEqualTo("u2");
    assertThat(read.get(2).ts()).isEqualTo(TS);
  }

  @Test
  void appendBatches_writesTheLeadingBatchesThatFitInOrder_restComeInTheNextCall()
      throws Exception {
    List<Batch> batches = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      batches.add(batch("gathered-" + i + "-" + "x".repeat(200))); // lines of ~400 bytes
    }
    int line = JournalLines.encode(1, batches.get(0)).length;
    long segmentBytes = 5L * line + line / 2; // five lines fit, the sixth does not
    List<Long> seqs = new ArrayList<>();
    List<Integer> callSizes = new ArrayList<>();
    try (FileJournal j = FileJournal.open(dir, Durability.always(), segmentBytes)) {
      for (int done = 0; done < batches.size(); ) {
        List<Journal.Appended> written = j.appendBatches(batches.subList(done, batches.size()));
        callSizes.add(written.size());
        for (Journal.Appended a : written) {
          seqs.add(a.seq());
        }
        written.get(written.size() - 1).awaitDurable();
        done += written.size();
      }
      assertThat(j.fsyncCount()).as("one fsync per call, not per batch").isEqualTo(3);
    }
    assertThat(callSizes).containsExactly(5, 5, 2);
    assertThat(seqs).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
    assertThat(FileJournal.segments(dir))
        .extracting(p -> p.getFileName().toString())
        .containsExactly(
            FileJournal.segmentName(1), FileJournal.segmentName(6), FileJournal.segmentName(11));
    List<JournalEntry> read = readAll(dir);
    assertThat(read)
        .extracting(e -> e.events().get(0).data().get("uid").asText())
        .containsExactly(
            batches.stream()
                .map(b -> b.events().get(0).data().get("uid").asText())
                .toArray(String[]::new));
  }

  @Test
  void appendBatches_empty_rejectedNamingBatches() {
    try (FileJournal j = FileJournal.open(dir, Durability.always(), 1 << 20)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> j.appendBatches(List.of()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("batches");
      assertThat(j.lastSeq()).isZero();
    }
  }

  @Test
  void append_pastSegmentSize_rollsToSegmentNamedByFirstSeq() throws Exception {
    try (FileJournal j = FileJournal.open(dir, Durability.always(), 1024)) {
      for (int i = 0; i < 40; i++) {
        j.appendDurably(batch("uid-" + i));
      }
    }
    List<Path> segments = FileJournal.segments(dir);
    assertThat(segments).hasSizeGreaterThan(3);
    assertThat(segments.get(0).getFileName().toString()).isEqualTo("00000000000000000001.jsonl");
    for (Path s : segments) {
      assertThat(Files.size(s)).isLessThanOrEqualTo(1024);
      String first = Files.readAllLines(s).get(0);
      assertThat(first).startsWith("{\"seq\":" + FileJournal.firstSeq(s) + ",");
    }
    List<JournalEntry> read = readAll(dir);
    assertThat(read).hasSize(40);
  }

  @Test
  void open_corruptedMiddleLine_skippedAndReportedWithFileOffsetAndSeq() throws Exception {
    Path data = dir.resolve("data");
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      for (int i = 0; i < 3; i++) {
        loci.traces().addIdempotent(NS, "t" + i, "{\"i\":" + i + "}", List.of());
      }
    }
    Path segment = FileJournal.segments(data.resolve("journal")).get(0);
    List<String> lines = Files.readAllLines(segment);
    long offset = lines.get(0).length() + 1;
    lines.set(1, lines.get(1).replace("\"i\\\":1", "\"i\\\":9"));
    Files.write(segment, lines);

    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      assertThat(loci.openDamage())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.kind()).isEqualTo(Damage.Kind.BAD_LINE);
                assertThat(d.file()).isEqualTo(segment);
                assertThat(d.offset()).isEqualTo(offset);
                assertThat(d.seq()).hasValue(2);
                assertThat(d.detail()).contains("crc32c");
              });
      assertThat(loci.traces().find(NS, "t0")).isPresent();
      assertThat(loci.traces().find(NS, "t1")).isEmpty();
      assertThat(loci.traces().find(NS, "t2")).isPresent();
      Trace added = loci.traces().add(NS, "{}", List.of());
      assertThat(loci.lastSeq()).isEqualTo(4);
      assertThat(loci.traces().get(NS, added.uid())).isEqualTo(added);
    }
    assertThat(Loci.verify(data).ok()).isFalse();
  }

  @Test
  void open_batchThatNoLongerApplies_skippedAsApplyErrorWholeBatch() throws Exception {
    Path data = dir.resolve("data");
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      loci.traces().addIdempotent(NS, "kept", "{}", List.of());
    }
    // a well-formed batch, correct checksum, whose second event refers to a trace that never
    // existed: the first event must not apply either
    ObjectNode ok = Json.object();
    ok.put("uid", "kept");
    ObjectNode missing = Json.object();
    missing.put("uid", "never-added");
    Batch bad =
        new Batch(
            TS,
            NS,
            "hand-edit",
            List.of(new Event("trace.retired", ok), new Event("trace.retired", missing)));
    Path segment = FileJournal.segments(data.resolve("journal")).get(0);
    Files.write(segment, JournalLines.encode(2, bad), StandardOpenOption.APPEND);
    Files.write(segment, JournalLines.encode(3, batch("kept")), StandardOpenOption.APPEND);

    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      assertThat(loci.openDamage())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.kind()).isEqualTo(Damage.Kind.APPLY_ERROR);
                assertThat(d.seq()).hasValue(2);
                assertThat(d.detail()).contains("never-added");
              });
      assertThat(loci.traces().get(NS, "kept").retired()).as("batch 3 applied").isTrue();
      assertThat(loci.lastSeq()).isEqualTo(3);
      assertThat(loci.traces().count(NamespaceScope.exactly(NS))).isEqualTo(1);
    }
  }

  @Test
  void open_tornTail_truncatedWithWarningAndNextAppendContinues() throws Exception {
    Path data = dir.resolve("data");
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      loci.traces().addIdempotent(NS, "a", "{}", List.of());
      loci.traces().addIdempotent(NS, "b", "{}", List.of());
    }
    Path segment = FileJournal.segments(data.resolve("journal")).get(0);
    long goodSize = Files.size(segment);
    Files.write(segment, "{\"seq\":3,\"ts\":\"2026-".getBytes(UTF_8), StandardOpenOption.APPEND);

    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      assertThat(loci.openDamage())
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.kind()).isEqualTo(Damage.Kind.TORN_TAIL);
                assertThat(d.offset()).isEqualTo(goodSize);
              });
      assertThat(Files.size(segment)).isEqualTo(goodSize);
      loci.traces().addIdempotent(NS, "c", "{}", List.of());
      assertThat(loci.lastSeq()).isEqualTo(3);
    }
    assertThat(Loci.verify(data).ok()).isTrue();
    assertThat(Loci.verify(data).damage()).isEmpty();
  }

  @Test
  void append_preallocatesZeros_liveVerifyCleanAndCloseTrims() throws Exception {
    Path data = dir.resolve("data");
    Path segment;
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      loci.traces().addIdempotent(NS, "a", "{}", List.of());
      loci.traces().addIdempotent(NS, "b", "{}", List.of());
      segment = FileJournal.segments(data.resolve("journal")).get(0);
      byte[] live = Files.readAllBytes(segment);
      int end = new String(live, UTF_8).lastIndexOf('\n') + 1;
      assertThat(live.length).as("zeros preallocated past the lines").isGreaterThan(end + 4096);
      for (int i = end; i < live.length; i++) {
        assertThat(live[i]).isZero();
      }
      assertThat(Loci.verify(data).damage()).as("verify beside a live instance").isEmpty();
    }
    String closed = Files.readString(segment);
    assertThat(closed).endsWith("\n").doesNotContain("\0");
    assertThat(closed.lines()).hasSize(2);
  }

  @Test
  void open_missingJournalDirectory_startsEmpty() {
    try (Loci loci = Loci.builder().dataDir(dir.resolve("fresh")).open()) {
      assertThat(loci.lastSeq()).isZero();
      assertThat(loci.openDamage()).isEmpty();
    }
  }

  @Test
  void read_lineLongerThanScannerBuffer_readBack() throws Exception {
    String big = "x".repeat(3 << 20);
    Path data = dir.resolve("data");
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      loci.traces().addIdempotent(NS, "big", "{\"s\":\"" + big + "\"}", List.of());
      loci.traces().addIdempotent(NS, "after", "{}", List.of());
    }
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(loci.traces().get(NS, "big").content()).hasSize(big.length() + 8);
      assertThat(loci.traces().find(NS, "after")).isPresent();
    }
  }

  // An interrupted caller must not cost the journal its channel.

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
