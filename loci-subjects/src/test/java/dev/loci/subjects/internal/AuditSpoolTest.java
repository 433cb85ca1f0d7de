package dev.loci.subjects.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit spool: lines reach the subject files before a read and at a checkpoint, and a spool
 * left behind (a process that ended without closing its log) is applied once, without losing or
 * doubling a line, whatever part of it already reached the files.
 */
class AuditSpoolTest {
  private static final String A = "a".repeat(64);
  private static final String B = "b".repeat(64);

  @TempDir Path tmp;

  private Path dir() {
    return tmp.resolve("audit");
  }

  private AuditKeys keys() {
    return AuditKeys.open(tmp.resolve("keys/audit.keys"));
  }

  private static List<AuditEntry> entries(String ref, long from, long to) {
    List<AuditEntry> out = new ArrayList<>();
    for (long n = from; n <= to; n++) {
      out.add(entry(ref, n, "token:t", "trace.added", new AuditEntry.Touched("trace", "t" + n, 1)));
    }
    return out;
  }

  private static AuditEntry entry(
      String ref, long n, String actor, String action, AuditEntry.Touched touched) {
    Instant at = Instant.parse("2026-11-26T06:00:00Z").plusSeconds(n);
    return new AuditEntry(ref, n, n, at, actor, "ns", action, List.of(touched));
  }

  private static List<AuditEntry> both(long from, long to) {
    List<AuditEntry> out = new ArrayList<>(entries(A, from, to));
    out.addAll(entries(B, from, to));
    return out;
  }

  private AuditChains.Verification verify(long expected) throws IOException {
    Map<String, Long> counts = new HashMap<>(Map.of(A, expected, B, expected));
    return AuditChains.verify(dir(), keys(), Optional.of(List.of(A, B)), counts);
  }

  private long lines(String ref) throws IOException {
    Path f = AuditLog.file(dir(), ref);
    return Files.exists(f) ? Files.readAllLines(f).size() : 0;
  }

  private Path spool() {
    return dir().resolve(AuditSpool.NAME);
  }

  @Test
  void appendsGoToTheSpoolAndReachTheFilesBeforeAReadAndAtACheckpoint() throws IOException {
    AuditLog log = new AuditLog(dir(), keys());
    log.appendAll(both(1, 5));
    assertThat(lines(A)).isZero();
    assertThat(Files.size(spool())).isPositive();
    log.materialize();
    assertThat(lines(A)).isEqualTo(5);
    assertThat(verify(5).problems()).isEmpty();
    log.appendAll(both(6, 8));
    log.checkpoint();
    assertThat(lines(B)).isEqualTo(8);
    assertThat(Files.size(spool())).isZero();
    assertThat(verify(8).problems()).isEmpty();
    log.close();
  }

  @Test
  void aSpoolLeftBehindIsAppliedOnceOnNextUse() throws IOException {
    AuditLog first = new AuditLog(dir(), keys());
    first.appendAll(both(1, 4));
    first.force();
    // the process ends here without closing: the files hold nothing, the spool everything
    assertThat(lines(A)).isZero();

    AuditLog second = new AuditLog(dir(), keys());
    second.appendAll(both(1, 6)); // a replay makes 1-4 again: skipped by number
    second.checkpoint();
    assertThat(lines(A)).isEqualTo(6);
    assertThat(lines(B)).isEqualTo(6);
    assertThat(verify(6).problems()).isEmpty();
    second.close();
  }

  @Test
  void linesAlreadyInTheFilesAreNotWrittenTwice() throws IOException {
    AuditLog first = new AuditLog(dir(), keys());
    first.appendAll(both(1, 3));
    first.materialize(); // a reader brought the files up to date: the spool still holds 1-3
    first.appendAll(both(4, 5));
    // ends without closing: files hold 1-3, the spool 1-5

    AuditLog second = new AuditLog(dir(), keys());
    second.materialize();
    assertThat(lines(A)).isEqualTo(5);
    assertThat(verify(5).problems()).isEmpty();
    assertThat(Files.size(spool())).isZero();
    second.close();
  }

  @Test
  void aCheckpointThatFailsPartWay_writesNoLineTwiceWhenTriedAgain() throws IOException {
    AuditLog log = new AuditLog(dir(), keys());
    log.appendAll(both(1, 5));
    log.materialize();
    log.appendAll(both(6, 7));
    // B's file cannot be opened for writing (standing in for a full disk): A's task succeeds
    Path bFile = AuditLog.file(dir(), B);
    Path aside = tmp.resolve("b-aside.jsonl");
    Files.move(bFile, aside);
    Files.createDirectory(bFile);
    assertThatThrownBy(log::checkpoint).isInstanceOf(IOException.class);
    assertThat(lines(A)).isEqualTo(7);

    Files.delete(bFile);
    Files.move(aside, bFile);
    log.appendAll(both(8, 9));
    log.checkpoint();
    assertThat(lines(A)).isEqualTo(9);
    assertThat(lines(B)).isEqualTo(9);
    assertThat(verify(9).problems()).isEmpty();
    assertThat(Files.size(spool())).isZero();
  }

