package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.CrashFixture.KillResult;
import dev.loci.internal.FileJournal;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of a process in the middle of concurrent, group-committed appends loses nothing that was
 * acknowledged, duplicates nothing, and leaves at most a torn tail.
 */
class CrashKillTest {
  static final int THREADS = 8;
  private static final ObjectMapper JSON = new ObjectMapper();

  @RepeatedTest(3)
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void kill9_duringConcurrentAddsWithDurabilityAlways_losesNothingAcknowledged(@TempDir Path tmp)
      throws Exception {
    killAndCheck(tmp.resolve("data"), "always", FileJournal.DEFAULT_SEGMENT_BYTES, 2000);
  }

  /** The same with 4 KiB segments, so the kill often lands near a roll. */
  @RepeatedTest(2)
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void kill9_whileSegmentsRollEveryFewLines_losesNothingAcknowledged(@TempDir Path tmp)
      throws Exception {
    killAndCheck(tmp.resolve("data"), "always", 4096, 2000);
  }

  /**
   * Runs {@link CrashWriter} with {@code durability}, kills it after {@code acks} acknowledgements,
   * and checks the reopened directory against every acknowledgement printed.
   */
  static void killAndCheck(Path dir, String durability, long segmentBytes, int acks)
      throws Exception {
    KillResult result = CrashFixture.runAndKill(dir, durability, segmentBytes, THREADS, acks, 60);
    assertThat(result.errors()).as("child reported errors").isEmpty();
    assertThat(result.acks()).hasSizeGreaterThanOrEqualTo(acks);

    VerifyReport verify = Loci.verify(dir);
    assertThat(verify.ok()).as("verify after the kill: %s", verify.damage()).isTrue();

    NamespaceScope scope = NamespaceScope.exactly(CrashWriter.NS);
    Map<String, Trace> expected;
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(CrashFixture.lossy(loci.openDamage())).as("open damage").isEmpty();
      Map<String, Trace> state = CrashFixture.state(loci, scope);
      Map<String, Trace> byUid = new HashMap<>();
      state.values().forEach(t -> byUid.put(t.uid(), t));

      // every acknowledged add is there, with its content
      result
          .acks()
          .forEach(
              (uid, content) -> {
                assertThat(byUid).as("acknowledged uid %s", uid).containsKey(uid);
                assertThat(byUid.get(uid).content()).as("content of %s", uid).isEqualTo(content);
              });

      // nothing duplicated: each (writer, i) is stored once, and each writer's adds form a gapless
      // run 0..m, because a writer only starts add i+1 after add i was acknowledged
      Map<Integer, TreeSet<Long>> perWriter = new TreeMap<>();
      for (Trace t : state.values()) {
        JsonNode c = JSON.readTree(t.content());
        boolean fresh =
            perWriter
                .computeIfAbsent(c.get("w").asInt(), w -> new TreeSet<>())
                .add(c.get("i").asLong());
        assertThat(fresh).as("content stored twice: %s", t.content()).isTrue();
      }
      Map<Integer, Long> maxAcked = new HashMap<>();
      for (String content : result.acks().values()) {
        JsonNode c = JSON.readTree(content);
        maxAcked.merge(c.get("w").asInt(), c.get("i").asLong(), Math::max);
      }
      perWriter.forEach(
          (w, is) -> {
            assertThat(is.first()).as("writer %d starts at 0", w).isZero();
            assertThat(is.last() - is.first() + 1)
                .as("writer %d has no gaps", w)
                .isEqualTo(is.size());
            assertThat(is.last())
                .as("writer %d: at most one unacknowledged add survives", w)
                .isLessThanOrEqualTo(maxAcked.getOrDefault(w, -1L) + 1);
          });
      assertThat((long) state.size())
          .as("stored adds: the acknowledged ones plus at most one in flight per writer")
          .isBetween((long) result.acks().size(), (long) result.acks().size() + THREADS);
      assertThat(loci.lastSeq()).as("one batch per stored add").isEqualTo(state.size());

      Trace after = loci.traces().add(CrashWriter.NS, "{\"after\":\"kill\"}", List.of());
      assertThat(loci.lastSeq()).isEqualTo(state.size() + 1L);
      expected = CrashFixture.with(state, after);
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(CrashFixture.state(loci, scope)).isEqualTo(expected);
    }
  }
}
