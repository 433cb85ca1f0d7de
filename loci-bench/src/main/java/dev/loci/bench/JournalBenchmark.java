package dev.loci.bench;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CancellationException;

/**
 * The journal benchmark ({@code loci bench journal}): durable appends per second under {@code
 * always} for each writer count, against SQLite inserting the same records one transaction per
 * record, and replay speed when opening a journal with and without a snapshot.
 *
 * <p>Run standalone from the repository root:
 *
 * <pre>
 * ./mvnw -q -B -pl loci-bench -am package dependency:build-classpath -DskipTests \
 *     -DincludeScope=runtime -Dmdep.outputFile=$PWD/target/cp.txt
 * java -Xmx4g -cp "loci-bench/target/classes:$(cat target/cp.txt)" \
 *     dev.loci.bench.JournalBenchmark --work-dir target/bench-work --json target/journal.json
 * </pre>
 *
 * <p>Design. Appends: first both sides write {@code jitWarmupRecords} records without fsync, so the
 * JIT has compiled both write paths before anything is counted. Then, for each writer count, Loci
 * and then SQLite each get a fresh directory, the writer threads run flat out for a warm-up and
 * then a measured window, and only acknowledged writes count (an {@code add} that returned, an
 * {@code INSERT} that committed). Afterwards the benchmark checks that the store holds exactly as
 * many records as were acknowledged. Replay: a journal of {@code replayEvents} one-trace batches is
 * built with {@code none} durability (not measured), then opening it is timed, then a snapshot is
 * written and opening is timed again; each open is checked to restore every trace. The journal
 * files are in the page cache when they are replayed, so replay figures are warm-cache figures.
 * Every measurement's directory is deleted once it is done. The measurements are {@link
 * JournalMeasurements}'; this class holds what a run takes and gives.
 */
public final class JournalBenchmark {
  /** The append goal: Loci at {@link #GOAL_WRITERS} writers sustains this many times SQLite. */
  public static final double GOAL_RATIO = 5.0;

  /** The writer count the append goal is stated for. */
  public static final int GOAL_WRITERS = 8;

  /** The snapshot goal: opening {@link #GOAL_REPLAY_EVENTS} traces from a snapshot takes less. */
  public static final Duration GOAL_SNAPSHOT_OPEN = Duration.ofSeconds(5);

  /** The journal size the snapshot goal is stated for. */
  public static final long GOAL_REPLAY_EVENTS = 1_000_000;

  private JournalBenchmark() {}

