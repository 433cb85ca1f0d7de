package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalBenchmarkTest {
  @TempDir Path work;

  @Test
  void run_tinyOptions_reportsPositiveFiguresAndCleansUp() throws IOException {
    JournalBenchmark.Options options =
        JournalBenchmark.Options.defaults()
            .withWorkDir(work.resolve("bench"))
            .withWriterCounts(List.of(1, 8))
            .withWarmup(Duration.ofMillis(200))
            .withMeasurement(Duration.ofMillis(500))
            .withReplayEvents(2_000)
            .withNoteBytes(40)
            .withJitWarmupRecords(500);
    ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    JournalBenchmark.Report report = JournalBenchmark.run(options, log);

    assertThat(report.options()).isEqualTo(options);
    assertThat(report.machine().cores()).isPositive();
    assertThat(report.machine().fileSystem()).isNotBlank();
    assertThat(report.appends())
        .extracting(JournalBenchmark.AppendResult::writers)
        .containsExactly(1, 8);
    for (JournalBenchmark.AppendResult a : report.appends()) {
      assertThat(a.loci().operations()).isPositive();
      assertThat(a.sqlite().operations()).isPositive();
      assertThat(a.loci().seconds()).isGreaterThanOrEqualTo(0.5);
      assertThat(a.ratio()).isPositive().isFinite();
      // every acknowledged add was covered by an fsync of the write path, 8 writers share them
      assertThat(a.batchesPerFsync()).isGreaterThanOrEqualTo(1.0).isLessThanOrEqualTo(a.writers());
    }
    JournalBenchmark.ReplayResult replay = report.replay();
    assertThat(replay.events()).isEqualTo(2_000);
    assertThat(replay.journalBytes()).isPositive();
    assertThat(replay.snapshotBytes()).isPositive();
    assertThat(replay.withoutSnapshotEventsPerSecond()).isPositive().isFinite();
    assertThat(replay.fromSnapshotEventsPerSecond()).isPositive().isFinite();

    String md = report.toMarkdown();
    assertThat(md)
        .contains("| Loci `always`, 1 writer |")
        .contains("| SQLite WAL `synchronous=FULL`, 1 writer |")
        .contains("| Ratio Loci / SQLite, 1 writer |")
        .contains("| Loci `always`, 8 writers |")
        .contains("| SQLite WAL `synchronous=FULL`, 8 writers |")
        .contains("| Ratio Loci / SQLite, 8 writers |")
        .contains("| Open, replay 2,000 events, no snapshot |")
        .contains("| Open from snapshot of 2,000 traces |")
        .contains("goal >= 5x")
        .contains("batches per fsync");
    assertThat(md.lines().filter(l -> l.startsWith("| "))).hasSize(1 + 6 + 2);

    String json = report.toJson();
    assertThat(json)
        .contains("\"writers\": 1")
        .contains("\"writers\": 8")
        .contains("\"without_snapshot_events_per_second\": ")
        .contains("\"from_snapshot_events_per_second\": ")
        .contains("\"batches_per_fsync\": ")
        .doesNotContain("null");

    assertThat(logBytes.toString(StandardCharsets.UTF_8))
        .contains("JIT warm-up: 500 records")
        .contains("opened from snapshot");
    try (Stream<Path> left = Files.list(work.resolve("bench"))) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void options_badValues_areRejectedWithTheField() {
    JournalBenchmark.Options d = JournalBenchmark.Options.defaults();
    assertThatThrownBy(() -> d.withWriterCounts(List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("writerCounts");
    assertThatThrownBy(() -> d.withWriterCounts(List.of(1, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("found 0");
    assertThatThrownBy(() -> d.withMeasurement(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("measurement");
    assertThatThrownBy(() -> d.withWarmup(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("warmup");
    assertThatThrownBy(() -> d.withReplayEvents(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replayEvents");
    assertThatThrownBy(() -> d.withNoteBytes(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("noteBytes");
    assertThatThrownBy(() -> d.withJitWarmupRecords(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jitWarmupRecords");
  }

  @Test
  void defaults_matchTheIssue() {
    JournalBenchmark.Options d = JournalBenchmark.Options.defaults();
    assertThat(d.writerCounts()).containsExactly(1, 8);
    assertThat(d.warmup()).isEqualTo(Duration.ofSeconds(2));
    assertThat(d.measurement()).isEqualTo(Duration.ofSeconds(10));
    assertThat(d.replayEvents()).isEqualTo(1_000_000);
  }

  @Test
  void content_isCompactJsonWithTheRequestedNoteLength() {
    String content = new BenchRecords(100).content(42);
    assertThat(content).startsWith("{\"note\":\"").endsWith("\",\"i\":42}");
    assertThat(content.length()).isEqualTo("{\"note\":\"\",\"i\":42}".length() + 100);
  }

  @Test
  void uuidV7_isVersion7AndUnique() {
    Instant now = Instant.now();
    String a = BenchRecords.uuidV7(now);
    String b = BenchRecords.uuidV7(now);
    assertThat(UUID.fromString(a).version()).isEqualTo(7);
    assertThat(a).isNotEqualTo(b);
  }
}
