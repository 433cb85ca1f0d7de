package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Traces;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.stream.Stream;

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
 * Every measurement's directory is deleted once it is done.
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
   * The machine a report was measured on.
   *
   * @param cores available processors
   * @param cpu the CPU model from {@code /proc/cpuinfo}, or {@code unknown}
   * @param jdk the Java runtime version and VM
   * @param os operating system name, version and architecture
   * @param fileSystem type and name of the file store holding the work directory
   * @param maxHeapBytes the JVM's maximum heap
   * @param loadAverage the system load average over the last minute when the run started, or a
   *     negative number if the platform does not report it; other work on the machine shows here
   * @param date when the run started
   */
  public record Machine(
      int cores,
      String cpu,
      String jdk,
      String os,
      String fileSystem,
      long maxHeapBytes,
      double loadAverage,
      Instant date) {
    /** Checks every field is present. */
    public Machine {
      Objects.requireNonNull(cpu, "cpu");
      Objects.requireNonNull(jdk, "jdk");
      Objects.requireNonNull(os, "os");
      Objects.requireNonNull(fileSystem, "fileSystem");
      Objects.requireNonNull(date, "date");
    }

    /** Describes this machine, with the file store of {@code workDir} (which must exist). */
    public static Machine describe(Path workDir) {
      String fs;
      try {
        FileStore store = Files.getFileStore(workDir);
        fs = store.type() + " on " + store.name();
      } catch (IOException e) {
        fs = "unknown (" + e.getMessage() + ")";
      }
      return new Machine(
          Runtime.getRuntime().availableProcessors(),
          cpuModel(),
          System.getProperty("java.runtime.version", System.getProperty("java.version"))
              + " "
              + System.getProperty("java.vm.name", ""),
          System.getProperty("os.name")
              + " "
              + System.getProperty("os.version")
              + " "
              + System.getProperty("os.arch"),
          fs,
          Runtime.getRuntime().maxMemory(),
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
          Instant.now().truncatedTo(ChronoUnit.SECONDS));
    }

    private static String cpuModel() {
      Path info = Path.of("/proc/cpuinfo");
      if (!Files.isReadable(info)) {
        return "unknown";
      }
      try (Stream<String> lines = Files.lines(info, StandardCharsets.UTF_8)) {
        return lines
            .filter(l -> l.startsWith("model name"))
            .map(l -> l.substring(l.indexOf(':') + 1).trim())
            .findFirst()
            .orElse("unknown");
      } catch (IOException | UncheckedIOException e) {
        return "unknown";
      }
    }
  }

  /**
   * A count of acknowledged operations over a measured window.
   *
   * @param operations operations acknowledged inside the window
   * @param seconds the window's length
   * @param processCpuSeconds CPU time the whole benchmark process used inside the window (writers,
   *     JIT, GC), or -1 if the JVM does not report it
   */
  public record Throughput(long operations, double seconds, double processCpuSeconds) {
    /** Checks the figures are not negative and the window is not empty. */
    public Throughput {
      if (operations < 0 || !(seconds > 0)) {
        throw new IllegalArgumentException(
            "expected operations >= 0 and seconds > 0, found " + operations + " in " + seconds);
      }
    }

    /** Operations per second. */
    public double perSecond() {
      return operations / seconds;
    }

    /** Process CPU microseconds per operation, or -1 if unknown or nothing was acknowledged. */
    public double cpuMicrosPerOperation() {
      return processCpuSeconds < 0 || operations == 0 ? -1 : processCpuSeconds * 1e6 / operations;
    }
  }

  /**
   * Durable appends at one writer count, Loci against SQLite.
   *
   * @param writers concurrent writer threads on each side
   * @param loci Loci {@code traces().add} under {@code always}
   * @param sqlite SQLite autocommit inserts, WAL, {@code synchronous=FULL}
   */
  public record AppendResult(int writers, Throughput loci, Throughput sqlite) {
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
      b.append("Machine: ")
          .append(machine.cores())
          .append(" cores (")
          .append(machine.cpu())
          .append("), ")
          .append(machine.os())
          .append(", JDK ")
          .append(machine.jdk())
          .append(", max heap ")
          .append(mib(machine.maxHeapBytes()))
          .append(", data on ")
          .append(machine.fileSystem())
          .append(", load average ")
          .append(fixed(machine.loadAverage(), 2))
          .append(" at start, ")
          .append(machine.date())
          .append(".\n\n");
      b.append("Appends: ")
          .append(seconds(options.warmup()))
          .append(" s warm-up, then ")
          .append(seconds(options.measurement()))
          .append(" s measured per row; records `{\"note\":\"<")
          .append(options.noteBytes())
          .append(" chars>\",\"i\":N}` with one tag, after ")
          .append(count(options.jitWarmupRecords()))
          .append(" unmeasured JIT warm-up records per side. SQLite: WAL, `synchronous=FULL`,")
          .append(" one connection per writer, one transaction per record. CPU is the whole")
          .append(" process's CPU time per acknowledged write.\n\n");
      b.append("| Measurement | Rate | Detail |\n");
      b.append("|---|---:|---|\n");
      for (AppendResult a : appends) {
        String w = a.writers() + (a.writers() == 1 ? " writer" : " writers");
        row(b, "Loci `always`, " + w, rate(a.loci().perSecond()) + " appends/s", detail(a.loci()));
        row(
            b,
            "SQLite WAL `synchronous=FULL`, " + w,
            rate(a.sqlite().perSecond()) + " inserts/s",
            detail(a.sqlite()));
        String goal =
            a.writers() == GOAL_WRITERS
                ? "goal >= "
                    + fixed(GOAL_RATIO, 0)
                    + "x: "
                    + (a.ratio() >= GOAL_RATIO ? "met" : "MISSED")
                : "";
        row(b, "Ratio Loci / SQLite, " + w, fixed(a.ratio(), 2) + "x", goal);
      }
      String events = count(replay.events());
      row(
          b,
          "Open, replay " + events + " events, no snapshot",
          rate(replay.withoutSnapshotEventsPerSecond()) + " events/s",
          fixed(replay.withoutSnapshotSeconds(), 2) + " s; journal " + mib(replay.journalBytes()));
      String snapshotGoal =
          replay.events() >= GOAL_REPLAY_EVENTS
              ? "; goal < "
                  + GOAL_SNAPSHOT_OPEN.toSeconds()
                  + " s: "
                  + (snapshotGoalMet() ? "met" : "MISSED")
              : "";
      row(
          b,
          "Open from snapshot of " + events + " traces",
          rate(replay.fromSnapshotEventsPerSecond()) + " events/s",
          fixed(replay.fromSnapshotSeconds(), 2)
              + " s; snapshot "
              + mib(replay.snapshotBytes())
              + ", written in "
              + fixed(replay.snapshotWriteSeconds(), 2)
              + " s"
              + snapshotGoal);
      return b.toString();
    }

    /** The results as one JSON object with every figure. */
    public String toJson() {
      StringBuilder b = new StringBuilder();
      b.append("{\n  \"benchmark\": \"journal\",\n  \"machine\": {");
      b.append("\"cores\": ").append(machine.cores());
      b.append(", \"cpu\": ").append(quote(machine.cpu()));
      b.append(", \"jdk\": ").append(quote(machine.jdk()));
      b.append(", \"os\": ").append(quote(machine.os()));
      b.append(", \"file_system\": ").append(quote(machine.fileSystem()));
      b.append(", \"max_heap_bytes\": ").append(machine.maxHeapBytes());
      b.append(", \"load_average\": ").append(number(machine.loadAverage()));
      b.append(", \"date\": ").append(quote(machine.date().toString()));
      b.append("},\n  \"options\": {");
      b.append("\"work_dir\": ").append(quote(options.workDir().toString()));
      b.append(", \"writer_counts\": ").append(options.writerCounts());
      b.append(", \"warmup_seconds\": ").append(seconds(options.warmup()));
      b.append(", \"measurement_seconds\": ").append(seconds(options.measurement()));
      b.append(", \"replay_events\": ").append(options.replayEvents());
      b.append(", \"note_bytes\": ").append(options.noteBytes());
      b.append(", \"jit_warmup_records\": ").append(options.jitWarmupRecords());
      b.append("},\n  \"appends\": [");
      for (int i = 0; i < appends.size(); i++) {
        AppendResult a = appends.get(i);
        b.append(i == 0 ? "\n    " : ",\n    ");
        b.append("{\"writers\": ").append(a.writers());
        b.append(", \"loci\": ").append(json(a.loci()));
        b.append(", \"sqlite\": ").append(json(a.sqlite()));
        b.append(", \"ratio\": ").append(number(a.ratio()));
        b.append("}");
      }
      b.append("\n  ],\n  \"replay\": {");
      b.append("\"events\": ").append(replay.events());
      b.append(", \"journal_bytes\": ").append(replay.journalBytes());
      b.append(", \"without_snapshot_seconds\": ").append(number(replay.withoutSnapshotSeconds()));
      b.append(", \"without_snapshot_events_per_second\": ")
          .append(number(replay.withoutSnapshotEventsPerSecond()));
      b.append(", \"snapshot_bytes\": ").append(replay.snapshotBytes());
      b.append(", \"snapshot_write_seconds\": ").append(number(replay.snapshotWriteSeconds()));
      b.append(", \"from_snapshot_seconds\": ").append(number(replay.fromSnapshotSeconds()));
      b.append(", \"from_snapshot_events_per_second\": ")
          .append(number(replay.fromSnapshotEventsPerSecond()));
      b.append(", \"heap_bytes_after_open\": ").append(replay.heapBytesAfterOpen());
      b.append("},\n  \"goals\": {");
      b.append("\"append_ratio_at_").append(GOAL_WRITERS).append("_writers\": ");
      b.append(number(GOAL_RATIO)).append(", \"append_goal_met\": ").append(appendGoalMet());
      b.append(", \"snapshot_open_seconds\": ").append(GOAL_SNAPSHOT_OPEN.toSeconds());
      b.append(", \"snapshot_goal_met\": ").append(snapshotGoalMet());
      b.append("}\n}\n");
      return b.toString();
    }

    private static void row(StringBuilder b, String what, String rate, String detail) {
      b.append("| ").append(what).append(" | ").append(rate).append(" | ").append(detail);
      b.append(" |\n");
    }

    private static String detail(Throughput t) {
      String d = count(t.operations()) + " in " + fixed(t.seconds(), 2) + " s";
      return t.cpuMicrosPerOperation() < 0
          ? d
          : d + ", " + fixed(t.cpuMicrosPerOperation(), 0) + " us CPU each";
    }

    private static String json(Throughput t) {
      return "{\"operations\": "
          + t.operations()
          + ", \"seconds\": "
          + number(t.seconds())
          + ", \"per_second\": "
          + number(t.perSecond())
          + ", \"process_cpu_seconds\": "
          + number(t.processCpuSeconds())
          + "}";
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
    try {
      Files.createDirectories(options.workDir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Machine machine = Machine.describe(options.workDir());
    log.println("journal benchmark on " + machine.cores() + " cores, " + machine.fileSystem());
    if (machine.fileSystem().startsWith("tmpfs")) {
      log.println("warning: the work directory is on tmpfs, where fsync costs nothing");
    }
    BenchRecords records = new BenchRecords(options.noteBytes());
    if (options.jitWarmupRecords() > 0) {
      jitWarmup(options, records, log);
    }
    List<AppendResult> appends = new ArrayList<>();
    for (int writers : options.writerCounts()) {
      Throughput loci = lociAppends(options, records, writers, log);
      Throughput sqlite = sqliteInserts(options, records, writers, log);
      appends.add(new AppendResult(writers, loci, sqlite));
    }
    ReplayResult replay = replay(options, records, log);
    return new Report(machine, options, appends, replay);
  }

  private static Throughput lociAppends(
      Options options, BenchRecords records, int writers, PrintStream log) {
    String label = "Loci always, " + writers + (writers == 1 ? " writer" : " writers");
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "loci-" + writers + "w-")) {
      Path dir = scratch.path();
      ThroughputRun.Result r;
      long stored;
      try (Loci loci =
          Loci.builder().dataDir(dir).durability(Durability.always()).snapshotAfter(0).open()) {
        System.gc();
        r =
            ThroughputRun.run(
                "loci-" + writers,
                lociWriters(loci, records, writers),
                options.warmup(),
                options.measurement());
        stored = loci.traces().count(NamespaceScope.of(BenchRecords.SCOPE));
      }
      check(label, r.total(), stored);
      return logged(log, label, "appends/s", r);
    }
  }

  private static Throughput sqliteInserts(
      Options options, BenchRecords records, int writers, PrintStream log) {
    String label =
        "SQLite WAL synchronous=FULL, " + writers + (writers == 1 ? " writer" : " writers");
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "sqlite-" + writers + "w-")) {
      Path dir = scratch.path();
      ThroughputRun.Result r;
      long stored;
      try (SqlitePeer peer = SqlitePeer.create(dir.resolve("traces.db"), true)) {
        List<ThroughputRun.Writer> ws = new ArrayList<>();
        for (int k = 0; k < writers; k++) {
          ws.add(peer.writer(records));
        }
        System.gc();
        r = ThroughputRun.run("sqlite-" + writers, ws, options.warmup(), options.measurement());
        stored = peer.count();
      } catch (SQLException e) {
        throw new IllegalStateException(label + ": " + e.getMessage(), e);
      }
      check(label, r.total(), stored);
      return logged(log, label, "inserts/s", r);
    }
  }

  private static Throughput logged(
      PrintStream log, String label, String unit, ThroughputRun.Result r) {
    Throughput t = new Throughput(r.measured(), r.seconds(), r.cpuSeconds());
    log.printf(
        Locale.ROOT,
        "%s: %s %s (%,d in %.2f s, %.0f us process CPU each; %,d acknowledged and stored in"
            + " all)%n",
        label,
        rate(t.perSecond()),
        unit,
        r.measured(),
        r.seconds(),
        t.cpuMicrosPerOperation(),
        r.total());
    return t;
  }

  private static ReplayResult replay(Options options, BenchRecords records, PrintStream log) {
    long events = options.replayEvents();
    NamespaceScope scope = NamespaceScope.of(BenchRecords.SCOPE);
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "replay-")) {
      Path dir = scratch.path();
      long t0 = System.nanoTime();
      build(dir, records, events);
      long journalBytes = size(dir.resolve("journal"));
      log.printf(
          Locale.ROOT,
          "replay: built a journal of %,d events (%s) in %.2f s%n",
          events,
          mib(journalBytes),
          (System.nanoTime() - t0) / 1e9);

      System.gc();
      double withoutSnapshot;
      double snapshotWrite;
      long heap;
      t0 = System.nanoTime();
      try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
        withoutSnapshot = (System.nanoTime() - t0) / 1e9;
        checkOpen("open without snapshot", loci, events, scope);
        heap = heapInUse();
        long s0 = System.nanoTime();
        loci.snapshot();
        snapshotWrite = (System.nanoTime() - s0) / 1e9;
      }
      long snapshotBytes = size(dir.resolve("snapshots"));
      log.printf(
          Locale.ROOT,
          "replay: opened without snapshot in %.2f s (%s events/s); heap in use %s;"
              + " snapshot of %s written in %.2f s%n",
          withoutSnapshot,
          rate(events / withoutSnapshot),
          mib(heap),
          mib(snapshotBytes),
          snapshotWrite);

      System.gc();
      double fromSnapshot;
      t0 = System.nanoTime();
      try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
        fromSnapshot = (System.nanoTime() - t0) / 1e9;
        checkOpen("open from snapshot", loci, events, scope);
      }
      log.printf(
          Locale.ROOT,
          "replay: opened from snapshot in %.2f s (%s events/s)%n",
          fromSnapshot,
          rate(events / fromSnapshot));
      return new ReplayResult(
          events, journalBytes, withoutSnapshot, snapshotBytes, snapshotWrite, fromSnapshot, heap);
    }
  }

  /** Writes {@code events} one-trace batches with {@code none} durability and no snapshot. */
  private static void build(Path dir, BenchRecords records, long events) {
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    try (Loci loci = openNone(dir)) {
      ThroughputRun.runCount("replay-build", lociWriters(loci, records, threads), events);
      check("replay journal", events, loci.traces().count(NamespaceScope.of(BenchRecords.SCOPE)));
    }
  }

  /**
   * Writes {@link Options#jitWarmupRecords()} records on each side without fsync, from as many
   * threads as the largest writer count, so both sides' write paths are compiled before any window
   * is counted. Nothing here is measured.
   */
  private static void jitWarmup(Options options, BenchRecords records, PrintStream log) {
    int threads = options.writerCounts().stream().mapToInt(Integer::intValue).max().orElse(1);
    long n = options.jitWarmupRecords();
    long t0 = System.nanoTime();
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "warmup-loci-");
        Loci loci = openNone(scratch.path())) {
      ThroughputRun.runCount("warmup-loci", lociWriters(loci, records, threads), n);
    }
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "warmup-sqlite-");
        SqlitePeer peer = SqlitePeer.create(scratch.path().resolve("traces.db"), false)) {
      List<ThroughputRun.Writer> ws = new ArrayList<>();
      for (int k = 0; k < threads; k++) {
        ws.add(peer.writer(records));
      }
      ThroughputRun.runCount("warmup-sqlite", ws, n);
    } catch (SQLException e) {
      throw new IllegalStateException("SQLite warm-up: " + e.getMessage(), e);
    }
    log.printf(
        Locale.ROOT,
        "JIT warm-up: %,d records per side without fsync in %.2f s (not measured)%n",
        n,
        (System.nanoTime() - t0) / 1e9);
  }

  private static Loci openNone(Path dir) {
    return Loci.builder().dataDir(dir).durability(Durability.none()).snapshotAfter(0).open();
  }

  private static List<ThroughputRun.Writer> lociWriters(
      Loci loci, BenchRecords records, int writers) {
    Traces traces = loci.traces();
    Namespace ns = Namespace.of(BenchRecords.NAMESPACE);
    List<ThroughputRun.Writer> ws = new ArrayList<>(writers);
    for (int k = 0; k < writers; k++) {
      ws.add(i -> traces.add(ns, records.content(i), BenchRecords.TAGS));
    }
    return ws;
  }

  private static void checkOpen(String what, Loci loci, long events, NamespaceScope scope) {
    if (!loci.openDamage().isEmpty()) {
      throw new IllegalStateException(what + ": found damage " + loci.openDamage());
    }
    check(what, events, loci.traces().count(scope));
    if (loci.lastSeq() != events) {
      throw new IllegalStateException(
          what + ": expected last sequence " + events + ", found " + loci.lastSeq());
    }
  }

  private static void check(String what, long acknowledged, long stored) {
    if (acknowledged != stored) {
      throw new IllegalStateException(
          what + ": acknowledged " + acknowledged + " records but the store holds " + stored);
    }
  }

  private static long heapInUse() {
    System.gc();
    Runtime rt = Runtime.getRuntime();
    return rt.totalMemory() - rt.freeMemory();
  }

  private static long size(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      long total = 0;
      for (Path p : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(p)) {
          total += Files.size(p);
        }
      }
      return total;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------- formatting

  private static String rate(double perSecond) {
    return String.format(Locale.ROOT, "%,.0f", perSecond);
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String fixed(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }

  private static String seconds(Duration d) {
    return number(d.toNanos() / 1e9);
  }

  private static String number(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "null";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.4f", v);
  }

  private static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  // ---------------------------------------------------------------- standalone

}