  /**
   * What to run. Immutable; start from {@link #defaults()} and change fields with the withers.
   *
   * @param workDir where measurement directories are created (and deleted); put it on the disk you
   *     want measured, not on tmpfs
   * @param writerCounts the concurrent writer counts to measure appends at, in order
   * @param warmup how long writers run before counting starts, per measurement
   * @param measurement how long acknowledged writes are counted, per measurement
   * @param replayEvents how many traces the replayed journal holds
   * @param noteBytes the length of the {@code note} string in each record's content
   * @param jitWarmupRecords records each side writes without fsync before the first measurement, so
   *     the JIT has compiled the write paths of both before any window is counted; 0 skips it
   */
  public record Options(
      Path workDir,
      List<Integer> writerCounts,
      Duration warmup,
      Duration measurement,
      int replayEvents,
      int noteBytes,
      int jitWarmupRecords) {
    /** Checks every field and copies the writer counts. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      Objects.requireNonNull(writerCounts, "writerCounts");
      Objects.requireNonNull(warmup, "warmup");
      Objects.requireNonNull(measurement, "measurement");
      writerCounts = List.copyOf(writerCounts);
      if (writerCounts.isEmpty()) {
        throw new IllegalArgumentException("writerCounts must name at least one writer count");
      }
      for (int n : writerCounts) {
        if (n < 1 || n > 1024) {
          throw new IllegalArgumentException(
              "each writer count must be between 1 and 1024, found " + n);
        }
      }
      if (warmup.isNegative()) {
        throw new IllegalArgumentException("warmup must not be negative, found " + warmup);
      }
      if (measurement.isNegative() || measurement.isZero()) {
        throw new IllegalArgumentException("measurement must be positive, found " + measurement);
      }
      if (replayEvents < 1) {
        throw new IllegalArgumentException(
            "replayEvents must be at least 1, found " + replayEvents);
      }
      if (noteBytes < 1 || noteBytes > 1_000_000) {
        throw new IllegalArgumentException(
            "noteBytes must be between 1 and 1,000,000, found " + noteBytes);
      }
      if (jitWarmupRecords < 0) {
        throw new IllegalArgumentException(
            "jitWarmupRecords must be 0 or more, found " + jitWarmupRecords);
      }
    }

    /**
     * The settings: work directory {@code ./loci-bench-work}, 1 and 8 writers, 2 s warm-up,
     * 10 s measured, 1,000,000 replay events, 100-character notes, 100,000 JIT warm-up records.
     */
    public static Options defaults() {
      return new Options(
          Path.of("loci-bench-work"),
          List.of(1, GOAL_WRITERS),
          Duration.ofSeconds(2),
          Duration.ofSeconds(10),
          (int) GOAL_REPLAY_EVENTS,
          100,
          100_000);
    }

    /** These options with another work directory. */
    public Options withWorkDir(Path workDir) {
      return new Options(
          workDir, writerCounts, warmup, measurement, replayEvents, noteBytes, jitWarmupRecords);
    }

    /** These options with other writer counts. */
    public Options withWriterCounts(List<Integer> writerCounts) {
      return new Options(
          workDir, writerCounts, warmup, measurement, replayEvents, noteBytes, jitWarmupRecords);
    }

    /** These options with another warm-up per measurement. */
    public Options withWarmup(Duration warmup) {
      return new Options(
          workDir, writerCounts, warmup, measurement, replayEvents, noteBytes, jitWarmupRecords);
    }

    /** These options with another measured window per measurement. */
    public Options withMeasurement(Duration measurement) {
      return new Options(
          workDir, writerCounts, warmup, measurement, replayEvents, noteBytes, jitWarmupRecords);
    }

    /** These options with another replayed journal size. */
    public Options withReplayEvents(int replayEvents) {
      return new Options(
          workDir, writerCounts, warmup, measurement, replayEvents, noteBytes, jitWarmupRecords);
    }

    /** These options with another note length. */
    public Options withNoteBytes(int noteBytes) {
      return new Options(
          workDir, writerCounts, warmup, measurement, replayEvents, noteBytes, jitWarmupRecords);
    }

    /** These options with another JIT warm-up size; 0 skips the warm-up. */
    public Options withJitWarmupRecords(int jitWarmupRecords) {
      return new Options(
          workDir, writerCounts, warmup, measurement, replayEvents, noteBytes, jitWarmupRecords);
    }
  }

  /**
   * Durable appends at one writer count, Loci against SQLite.
   *
   * @param writers concurrent writer threads on each side
   * @param loci Loci {@code traces().add} under {@code always}
   * @param sqlite SQLite autocommit inserts, WAL, {@code synchronous=FULL}
   * @param batchesPerFsync Loci's acknowledged batches (warm-up included) per fsync of the write
   *     path: how many appends each group commit covered on average
   */
  public record AppendResult(
      int writers, Throughput loci, Throughput sqlite, double batchesPerFsync) {
    /** Checks both figures are present. */
    public AppendResult {
      Objects.requireNonNull(loci, "loci");
      Objects.requireNonNull(sqlite, "sqlite");
    }

    /** Loci's rate divided by SQLite's; infinite if SQLite managed none. */
    public double ratio() {
      return loci.perSecond() / sqlite.perSecond();
    }
  }

  /**
   * Opening a journal of {@code events} one-trace batches.
   *
   * @param events traces (and batches) in the journal
   * @param journalBytes size of the journal segments on disk
   * @param withoutSnapshotSeconds time to open by replaying the whole journal
   * @param snapshotBytes size of the snapshot written after that
   * @param snapshotWriteSeconds time {@code Loci.snapshot()} took
   * @param fromSnapshotSeconds time to open from the snapshot with an empty journal tail
   * @param heapBytesAfterOpen heap in use, after a full GC, with the journal open
   */
  public record ReplayResult(
      long events,
      long journalBytes,
      double withoutSnapshotSeconds,
      long snapshotBytes,
      double snapshotWriteSeconds,
      double fromSnapshotSeconds,
      long heapBytesAfterOpen) {
    /** Events per second replayed without a snapshot. */
    public double withoutSnapshotEventsPerSecond() {
      return events / withoutSnapshotSeconds;
    }

    /** Events (traces) per second restored from the snapshot. */
    public double fromSnapshotEventsPerSecond() {
      return events / fromSnapshotSeconds;
    }
  }

