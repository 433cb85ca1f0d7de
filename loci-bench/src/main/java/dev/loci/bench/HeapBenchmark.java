package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.pathway.PathwayMemory;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.spi.SourceDocument;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Heap per record ({@code loci bench heap}): for each kind of record (a plain trace, a pathway
 * trace, a memory-graph node), a fresh store (durability {@code none}, no snapshots) takes {@code
 * records} of them, and the heap in use after a full GC with the store open is compared with the
 * heap in use after a full GC with the store open and empty. The difference, divided by the
 * records, is what one record costs the open store: the projection, its indexes' heap part, and the
 * journal's bookkeeping. The input (the generated corpus) is built before the first measurement and
 * kept alive until after the second, so it is not counted.
 *
 * <p>Nodes are ingested as {@code loci bench recall} does (10,000 per document, with their edges,
 * then embedded with the hashing model into the HNSW index): the per-node figure includes the
 * node's share of edges and vectors.
 */
public final class HeapBenchmark {
  /** The goal: each kind of record costs less heap than this. */
  public static final long GOAL_BYTES = 1024;

  private static final Namespace NS = Namespace.of("bench.heap");

  private HeapBenchmark() {}

  /**
   * One kind of record.
   *
   * @param kind what was stored
   * @param records how many
   * @param heapBytes heap the store held for them (in use with them, less in use without)
   */
  public record Result(String kind, long records, long heapBytes) {
    /** Heap bytes per record. */
    public long bytesPerRecord() {
      return heapBytes / records;
    }
  }

  /**
   * Every figure of one run.
   *
   * @param machine where it ran
   * @param records records per kind
   * @param results one per kind
   */
  public record Report(Machine machine, int records, List<Result> results) {
    /** Checks the parts and copies the list. */
    public Report {
      Objects.requireNonNull(machine, "machine");
      results = List.copyOf(results);
    }

    /** The results as Markdown: machine, then one table. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder(machine.toMarkdown());
      b.append("Heap after a full GC with the store open, less the same with it empty; ")
          .append(Format.count(records))
          .append(" records of each kind, durability `none`.\n\n");
      b.append("| Record | Heap | Per record | Goal < 1 KB |\n|---|---:|---:|---|\n");
      for (Result r : results) {
        b.append("| ")
            .append(r.kind())
            .append(" | ")
            .append(Format.mib(r.heapBytes()))
            .append(" | ")
            .append(Format.count(r.bytesPerRecord()))
            .append(" B | ")
            .append(r.bytesPerRecord() < GOAL_BYTES ? "met" : "MISSED")
            .append(" |\n");
      }
      return b.toString();
    }

    /** The results as one JSON object. */
    public String toJson() {
      StringBuilder b = new StringBuilder("{\n  \"benchmark\": \"heap\",\n  \"machine\": ");
      b.append(machine.toJson()).append(",\n  \"records\": ").append(records);
      b.append(",\n  \"results\": [");
      for (int i = 0; i < results.size(); i++) {
        Result r = results.get(i);
        b.append(i == 0 ? "\n    " : ",\n    ")
            .append("{\"kind\": ")
            .append(Format.quote(r.kind()))
            .append(", \"heap_bytes\": ")
            .append(r.heapBytes())
            .append(", \"bytes_per_record\": ")
            .append(r.bytesPerRecord())
            .append("}");
      }
      return b.append("\n  ]\n}\n").toString();
    }
  }

  /** Fills an open store with {@code n} records of one kind. */
  @FunctionalInterface
  private interface Fill {
    void fill(Loci loci, int n);
  }

  /** The kinds of record measured, by the names {@code --kinds} takes. */
  public static final List<String> KINDS = List.of("trace", "pathway", "node");

  /**
   * Measures each kind of record in {@code kinds} (of {@link #KINDS}) at {@code records}.
   *
   * @throws IllegalArgumentException if {@code records} is below 1,000 or a kind is unknown
   */
  public static Report run(Path workDir, int records, List<String> kinds, PrintStream log) {
    if (records < 1000) {
      throw new IllegalArgumentException("records must be at least 1000, found " + records);
    }
    for (String k : kinds) {
      if (!KINDS.contains(k)) {
        throw new IllegalArgumentException("kinds must be among " + KINDS + ", found " + k);
      }
    }
    Machine machine = Machine.start("heap", workDir, log);
    List<Result> results = new ArrayList<>();
    BenchRecords traces = new BenchRecords(100);
    if (kinds.contains("trace")) {
      results.add(
          measure(
              workDir,
              "trace (100-character note, one tag)",
              records,
              log,
              (loci, n) -> {
                for (int i = 0; i < n; i++) {
                  loci.traces().add(NS, traces.content(i), List.of("bench"));
                }
              }));
    }
    BenchPathways pathways = new BenchPathways(42);
    if (kinds.contains("pathway")) {
      results.add(
          measure(
              workDir,
              "pathway trace (`loci bench pathway` drafts)",
              records,
              log,
              (loci, n) -> {
                PathwayMemory memory = PathwayMemory.of(loci);
                for (int i = 0; i < n; i++) {
                  memory.insert(NS, pathways.draft(i));
                }
              }));
    }
    if (kinds.contains("node")) {
      RecallBenchmark.Corpus corpus = new RecallBenchmark.Corpus(records, 0, 42);
      results.add(
          measure(
              workDir,
              "memory-graph node (with its edges and vector)",
              records,
              log,
              (loci, n) -> {
                RecallMemory recall =
                    RecallMemory.of(loci, new RecallBenchmark.Precomputed(corpus.byText));
                RecallBenchmark.BenchPack pack = new RecallBenchmark.BenchPack(corpus, 42);
                for (int from = 0; from < n; from += RecallBenchmark.PART) {
                  int to = Math.min(n, from + RecallBenchmark.PART);
                  recall.ingest(
                      NS,
                      pack,
                      new SourceDocument("bench/part-" + from, from + "," + to),
                      RecallMemory.Progress.NONE);
                  recall.embed(NS, RecallMemory.Progress.NONE);
                }
              }));
    }
    return new Report(machine, records, results);
  }

  private static Result measure(Path workDir, String kind, int n, PrintStream log, Fill fill) {
    try (ScratchDir scratch = ScratchDir.create(workDir, "heap-");
        Loci loci =
            Loci.builder()
                .dataDir(scratch.path())
                .durability(Durability.none())
                .snapshotAfter(0)
                .open()) {
      long empty = ThroughputRun.heapInUse();
      long start = System.nanoTime();
      fill.fill(loci, n);
      long full = ThroughputRun.heapInUse();
      Result r = new Result(kind, n, Math.max(0, full - empty));
      log.printf(
          Locale.ROOT,
          "heap: %s: %s for %,d (%,d B each), filled in %.1f s%n",
          kind,
          Format.mib(r.heapBytes()),
          n,
          r.bytesPerRecord(),
          (System.nanoTime() - start) / 1e9);
      return r;
    }
  }
}
