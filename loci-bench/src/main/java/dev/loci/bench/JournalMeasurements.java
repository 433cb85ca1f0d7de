package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Traces;
import dev.loci.bench.JournalBenchmark.Options;
import dev.loci.internal.FileJournal;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The measurements of {@link JournalBenchmark}, each in a fresh directory under the work directory
 * that it deletes afterwards: the JIT warm-up, durable appends to Loci and inserts to SQLite at one
 * writer count, and replay. Each checks that the store holds exactly what was acknowledged, and
 * logs its figures as it goes. Not thread-safe; one run at a time.
 */
final class JournalMeasurements {
  private final Options options;
  private final BenchRecords records;
  private final PrintStream log;

  JournalMeasurements(Options options, BenchRecords records, PrintStream log) {
    this.options = options;
    this.records = records;
    this.log = log;
  }

  /**
   * Durable appends from {@code writers} threads to a fresh Loci under {@code always}; sets {@code
   * batchesPerFsync[0]} to the acknowledged batches (warm-up included) per fsync of the write path.
   */
  Throughput lociAppends(int writers, double[] batchesPerFsync) {
    String label = "Loci always, " + writers + (writers == 1 ? " writer" : " writers");
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "loci-" + writers + "w-")) {
      Path dir = scratch.path();
      ThroughputRun.Result r;
      long stored;
      FileJournal[] journal = new FileJournal[1];
      try (Loci loci =
          Loci.builder()
              .dataDir(dir)
              .durability(Durability.always())
              .journal(
                  d ->
                      journal[0] =
                          FileJournal.open(
                              d.resolve("journal"),
                              Durability.always(),
                              FileJournal.DEFAULT_SEGMENT_BYTES))
              .snapshotAfter(0)
              .open()) {
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
      long fsyncs = journal[0].fsyncCount();
      batchesPerFsync[0] = fsyncs == 0 ? 0 : (double) r.total() / fsyncs;
      log.printf(
          Locale.ROOT,
          "%s: %,d fsyncs, %.2f batches per fsync%n",
          label,
          fsyncs,
          batchesPerFsync[0]);
      return logged(label, "appends/s", r);
    }
  }

  /** Autocommit inserts from {@code writers} threads to a fresh SQLite database. */
  Throughput sqliteInserts(int writers) {
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
      return logged(label, "inserts/s", r);
    }
  }

  private Throughput logged(String label, String unit, ThroughputRun.Result r) {
    Throughput t = new Throughput(r.measured(), r.seconds(), r.cpuSeconds());
    log.printf(
        Locale.ROOT,
        "%s: %s %s (%,d in %.2f s, %.0f us process CPU each; %,d acknowledged and stored in"
            + " all)%n",
        label,
        Format.rate(t.perSecond()),
        unit,
        r.measured(),
        r.seconds(),
        t.cpuMicrosPerOperation(),
        r.total());
    return t;
  }

  /**
   * Builds a journal of {@link Options#replayEvents()} one-trace batches, then times opening it
   * without a snapshot, writing a snapshot, and opening it from the snapshot.
   */
  JournalBenchmark.ReplayResult replay() {
    long events = options.replayEvents();
    NamespaceScope scope = NamespaceScope.of(BenchRecords.SCOPE);
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "replay-")) {
      Path dir = scratch.path();
      long t0 = System.nanoTime();
      build(dir, records, events);
      long journalBytes = ScratchDir.bytesUnder(dir.resolve("journal"));
      log.printf(
          Locale.ROOT,
          "replay: built a journal of %,d events (%s) in %.2f s%n",
          events,
          Format.mib(journalBytes),
          (System.nanoTime() - t0) / 1e9);

      System.gc();
      double withoutSnapshot;
      double snapshotWrite;
      long heap;
      t0 = System.nanoTime();
      try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
        withoutSnapshot = (System.nanoTime() - t0) / 1e9;
        checkOpen("open without snapshot", loci, events, scope);
        heap = ThroughputRun.heapInUse();
        long s0 = System.nanoTime();
        loci.snapshot();
        snapshotWrite = (System.nanoTime() - s0) / 1e9;
      }
      long snapshotBytes = ScratchDir.bytesUnder(dir.resolve("snapshots"));
      log.printf(
          Locale.ROOT,
          "replay: opened without snapshot in %.2f s (%s events/s); heap in use %s;"
              + " snapshot of %s written in %.2f s%n",
          withoutSnapshot,
          Format.rate(events / withoutSnapshot),
          Format.mib(heap),
          Format.mib(snapshotBytes),
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
          Format.rate(events / fromSnapshot));
      return new JournalBenchmark.ReplayResult(
          events, journalBytes, withoutSnapshot, snapshotBytes, snapshotWrite, fromSnapshot, heap);
    }
  }

  /** Writes {@code events} one-trace batches with {@code none} durability and no snapshot. */
  static void build(Path dir, BenchRecords records, long events) {
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
  void jitWarmup() {
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
}
