package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.NamespaceScope;
import dev.loci.recall.GraphStats;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.SourceDocument;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Reopen at scale: how long {@code Loci.open} takes over a large memory graph (from a snapshot, and
 * by replaying the journal) and over a large journal of traces (replay, no snapshot).
 *
 * <p>The stores are built once, fast (durability {@code none}, no vectors: the text index is the
 * index kept in step), under {@code workDir/reopen-nodes-N} and {@code workDir/reopen-traces-N},
 * and kept: a later run (or another build, through {@code loci-bench/scripts/ReopenTime.java})
 * reopens the same files. Nodes are those of {@code loci bench recall} (its corpus and domain pack,
 * 10,000 per document, about 2.95 edges per node). Each open is timed on its own, alternating
 * replay and snapshot, with the CPU time of the opening thread and of the whole process beside the
 * wall time: on a shared machine the thread's CPU time moves far less with load than the wall time.
 * The peer of a snapshot open is the replay of the same store in the same run.
 */
public final class ReopenBenchmark {
  private ReopenBenchmark() {}

  /**
   * What to run.
   *
   * @param workDir where the stores are built and kept
   * @param nodes memory-graph nodes (0: none)
   * @param traces trace events of the replayed journal (0: none)
   * @param rounds how many times each open is timed
   */
  public record Options(Path workDir, int nodes, int traces, int rounds) {
    /** Checks the values. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      if (nodes != 0 && nodes < 1000) {
        throw new IllegalArgumentException("nodes must be 0 or at least 1000, found " + nodes);
      }
      if (traces < 0) {
        throw new IllegalArgumentException("traces must be 0 or more, found " + traces);
      }
      if (rounds < 1) {
        throw new IllegalArgumentException("rounds must be at least 1, found " + rounds);
      }
    }
  }

  /**
   * One timed open.
   *
   * @param store which store ("nodes" or "traces") and how many records
   * @param mode "replay" (no snapshot) or "snapshot"
   * @param wallSeconds wall time of {@code Loci.open}
   * @param threadCpuSeconds CPU time of the opening thread
   * @param processCpuSeconds CPU time of the whole process meanwhile (other threads, GC)
   */
  public record Open(
      String store,
      long records,
      String mode,
      double wallSeconds,
      double threadCpuSeconds,
      double processCpuSeconds) {}

  /** The figures of one run. */
  public record Report(Machine machine, Options options, List<Open> opens) {
    /** A Markdown table, one row per timed open. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder();
      b.append(machine.toMarkdown()).append('\n');
      b.append("| Store | Open | Wall | CPU, opening thread | CPU, process |\n");
      b.append("|---|---|---:|---:|---:|\n");
      for (Open o : opens) {
        Format.row(
            b,
            Format.count(o.records()) + " " + o.store(),
            o.mode(),
            Format.fixed(o.wallSeconds(), 2) + " s",
            Format.fixed(o.threadCpuSeconds(), 2) + " s",
            Format.fixed(o.processCpuSeconds(), 2) + " s");
      }
      return b.toString();
    }

    /** The report as JSON. */
    public String toJson() {
      StringBuilder b = new StringBuilder("{\"benchmark\": \"reopen\", \"opens\": [");
      for (int i = 0; i < opens.size(); i++) {
        Open o = opens.get(i);
        b.append(i == 0 ? "" : ", ")
            .append(
                String.format(
                    Locale.ROOT,
                    "{\"store\": \"%s\", \"records\": %d, \"mode\": \"%s\", \"wall_seconds\": %s,"
                        + " \"thread_cpu_seconds\": %s, \"process_cpu_seconds\": %s}",
                    o.store(),
                    o.records(),
                    o.mode(),
                    Format.number(o.wallSeconds()),
                    Format.number(o.threadCpuSeconds()),
                    Format.number(o.processCpuSeconds())));
      }
      return b.append("]}\n").toString();
    }
  }

  /** Builds the stores that are missing, then times the opens. */
  public static Report run(Options options, PrintStream log) {
    Machine machine = Machine.start("reopen", options.workDir(), log);
    List<Open> opens = new ArrayList<>();
    if (options.nodes() > 0) {
      Path dir = options.workDir().resolve("reopen-nodes-" + options.nodes());
      GraphStats built = buildNodes(dir, options.nodes(), log);
      for (int r = 0; r < options.rounds(); r++) {
        for (String mode : List.of("replay", "snapshot")) {
          Open o =
              time(
                  dir,
                  "nodes",
                  options.nodes(),
                  mode,
                  loci -> RecallMemory.of(loci).stats(RecallBenchmark.NS));
          opens.add(o);
          log.printf(Locale.ROOT, "reopen: %s%n", o);
        }
      }
      check(built, dir);
    }
    if (options.traces() > 0) {
      Path dir = options.workDir().resolve("reopen-traces-" + options.traces());
      buildTraces(dir, options.traces(), log);
      for (int r = 0; r < options.rounds(); r++) {
        Open o =
            time(
                dir,
                "traces",
                options.traces(),
                "replay",
                loci -> loci.traces().count(NamespaceScope.of(BenchRecords.SCOPE)));
        opens.add(o);
        log.printf(Locale.ROOT, "reopen: %s%n", o);
      }
    }
    return new Report(machine, options, opens);
  }