  /**
   * Every figure of one run, with the machine and options it ran with.
   *
   * @param machine where it ran
   * @param options what it ran
   * @param appends one result per writer count, in the order of {@link Options#writerCounts()}
   * @param replay the replay measurement
   */
  public record Report(
      Machine machine, Options options, List<AppendResult> appends, ReplayResult replay) {
    /** Checks every part is present and copies the list. */
    public Report {
      Objects.requireNonNull(machine, "machine");
      Objects.requireNonNull(options, "options");
      Objects.requireNonNull(replay, "replay");
      appends = List.copyOf(appends);
    }

    /**
     * Whether Loci reached {@link #GOAL_RATIO} times SQLite at {@link #GOAL_WRITERS} writers; false
     * if that writer count was not measured.
     */
    public boolean appendGoalMet() {
      return appends.stream().anyMatch(a -> a.writers() == GOAL_WRITERS && a.ratio() >= GOAL_RATIO);
    }

    /**
     * Whether opening from the snapshot took less than {@link #GOAL_SNAPSHOT_OPEN}; only meaningful
     * when at least {@link #GOAL_REPLAY_EVENTS} events were replayed.
     */
    public boolean snapshotGoalMet() {
      return replay.fromSnapshotSeconds() < GOAL_SNAPSHOT_OPEN.toMillis() / 1000.0;
    }

    /** The results as a Markdown section: machine, settings, and one table with the ratios. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder();
      b.append(machine.toMarkdown());
      b.append("Appends: ")
          .append(Format.seconds(options.warmup()))
          .append(" s warm-up, then ")
          .append(Format.seconds(options.measurement()))
          .append(" s measured per row; records `{\"note\":\"<")
          .append(options.noteBytes())
          .append(" chars>\",\"i\":N}` with one tag, after ")
          .append(Format.count(options.jitWarmupRecords()))
          .append(" unmeasured JIT warm-up records per side. SQLite: WAL, `synchronous=FULL`,")
          .append(" one connection per writer, one transaction per record. CPU is the whole")
          .append(" process's CPU time per acknowledged write.\n\n");
      b.append("| Measurement | Rate | Detail |\n");
      b.append("|---|---:|---|\n");
      for (AppendResult a : appends) {
        String w = a.writers() + (a.writers() == 1 ? " writer" : " writers");
        Format.row(
            b,
            "Loci `always`, " + w,
            Format.rate(a.loci().perSecond()) + " appends/s",
            a.loci().detail() + "; " + Format.fixed(a.batchesPerFsync(), 2) + " batches per fsync");
        Format.row(
            b,
            "SQLite WAL `synchronous=FULL`, " + w,
            Format.rate(a.sqlite().perSecond()) + " inserts/s",
            a.sqlite().detail());
        String goal =
            a.writers() == GOAL_WRITERS
                ? "goal >= "
                    + Format.fixed(GOAL_RATIO, 0)
                    + "x: "
                    + (a.ratio() >= GOAL_RATIO ? "met" : "MISSED")
                : "";
        Format.row(b, "Ratio Loci / SQLite, " + w, Format.fixed(a.ratio(), 2) + "x", goal);
      }
      String events = Format.count(replay.events());
      Format.row(
          b,
          "Open, replay " + events + " events, no snapshot",
          Format.rate(replay.withoutSnapshotEventsPerSecond()) + " events/s",
          Format.fixed(replay.withoutSnapshotSeconds(), 2)
              + " s; journal "
              + Format.mib(replay.journalBytes()));
      String snapshotGoal =
          replay.events() >= GOAL_REPLAY_EVENTS
              ? "; goal < "
                  + GOAL_SNAPSHOT_OPEN.toSeconds()
                  + " s: "
                  + (snapshotGoalMet() ? "met" : "MISSED")
              : "";
      Format.row(
          b,
          "Open from snapshot of " + events + " traces",
          Format.rate(replay.fromSnapshotEventsPerSecond()) + " events/s",
          Format.fixed(replay.fromSnapshotSeconds(), 2)
              + " s; snapshot "
              + Format.mib(replay.snapshotBytes())
              + ", written in "
              + Format.fixed(replay.snapshotWriteSeconds(), 2)
              + " s"
              + snapshotGoal);
      return b.toString();
    }

    /** The results as one JSON object with every figure. */
    public String toJson() {
      StringBuilder b = new StringBuilder();
      b.append("{\n  \"benchmark\": \"journal\",\n  \"machine\": ");
      b.append(machine.toJson());
      b.append(",\n  \"options\": {");
      b.append("\"work_dir\": ").append(Format.quote(options.workDir().toString()));
      b.append(", \"writer_counts\": ").append(options.writerCounts());
      b.append(", \"warmup_seconds\": ").append(Format.seconds(options.warmup()));
      b.append(", \"measurement_seconds\": ").append(Format.seconds(options.measurement()));
      b.append(", \"replay_events\": ").append(options.replayEvents());
      b.append(", \"note_bytes\": ").append(options.noteBytes());
      b.append(", \"jit_warmup_records\": ").append(options.jitWarmupRecords());
      b.append("},\n  \"appends\": [");
      for (int i = 0; i < appends.size(); i++) {
        AppendResult a = appends.get(i);
        b.append(i == 0 ? "\n    " : ",\n    ");
        b.append("{\"writers\": ").append(a.writers());
        b.append(", \"loci\": ").append(a.loci().toJson());
        b.append(", \"sqlite\": ").append(a.sqlite().toJson());
        b.append(", \"ratio\": ").append(Format.number(a.ratio()));
        b.append(", \"batches_per_fsync\": ").append(Format.number(a.batchesPerFsync()));
        b.append("}");
      }
      b.append("\n  ],\n  \"replay\": {");
      b.append("\"events\": ").append(replay.events());
      b.append(", \"journal_bytes\": ").append(replay.journalBytes());
      b.append(", \"without_snapshot_seconds\": ")
          .append(Format.number(replay.withoutSnapshotSeconds()));
      b.append(", \"without_snapshot_events_per_second\": ")
          .append(Format.number(replay.withoutSnapshotEventsPerSecond()));
      b.append(", \"snapshot_bytes\": ").append(replay.snapshotBytes());
      b.append(", \"snapshot_write_seconds\": ")
          .append(Format.number(replay.snapshotWriteSeconds()));
      b.append(", \"from_snapshot_seconds\": ").append(Format.number(replay.fromSnapshotSeconds()));
      b.append(", \"from_snapshot_events_per_second\": ")
          .append(Format.number(replay.fromSnapshotEventsPerSecond()));
      b.append(", \"heap_bytes_after_open\": ").append(replay.heapBytesAfterOpen());
      b.append("},\n  \"goals\": {");
      b.append("\"append_ratio_at_").append(GOAL_WRITERS).append("_writers\": ");
      b.append(Format.number(GOAL_RATIO)).append(", \"append_goal_met\": ").append(appendGoalMet());
      b.append(", \"snapshot_open_seconds\": ").append(GOAL_SNAPSHOT_OPEN.toSeconds());
      b.append(", \"snapshot_goal_met\": ").append(snapshotGoalMet());
      b.append("}\n}\n");
      return b.toString();
    }
  }

