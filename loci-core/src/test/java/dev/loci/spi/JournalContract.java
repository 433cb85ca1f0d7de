package dev.loci.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Damage;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.Trace;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link Journal} promises, whatever stores the batches: sequence numbers that
 * increase by one in the order of the appends, batches read back exactly, durability that survives
 * a reopen, concurrent writers numbered without gaps or repeats, {@link Journal#advanceTo} and a
 * closed journal that refuses writes. A subclass says how to open one store; each test opens it as
 * often as it needs, and reopening must find what earlier instances made durable.
 */
public abstract class JournalContract {
  private static final Namespace NS = Namespace.of("acme");
  private static final Instant TS = Instant.parse("2026-11-22T10:00:00.123456Z");

  /** A directory of the test's own, for journals that keep files. */
  @TempDir protected Path dir;

  /**
   * Opens the store under test (the same store on every call within one test).
   *
   * @param dir the test's directory; a journal that keeps files keeps them below it
   */
  protected abstract Journal open(Path dir);

  /**
   * Checks what a journal promises beyond the contract after {@code appends} concurrent durable
   * appends, before it is closed (the file journal: they shared fsyncs). By default nothing.
   */
  protected void afterConcurrentAppends(Journal journal, int appends) {}

  private static Batch batch(String uid) {
    return new Batch(
        TS, NS, "contract", List.of(Event.ofJson("trace.retired", "{\"uid\":\"" + uid + "\"}")));
  }

  private static List<JournalEntry> readAll(Journal journal, long from) {
    List<JournalEntry> read = new ArrayList<>();
    List<Damage> damage = new ArrayList<>();
    journal.read(from, read::add, damage::add);
    assertThat(damage).as("damage").isEmpty();
    return read;
  }

  @Test
  void append_empty_numbersFromOneInCallOrderAndReadsBackExactly() {
    try (Journal j = open(dir)) {
      assertThat(j.lastSeq()).isZero();
      List<Batch> written = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        Batch b = batch("u" + i);
        written.add(b);
        assertThat(j.appendDurably(b)).isEqualTo(i + 1);
      }
      assertThat(j.lastSeq()).isEqualTo(5);
      List<JournalEntry> read = readAll(j, 1);
      assertThat(read).hasSize(5);
      for (int i = 0; i < 5; i++) {
        assertThat(read.get(i)).isEqualTo(JournalEntry.of(i + 1, written.get(i)));
      }
    }
  }

  @Test
  void appendBatches_withKeysAndNoOtherWriter_numbersThemInOrderAfterTheLast() {
    try (Journal j = open(dir)) {
      j.appendDurably(batch("u0"));
      List<Batch> written =
          new ArrayList<>(List.of(batch("k1"), batch("k2"), batch("k3"), batch("k4")));
      List<Set<String>> keys = List.of(Set.of("k1"), Set.of("k2", "x"), Set.of(), Set.of("k4"));
      List<Long> seqs = new ArrayList<>();
      while (!written.isEmpty()) {
        List<Journal.Appended> appended =
            j.appendBatches(written, keys.subList(keys.size() - written.size(), keys.size()));
        appended.get(appended.size() - 1).awaitDurable();
        appended.forEach(a -> seqs.add(a.seq()));
        written.subList(0, appended.size()).clear();
      }
      assertThat(seqs).containsExactly(2L, 3L, 4L, 5L);
      assertThat(readAll(j, 2))
          .extracting(e -> e.events().get(0).json())
          .containsExactly(
              "{\"uid\":\"k1\"}", "{\"uid\":\"k2\"}", "{\"uid\":\"k3\"}", "{\"uid\":\"k4\"}");
      assertThatThrownBy(() -> j.appendBatches(List.of(batch("y")), List.of()))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void read_fromASequenceNumber_startsThere() {
    try (Journal j = open(dir)) {
      for (int i = 0; i < 6; i++) {
        j.appendDurably(batch("u" + i));
      }
      assertThat(readAll(j, 4)).extracting(JournalEntry::seq).containsExactly(4L, 5L, 6L);
      assertThat(readAll(j, 7)).isEmpty();
    }
  }

  @Test
  void read_throughASequenceNumber_stopsThere_andTheNextAppendStillFollowsTheLast() {
    try (Journal j = open(dir)) {
      for (int i = 0; i < 6; i++) {
        j.appendDurably(batch("u" + i));
      }
      List<JournalEntry> read = new ArrayList<>();
      List<Damage> damage = new ArrayList<>();
      j.read(2, 4, read::add, damage::add);
      assertThat(read).extracting(JournalEntry::seq).containsExactly(2L, 3L, 4L);
      assertThat(damage).isEmpty();
      read.clear();
      j.read(5, Long.MAX_VALUE, read::add, damage::add);
      assertThat(read).extracting(JournalEntry::seq).containsExactly(5L, 6L);
      assertThat(j.appendDurably(batch("u6"))).isEqualTo(7);
    }
  }

  @Test
  void reopen_afterDurableAppends_findsThemAndContinuesAfterTheLast() {
    try (Journal j = open(dir)) {
      j.appendDurably(batch("a"));
      j.appendDurably(batch("b"));
    }
    try (Journal j = open(dir)) {
      assertThat(j.lastSeq()).isEqualTo(2);
      assertThat(readAll(j, 1))
          .extracting(e -> e.events().get(0).data().get("uid").asText())
          .containsExactly("a", "b");
      assertThat(j.appendDurably(batch("c"))).isEqualTo(3);
    }
  }

  @Test
  void sync_afterAppendsNotAwaited_makesThemDurable() {
    try (Journal j = open(dir)) {
      Journal.Appended first = j.append(batch("a"));
      Journal.Appended second = j.append(batch("b"));
      assertThat(second.seq()).isEqualTo(first.seq() + 1);
      j.sync();
    }
    try (Journal j = open(dir)) {
      assertThat(readAll(j, 1)).extracting(JournalEntry::seq).containsExactly(1L, 2L);
    }
  }

  @Test
  void awaitDurable_ofALaterBatch_coversTheEarlierOnes() {
    try (Journal j = open(dir)) {
      j.append(batch("a"));
      j.append(batch("b"));
      j.append(batch("c")).awaitDurable();
    }
    try (Journal j = open(dir)) {
      assertThat(j.lastSeq()).isEqualTo(3);
    }
  }

  @Test
  void append_concurrentWriters_everyBatchNumberedOnceWithoutGaps() throws Exception {
    int writers = 8;
    int perWriter = 50;
    Set<Long> seqs = ConcurrentHashMap.newKeySet();
    try (Journal j = open(dir)) {
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int id = w;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < perWriter; i++) {
                    assertThat(seqs.add(j.appendDurably(batch(id + "-" + i)))).isTrue();
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get();
      }
      pool.shutdown();
      assertThat(j.lastSeq()).isEqualTo(writers * perWriter);
      afterConcurrentAppends(j, writers * perWriter);
    }
    try (Journal j = open(dir)) {
      List<JournalEntry> read = readAll(j, 1);
      assertThat(read).hasSize(writers * perWriter);
      Set<String> uids = new HashSet<>();
      for (int i = 0; i < read.size(); i++) {
        assertThat(read.get(i).seq()).isEqualTo(i + 1);
        uids.add(read.get(i).events().get(0).data().get("uid").asText());
      }
      assertThat(uids).hasSize(writers * perWriter);
      assertThat(seqs).hasSize(writers * perWriter);
    }
  }

  @Test
  void advanceTo_aboveTheLast_nextBatchNumberedAboveItAlsoAfterReopen() {
    try (Journal j = open(dir)) {
      j.appendDurably(batch("a"));
      j.advanceTo(100);
      assertThat(j.lastSeq()).isEqualTo(100);
      assertThat(j.appendDurably(batch("b"))).isEqualTo(101);
      j.advanceTo(50); // below the last: nothing changes
      assertThat(j.appendDurably(batch("c"))).isEqualTo(102);
    }
    try (Journal j = open(dir)) {
      assertThat(j.lastSeq()).isEqualTo(102);
      assertThat(j.appendDurably(batch("d"))).isEqualTo(103);
      assertThat(readAll(j, 101)).extracting(JournalEntry::seq).containsExactly(101L, 102L, 103L);
    }
  }

  @Test
  void append_afterClose_refused() {
    Journal j = open(dir);
    j.appendDurably(batch("a"));
    j.close();
    assertThatThrownBy(() -> j.appendDurably(batch("b"))).isInstanceOf(StorageException.class);
    try (Journal again = open(dir)) {
      assertThat(again.lastSeq()).isEqualTo(1);
    }
  }

  @Test
  void loci_concurrentWriters_reopenReplaysEveryAcknowledgedWrite() throws Exception {
    Path data = dir.resolve("data");
    Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    try (Loci loci = Loci.builder().dataDir(data).journal(this::open).snapshotAfter(0).open()) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int id = w;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 25; i++) {
                    Trace t =
                        loci.traces().add(NS, "{\"w\":" + id + ",\"i\":" + i + "}", List.of());
                    acknowledged.add(t.uid());
                  }
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
      pool.shutdown();
    }
    try (Loci loci = Loci.builder().dataDir(data).journal(this::open).snapshotAfter(0).open()) {
      assertThat(loci.openDamage()).isEmpty();
      for (String uid : acknowledged) {
        assertThat(loci.traces().find(NS, uid)).as(uid).isPresent();
      }
      assertThat(acknowledged).hasSize(100);
    }
  }
}