  @Test
  void aTornSpoolLineIsLeftOutAndMadeAgainByTheReplay() throws IOException {
    AuditLog first = new AuditLog(dir(), keys());
    first.appendAll(both(1, 3));
    first.close();
    // the last write was cut short in the middle of B's entry 3
    long size = Files.size(spool());
    try (FileChannel ch = FileChannel.open(spool(), StandardOpenOption.WRITE)) {
      ch.truncate(size - 40);
    }

    AuditLog second = new AuditLog(dir(), keys());
    second.materialize();
    assertThat(lines(A)).isEqualTo(3);
    assertThat(lines(B)).isEqualTo(2);
    second.appendAll(both(1, 4)); // the replay
    second.checkpoint();
    assertThat(lines(B)).isEqualTo(4);
    assertThat(verify(4).problems()).isEmpty();
    second.close();
  }

  @Test
  void aKeyRotationReachesEveryChainThroughTheSpool() throws IOException {
    AuditKeys keys = keys();
    AuditLog log = new AuditLog(dir(), keys);
    log.appendAll(both(1, 2));
    String[] ids = keys.rotate();
    log.rotated(ids[0], ids[1]);
    log.appendAll(both(3, 3));
    log.force();
    // ends without closing: the next use applies the rotation line and entry 3 from the spool
    AuditLog next = new AuditLog(dir(), keys());
    next.materialize();
    assertThat(lines(A)).isEqualTo(4);
    assertThat(verify(3).problems()).isEmpty();
    next.close();
  }

  @Test
  void linesWithNonAsciiText_interleavedAcrossSubjects_areSignedAsTheirUtf8Bytes()
      throws IOException {
    List<AuditEntry> mixed = new ArrayList<>();
    for (long n = 1; n <= 3; n++) {
      for (String ref : List.of(A, B)) {
        mixed.add(
            entry(
                ref,
                n,
                "legal:Zoë Ødegård \u2603 \ud83d\ude00",
                "legal_read:export",
                new AuditEntry.Touched("trace", "tï" + n, 0)));
      }
    }
    AuditLog log = new AuditLog(dir(), keys());
    log.appendAll(mixed);
    log.appendAll(entries(A, 4, 5)); // the buffer kept from the last append starts empty
    log.checkpoint();
    log.close();

    assertThat(verify(3).problems()).hasSize(1).allMatch(p -> p.startsWith(A + ".jsonl"));
    String text = Files.readString(AuditLog.file(dir(), A));
    assertThat(text.lines()).hasSize(5);
    assertThat(text).contains("Zoë Ødegård \u2603 \ud83d\ude00", "\"id\":\"tï3\"");
    Map<String, Long> counts = new HashMap<>(Map.of(A, 5L, B, 3L));
    assertThat(AuditChains.verify(dir(), keys(), Optional.empty(), counts).problems()).isEmpty();
  }

  @Test
  void checkpoint_manySubjectsInterleavedWithRefsSharingAPrefix_eachFileGetsItsOwnLinesInOrder()
      throws IOException {
    // more subjects than the grouping table starts with, and pairs of references that differ only
    // after the bytes it hashes, so that grouping by reference must compare whole references
    List<String> refs = new ArrayList<>();
    for (int i = 0; i < 700; i++) {
      String head = String.format("%016x", i / 2);
      refs.add(head + String.format("%048x", i % 2 == 0 ? i : i * 7919L));
    }
    List<AuditEntry> all = new ArrayList<>();
    for (long n = 1; n <= 4; n++) {
      for (String ref : refs) {
        all.addAll(entries(ref, n, n));
      }
    }
    AuditLog log = new AuditLog(dir(), keys());
    log.appendAll(all.subList(0, 1000));
    log.materialize(); // part of it before a read, the rest at the checkpoint
    log.appendAll(all.subList(1000, all.size()));
    log.checkpoint();
    log.close();

    Map<String, Long> counts = new HashMap<>();
    refs.forEach(r -> counts.put(r, 4L));
    assertThat(AuditChains.verify(dir(), keys(), Optional.of(refs), counts).problems()).isEmpty();
    for (String ref : List.of(refs.get(0), refs.get(1), refs.get(699))) {
      assertThat(Files.readAllLines(AuditLog.file(dir(), ref)))
          .hasSize(4)
          .allMatch(l -> l.contains("\"id\":\"t"));
    }
    assertThat(Files.size(spool())).isZero();
  }
}
