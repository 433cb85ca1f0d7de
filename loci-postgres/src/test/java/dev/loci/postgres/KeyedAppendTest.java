package dev.loci.postgres;

import static dev.loci.postgres.PostgresJournalTest.batch;
import static dev.loci.postgres.PostgresJournalTest.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Damage;
import dev.loci.spi.Batch;
import dev.loci.spi.Journal;
import dev.loci.spi.JournalBehindException;
import dev.loci.spi.JournalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Appends with keys ({@link Journal#appendBatches(List, List)}): a round refused because another
 * server took its numbers is numbered after that server's batches and written without being decided
 * again when no batch in between shares a key with it or has none, and refused as before otherwise;
 * two servers racing with the same key: exactly one wins.
 */
class KeyedAppendTest {
  private TestDatabase db;

  @BeforeEach
  void createDatabase() {
    db = TestDatabase.create("loci_keyed");
  }

  @AfterEach
  void dropDatabase() throws Exception {
    db.close();
  }

  private static List<Long> appendKeyed(Journal j, List<Batch> batches, List<Set<String>> keys) {
    List<Journal.Appended> appended = j.appendBatches(batches, keys);
    assertThat(appended).hasSize(batches.size());
    appended.get(appended.size() - 1).awaitDurable();
    return appended.stream().map(Journal.Appended::seq).toList();
  }

  private List<JournalEntry> stored() {
    List<Damage> damage = new ArrayList<>();
    try (PostgresJournal reader = PostgresJournal.open(db.url())) {
      List<JournalEntry> entries = readAll(reader, damage);
      assertThat(damage).as("damage").isEmpty();
      return entries;
    }
  }

  private static String uid(JournalEntry e) {
    return e.events().get(0).json();
  }

  @Test
  void disjointKeys_bothCommitWithoutADecisionAgain_gaplessAndVerifiable() {
    try (PostgresJournal a = PostgresJournal.open(db.url());
        PostgresJournal b = PostgresJournal.open(db.url())) {
      assertThat(appendKeyed(a, List.of(batch("a1")), List.of(Set.of("x")))).containsExactly(1L);
      assertThat(
              appendKeyed(
                  b, List.of(batch("b1"), batch("b2")), List.of(Set.of("y"), Set.of("z", "w"))))
          .containsExactly(2L, 3L);
      assertThat(b.rounds()).isEqualTo(new PostgresJournal.Rounds(1, 2, 1, 0));
      assertThat(b.lastSeq()).isEqualTo(3);
      // a is behind now, but its key is b's neither: moved past both of b's batches
      assertThat(appendKeyed(a, List.of(batch("a2")), List.of(Set.of("x")))).containsExactly(4L);
      assertThat(a.rounds()).isEqualTo(new PostgresJournal.Rounds(2, 2, 1, 0));
      assertThat(a.rounds().plus(b.rounds())).isEqualTo(new PostgresJournal.Rounds(3, 4, 2, 0));
    }
    List<JournalEntry> entries = stored();
    assertThat(entries).extracting(JournalEntry::seq).containsExactly(1L, 2L, 3L, 4L);
    assertThat(entries)
        .extracting(KeyedAppendTest::uid)
        .containsExactly(
            "{\"uid\":\"a1\"}", "{\"uid\":\"b1\"}", "{\"uid\":\"b2\"}", "{\"uid\":\"a2\"}");
    assertThat(PostgresJournal.verify(PostgresUrl.parse(db.url())).damage()).isEmpty();
  }

  @Test
  void sameKey_secondServerBehind_refusedAndNothingWritten() {
    try (PostgresJournal a = PostgresJournal.open(db.url());
        PostgresJournal b = PostgresJournal.open(db.url())) {
      appendKeyed(a, List.of(batch("a1")), List.of(Set.of("x", "shared")));
      assertThatThrownBy(() -> appendKeyed(b, List.of(batch("b1")), List.of(Set.of("y", "shared"))))
          .isInstanceOf(JournalBehindException.class);
      assertThat(b.rounds()).isEqualTo(new PostgresJournal.Rounds(0, 0, 0, 1));
    }
    assertThat(stored()).extracting(KeyedAppendTest::uid).containsExactly("{\"uid\":\"a1\"}");
  }

  @Test
  void moreBatchesInBetweenThanTheWindow_decidedAgain() throws Exception {
    try (PostgresJournal a = PostgresJournal.open(db.url())) {
      List<Batch> batches = new ArrayList<>();
      List<Set<String>> keys = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        batches.add(batch("a" + i));
        keys.add(Set.of("a" + i));
      }
      appendKeyed(a, batches, keys); // 1 to 5
      long[] round = JournalKeys.hash("acme", Set.of("b"));
      try (java.sql.Connection c = a.pool().getConnection()) {
        // decided before batch 1: five batches in between, none sharing a key
        assertThat(JournalKeys.after(c, 0, round, 5)).hasValue(5);
        assertThat(JournalKeys.after(c, 0, round, 4)).isEmpty(); // further behind than the window
        assertThat(JournalKeys.after(c, 1, round, 4)).hasValue(5);
        assertThat(JournalKeys.after(c, 0, round)).hasValue(5);
        long[] shared = JournalKeys.hash("acme", Set.of("b", "a3"));
        assertThat(JournalKeys.after(c, 0, shared, 5)).isEmpty();
        assertThat(JournalKeys.after(c, 4, shared, 5)).hasValue(5); // a3 is batch 4, not after it
      }
    }
  }

  @Test
  void sameIdInAnotherNamespace_isNotTheSameKey() {
    Batch other =
        new Batch(
            batch("o").ts(),
            dev.loci.Namespace.of("other"),
            "test",
            List.of(dev.loci.spi.Event.ofJson("trace.retired", "{\"uid\":\"o\"}")));
    try (PostgresJournal a = PostgresJournal.open(db.url());
        PostgresJournal b = PostgresJournal.open(db.url())) {
      appendKeyed(a, List.of(other), List.of(Set.of("k")));
      assertThat(appendKeyed(b, List.of(batch("b1")), List.of(Set.of("k")))).containsExactly(2L);
    }
  }

  @Test
  void keylessBatchInBetween_orKeylessRound_refusedAsBefore() {
    try (PostgresJournal a = PostgresJournal.open(db.url());
        PostgresJournal b = PostgresJournal.open(db.url())) {
      a.appendDurably(batch("a1")); // no keys: conflicts with every round decided before it
      assertThatThrownBy(() -> appendKeyed(b, List.of(batch("b1")), List.of(Set.of("y"))))
          .isInstanceOf(JournalBehindException.class);
      b.read(1, e -> {}, d -> {});
      appendKeyed(a, List.of(batch("a2")), List.of(Set.of("x")));
      assertThatThrownBy(() -> appendKeyed(b, List.of(batch("b2")), List.of(Set.of())))
          .isInstanceOf(JournalBehindException.class);
      assertThat(b.rounds().refusals()).isEqualTo(2);
    }
    assertThat(stored())
        .extracting(KeyedAppendTest::uid)
        .containsExactly("{\"uid\":\"a1\"}", "{\"uid\":\"a2\"}");
  }

  @Test
  void racingServers_sameKeyExactlyOneWins_disjointKeysBothWin() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (PostgresJournal a = PostgresJournal.open(db.url());
        PostgresJournal b = PostgresJournal.open(db.url())) {
      List<PostgresJournal> servers = List.of(a, b);
      for (int round = 0; round < 20; round++) {
        boolean sameKey = round % 2 == 0;
        for (PostgresJournal s : servers) {
          s.read(s.lastSeq() + 1, e -> {}, d -> {}); // both decide against the same head
        }
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> won = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
          PostgresJournal s = servers.get(i);
          String key = sameKey ? "version-" + round : "s" + i + "-" + round;
          String uid = "r" + round + "-s" + i;
          won.add(
              pool.submit(
                  () -> {
                    start.await();
                    try {
                      appendKeyed(s, List.of(batch(uid)), List.of(Set.of(key)));
                      return true;
                    } catch (JournalBehindException e) {
                      return false;
                    }
                  }));
        }
        start.countDown();
        int winners = 0;
        for (Future<Boolean> f : won) {
          winners += f.get() ? 1 : 0;
        }
        assertThat(winners).as("round %d, same key %s", round, sameKey).isEqualTo(sameKey ? 1 : 2);
      }
      assertThat(a.rounds().refusals() + b.rounds().refusals()).isEqualTo(10);
    } finally {
      pool.shutdownNow();
    }
    List<JournalEntry> entries = stored();
    assertThat(entries).hasSize(30);
    for (int i = 0; i < entries.size(); i++) {
      assertThat(entries.get(i).seq()).isEqualTo(i + 1);
    }
  }
}
