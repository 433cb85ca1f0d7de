package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.CrashFixture.Built;
import dev.loci.internal.FileJournal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each durability policy keeps its promise: all of them survive a clean close, and none of them
 * loses an acknowledged write when the process is killed (the bytes reached the operating system
 * before the acknowledgement; only {@code always} also survives a power loss, which a test cannot
 * cause).
 */
class CrashDurabilityTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"always", "interval=60000", "none"})
  void cleanClose_thenReopen_keepsEveryWrite(String durability, @TempDir Path tmp) {
    Durability d = Durability.parse(durability);
    assertThat(d.toString()).isEqualTo(durability);
    Built built =
        CrashFixture.build(
            tmp.resolve("data"), CrashFixture.BASE_SEED + 7, 120, b -> b.durability(d), Set.of());
    try (Loci loci = Loci.builder().dataDir(built.dir()).durability(d).snapshotAfter(0).open()) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(loci.lastSeq()).isEqualTo(120);
      assertThat(CrashFixture.state(loci)).isEqualTo(built.finalState());
    }
    assertThat(Loci.verify(built.dir()).damage()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"always", "interval=20", "none"})
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void kill9_duringConcurrentAdds_losesNothingAcknowledged(String durability, @TempDir Path tmp)
      throws Exception {
    CrashKillTest.killAndCheck(
        tmp.resolve("data"), durability, FileJournal.DEFAULT_SEGMENT_BYTES, 1000);
  }

  /**
   * Closing an instance whose background fsync is running must still close cleanly and fsync. With
   * a 1 ms interval the fsync thread is busy often enough that a few dozen closes hit it.
   */
  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void close_whileTheIntervalFsyncRuns_closesCleanly(@TempDir Path tmp) {
    Durability d = Durability.interval(Duration.ofMillis(1));
    List<String> failures = new ArrayList<>();
    for (int round = 0; round < 40; round++) {
      Path dir = tmp.resolve("r" + round);
      Loci loci = Loci.builder().dataDir(dir).durability(d).snapshotAfter(0).open();
      for (int i = 0; i < 300; i++) {
        loci.traces().add(CrashFixture.ALPHA, "{\"i\":" + i + "}", List.of());
      }
      try {
        loci.close();
      } catch (RuntimeException e) {
        failures.add("round " + round + ": " + e);
      }
      try (Loci again = CrashFixture.open(dir)) {
        assertThat(again.lastSeq()).isEqualTo(300);
      }
    }
    assertThat(failures).isEmpty();
  }
}