  /** The graph the store holds must be the same however it was opened. */
  private static void check(GraphStats built, Path dir) {
    for (String mode : List.of("replay", "snapshot")) {
      Object[] found = new Object[1];
      time(
          dir,
          "nodes",
          0,
          mode,
          loci -> found[0] = RecallMemory.of(loci).stats(RecallBenchmark.NS));
      if (!built.equals(found[0])) {
        throw new IllegalStateException(
            "opened by " + mode + ", the graph is " + found[0] + ", expected " + built);
      }
    }
  }

  private static GraphStats buildNodes(Path dir, int n, PrintStream log) {
    Path built = dir.resolve("built");
    if (!Files.exists(built)) {
      long t0 = System.nanoTime();
      delete(dir);
      RecallBenchmark.Corpus corpus = new RecallBenchmark.Corpus(n, 0, 42, false);
      try (Loci loci = openNone(dir)) {
        RecallMemory recall = RecallMemory.of(loci);
        RecallBenchmark.BenchPack pack = new RecallBenchmark.BenchPack(corpus, 42);
        for (int from = 0; from < n; from += RecallBenchmark.PART) {
          int to = Math.min(n, from + RecallBenchmark.PART);
          recall.ingest(
              RecallBenchmark.NS,
              pack,
              new SourceDocument("bench/part-" + from, from + "," + to),
              RecallMemory.Progress.NONE);
          if (to % 100_000 == 0) {
            log.printf(Locale.ROOT, "reopen: ingested %,d nodes%n", to);
          }
        }
        loci.snapshot();
      }
      write(built, "");
      log.printf(
          Locale.ROOT,
          "reopen: built %,d nodes in %.1f s (%s)%n",
          n,
          (System.nanoTime() - t0) / 1e9,
          Format.mib(ScratchDir.bytesUnder(dir)));
    }
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      return RecallMemory.of(loci).stats(RecallBenchmark.NS);
    }
  }

  private static void buildTraces(Path dir, int n, PrintStream log) {
    Path built = dir.resolve("built");
    if (!Files.exists(built)) {
      long t0 = System.nanoTime();
      delete(dir);
      JournalMeasurements.build(dir, new BenchRecords(100), n);
      write(built, "");
      log.printf(
          Locale.ROOT,
          "reopen: built %,d traces in %.1f s (%s)%n",
          n,
          (System.nanoTime() - t0) / 1e9,
          Format.mib(ScratchDir.bytesUnder(dir)));
    }
  }

  /**
   * Times one {@code Loci.open} of {@code dir}: by replay with the snapshots moved aside, or from
   * the newest snapshot. {@code after} runs once the store is open and is not timed.
   */
  static Open time(
      Path dir, String store, long records, String mode, Function<Loci, Object> after) {
    Path snapshots = dir.resolve("snapshots");
    Path aside = dir.resolve("snapshots-aside");
    boolean replay = mode.equals("replay");
    try {
      if (replay && Files.exists(snapshots)) {
        Files.move(snapshots, aside);
      }
      try {
        System.gc();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long process0 = processCpuNanos();
        long t0 = System.nanoTime();
        try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
          long t1 = System.nanoTime();
          long cpu1 = threads.getCurrentThreadCpuTime();
          long process1 = processCpuNanos();
          after.apply(loci);
          return new Open(
              store,
              records,
              mode,
              (t1 - t0) / 1e9,
              (cpu1 - cpu0) / 1e9,
              (process1 - process0) / 1e9);
        }
      } finally {
        if (replay && Files.exists(aside)) {
          delete(snapshots);
          Files.move(aside, snapshots);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : -1;
  }

  private static Loci openNone(Path dir) {
    return Loci.builder().dataDir(dir).durability(Durability.none()).snapshotAfter(0).open();
  }

  private static void write(Path file, String text) {
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path dir) {
    if (Files.exists(dir)) {
      new ScratchDir(dir).close();
    }
  }
}