  /**
   * Runs every measurement of {@code options} in turn, logging progress to {@code log}.
   *
   * <p>Creates {@link Options#workDir()} if missing; every measurement uses a fresh subdirectory
   * and deletes it afterwards, so the work directory is left as it was found.
   *
   * @throws IllegalStateException if a measurement fails or a store does not hold exactly what it
   *     acknowledged; the cause says why
   * @throws UncheckedIOException if the work directory cannot be created or cleaned
   * @throws CancellationException if the calling thread is interrupted
   */
  public static Report run(Options options, PrintStream log) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(log, "log");
    Machine machine = Machine.start("journal", options.workDir(), log);
    JournalMeasurements measure =
        new JournalMeasurements(options, new BenchRecords(options.noteBytes()), log);
    if (options.jitWarmupRecords() > 0) {
      measure.jitWarmup();
    }
    List<AppendResult> appends = new ArrayList<>();
    for (int writers : options.writerCounts()) {
      double[] perFsync = new double[1];
      Throughput loci = measure.lociAppends(writers, perFsync);
      Throughput sqlite = measure.sqliteInserts(writers);
      appends.add(new AppendResult(writers, loci, sqlite, perFsync[0]));
    }
    ReplayResult replay = measure.replay();
    return new Report(machine, options, appends, replay);
  }
}
