package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.pathway.PathwayImportReport;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.PathwayStats;
import dev.loci.pathway.PathwayTrace;
import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;

/**
 * The pathway memory benchmark ({@code loci bench pathway}): durable insert rate, {@code
 * query_for_hotswap} and {@code query_by_vec} latency at each store size, against a plain exact
 * scan over the same head traces measured in the same run, with every Loci answer checked against
 * the scan's.
 *
 * <p>Run from the repository root (a million traces need a large heap):
 *
 * <pre>
 * LOCI_JAVA_OPTS=-Xmx8g ./loci bench pathway --work-dir target/bench-work --out target/pathway.json
 * </pre>
 *
 * <p>Design. Each size gets a fresh store under durability {@code always} (the default). Durable
 * single inserts of a million traces would take minutes, so the population is built in two parts:
 * first all but the measured inserts are imported with {@code importRustState} from generated Rust
 * {@code state.json} streams of {@value #IMPORT_CALL} traces (Loci stores each in batches of 1,000,
 * one fsync per batch), then for each writer count {@code insertsAt(size)} single {@code insert}s
 * are timed, in order, into the store as it has grown: the insert rate is measured at the store's
 * size, not on an empty one. Drafts are built before the clock starts. Every trace stored is also
 * added to the {@link ScanPeer}. Queries run on one thread, Loci's all first, then the scan's, each
 * after a few unmeasured ones, and each query is timed alone. A Loci answer that differs from the
 * exact scan's fails the run: for {@code query_for_hotswap} the uids must be the same in the same
 * order; for {@code query_by_vec} each position must hold a trace whose exact cosine equals the
 * scan's at that position within {@value #SCORE_TOLERANCE} (Loci scores unit vectors in {@code
 * float}, the scan in {@code double}), with no trace twice, so the only freedom is the order among
 * equal scores. Before the first size, a store of {@code jitWarmupTraces} under durability {@code
 * none} runs every step once, unmeasured, so the JIT has compiled both sides.
 */
public final class PathwayBenchmark {
  /** Traces per generated {@code state.json}, that is per {@code importRustState} call. */
  public static final int IMPORT_CALL = 10_000;

  /** How far a Loci score may be from the exact cosine and still count as equal. */
  public static final double SCORE_TOLERANCE = 1e-5;

  /** Unmeasured queries run on each side before the measured ones, per size. */
  static final int QUERY_WARMUP = 20;

  /** Drafts numbered from here are never stored: fresh queries. */
  static final long FRESH = 1L << 40;

  private PathwayBenchmark() {}

  /**
   * What to run. Immutable; start from {@link #defaults()} and change fields with the withers.
   *
   * @param workDir where the stores are created (and deleted); put it on the disk you want measured
   * @param sizes the store sizes to measure at, in traces, in order; each at least 100
   * @param writerCounts the concurrent writer counts to measure inserts at, in order
   * @param inserts measured inserts per writer count; capped per size by {@link #insertsAt(int)}
   * @param queries measured {@code query_by_vec} queries per side, by position in {@code sizes}
   *     (the last one also for any later size; extra ones unused); {@code query_for_hotswap} runs
   *     twice as many
   * @param seed the seed of the synthetic traces and of the query choice
   * @param jitWarmupTraces the size of the unmeasured warm-up store; 0 skips the warm-up
   */
  public record Options(
      Path workDir,
      List<Integer> sizes,
      List<Integer> writerCounts,
      int inserts,
      List<Integer> queries,
      long seed,
      int jitWarmupTraces) {
    /** Checks every field and copies the lists. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      sizes = counts(sizes, "sizes", "size", 100, Integer.MAX_VALUE);
      writerCounts = counts(writerCounts, "writerCounts", "writer count", 1, 1024);
      queries = counts(queries, "queries", "query count", 1, 100_000_000);
      if (inserts < 1) {
        throw new IllegalArgumentException("inserts must be at least 1, found " + inserts);
      }
      if (jitWarmupTraces != 0 && jitWarmupTraces < 100) {
        throw new IllegalArgumentException(
            "jitWarmupTraces must be 0 or at least 100, found " + jitWarmupTraces);
      }
    }

    private static List<Integer> counts(
        List<Integer> values, String field, String each, int min, int max) {
      List<Integer> copy = List.copyOf(Objects.requireNonNull(values, field));
      if (copy.isEmpty()) {
        throw new IllegalArgumentException(field + " must name at least one " + each);
      }
      for (int n : copy) {
        if (n < min || n > max) {
          throw new IllegalArgumentException(
              "each "
                  + each
                  + " must be "
                  + (max == Integer.MAX_VALUE
                      ? "at least " + min
                      : "between " + min + " and " + Format.count(max))
                  + ", found "
                  + n);
        }
      }
      return copy;
    }

    /**
     * The settings: work directory {@code ./loci-bench-work}, sizes 10,000 and 1,000,000, 1
     * and 8 writers, 10,000 measured inserts each, 2,000 hot-swap and 1,000 vector queries, seed
     * 42, a warm-up store of 20,000 traces.
     */
    public static Options defaults() {
      return new Options(
          Path.of("loci-bench-work"),
          List.of(10_000, 1_000_000),
          List.of(1, 8),
          10_000,
          List.of(1_000, 500),
          42,
          20_000);
    }

    /** The measured {@code query_by_vec} queries at {@code sizes().get(index)}. */
    public int vecQueriesAt(int index) {
      return queries.get(Math.min(index, queries.size() - 1));
    }

    /** The measured {@code query_for_hotswap} queries at {@code sizes().get(index)}: twice. */
    public int hotswapQueriesAt(int index) {
      return 2 * vecQueriesAt(index);
    }

    /**
     * The inserts measured per writer count at {@code size}: {@link #inserts()}, but at most a
     * quarter of the size per writer count when there are two ({@code size / (2 * writer counts)}),
     * so at least half of every store is imported and half inserted at worst.
     */
    public int insertsAt(int size) {
      return Math.max(1, Math.min(inserts, size / (2 * writerCounts.size())));
    }

    /** These options with another work directory. */
    public Options withWorkDir(Path workDir) {
      return new Options(workDir, sizes, writerCounts, inserts, queries, seed, jitWarmupTraces);
    }

    /** These options with other sizes. */
    public Options withSizes(List<Integer> sizes) {
      return new Options(workDir, sizes, writerCounts, inserts, queries, seed, jitWarmupTraces);
    }

    /** These options with other writer counts. */
    public Options withWriterCounts(List<Integer> writerCounts) {
      return new Options(workDir, sizes, writerCounts, inserts, queries, seed, jitWarmupTraces);
    }

    /** These options with another number of measured inserts per writer count. */
    public Options withInserts(int inserts) {
      return new Options(workDir, sizes, writerCounts, inserts, queries, seed, jitWarmupTraces);
    }

    /** These options with other query counts, by position in {@link #sizes()}. */
    public Options withQueries(List<Integer> queries) {
      return new Options(workDir, sizes, writerCounts, inserts, queries, seed, jitWarmupTraces);
    }

    /** These options with another seed. */
    public Options withSeed(long seed) {
      return new Options(workDir, sizes, writerCounts, inserts, queries, seed, jitWarmupTraces);
    }

    /** These options with another warm-up store size; 0 skips the warm-up. */
    public Options withJitWarmupTraces(int jitWarmupTraces) {
      return new Options(workDir, sizes, writerCounts, inserts, queries, seed, jitWarmupTraces);
    }
  }

  /**
   * One kind of query at one size, Loci against the exact scan.
   *
   * @param k how many results each query asked for
   * @param loci Loci's latencies
   * @param scan the exact scan's latencies
   * @param sameOrder queries whose answers had the same uids in the same order on both sides
   * @param recall the mean share of Loci's top {@code k} that belongs in the exact top {@code k}
   *     (counting traces tied with the last one within {@link #SCORE_TOLERANCE}); 1.0 always, as a
   *     run whose answers differ fails
   * @param maxTieGap the largest difference of exact cosines between Loci's trace and the scan's at
   *     a position where they differ (0 if none does): how far apart the "equal" scores that were
   *     ordered differently really are
   */
  public record QueryResult(
      int k, Latency loci, Latency scan, int sameOrder, double recall, double maxTieGap) {
    /** Checks both figures are present. */
    public QueryResult {
      Objects.requireNonNull(loci, "loci");
      Objects.requireNonNull(scan, "scan");
    }

    /** The scan's median divided by Loci's: how many times faster Loci answers. */
    public double ratio() {
      return scan.p50Micros() / loci.p50Micros();
    }

    String toJson() {
      return "{\"k\": "
          + k
          + ", \"loci\": "
          + loci.toJson()
          + ", \"scan\": "
          + scan.toJson()
          + ", \"ratio_p50\": "
          + Format.number(ratio())
          + ", \"same_order_queries\": "
          + sameOrder
          + ", \"recall\": "
          + Format.number(recall)
          + ", \"max_tie_gap\": "
          + String.format(Locale.ROOT, "%.3e", maxTieGap)
          + "}";
    }
  }

  /**
   * Durable single inserts at one writer count.
   *
   * @param writers concurrent writer threads
   * @param storeTraces traces the store held when the first of these inserts started
   * @param throughput inserts acknowledged, the time they took and the process CPU they used
   */
  public record InsertResult(int writers, long storeTraces, Throughput throughput) {
    /** Checks the figure is present. */
    public InsertResult {
      Objects.requireNonNull(throughput, "throughput");
    }
  }

  /**
   * Every figure at one store size.
   *
   * @param traces traces in the store when queried, all head versions
   * @param pathways distinct pathways among them
   * @param imported traces imported before the measured inserts
   * @param importSeconds time the {@code importRustState} calls took (not the generation of their
   *     input)
   * @param journalBytes size of the journal segments when queried
   * @param inserts one result per writer count, in order
   * @param hotswap {@code query_for_hotswap}
   * @param byVec {@code query_by_vec}
   * @param lociHeapBytes heap Loci held for the open store: in use with the store open, less in use
   *     once it was closed, both after a full GC
   * @param scanHeapBytes heap the exact scan's list of traces held, measured the same way
   */
  public record SizeResult(
      int traces,
      long pathways,
      int imported,
      double importSeconds,
      long journalBytes,
      List<InsertResult> inserts,
      QueryResult hotswap,
      QueryResult byVec,
      long lociHeapBytes,
      long scanHeapBytes) {
    /** Checks every part is present and copies the list. */
    public SizeResult {
      inserts = List.copyOf(inserts);
      Objects.requireNonNull(hotswap, "hotswap");
      Objects.requireNonNull(byVec, "byVec");
    }
  }

  /**
   * Every figure of one run, with the machine and options it ran with.
   *
   * @param machine where it ran
   * @param options what it ran
   * @param sizes one result per size, in the order of {@link Options#sizes()}
   */
  public record Report(Machine machine, Options options, List<SizeResult> sizes) {
    /** Checks every part is present and copies the list. */
    public Report {
      Objects.requireNonNull(machine, "machine");
      Objects.requireNonNull(options, "options");
      sizes = List.copyOf(sizes);
    }

    /** The results as a Markdown section: machine, method, and one table over every size. */
    public String toMarkdown() {
      return PathwayReportFormat.markdown(this);
    }

    /** The results as JSON, for {@code --out}. */
    public String toJson() {
      return PathwayReportFormat.json(this);
    }
  }

  /**
   * Runs every size of {@code options} in turn, logging progress to {@code log}.
   *
   * <p>Creates {@link Options#workDir()} if missing; every store is made in a fresh subdirectory
   * and deleted afterwards, so the work directory is left as it was found.
   *
   * @throws IllegalStateException if a Loci answer differs from the exact scan's, a store does not
   *     hold what it acknowledged, or a writer failed; the message says which query or write
   * @throws UncheckedIOException if the work directory cannot be created or cleaned
   * @throws CancellationException if the calling thread is interrupted
   */
  public static Report run(Options options, PrintStream log) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(log, "log");
    Machine machine = Machine.start("pathway", options.workDir(), log);
    BenchPathways data = new BenchPathways(options.seed());
    if (options.jitWarmupTraces() > 0) {
      long t0 = System.nanoTime();
      measure(
          options,
          data,
          options.jitWarmupTraces(),
          Math.min(options.vecQueriesAt(0), 200),
          Durability.always(),
          new PrintStream(OutputStream.nullOutputStream()));
      log.printf(
          Locale.ROOT,
          "JIT warm-up: a store of %,d traces, every step once, in %.2f s (not measured)%n",
          options.jitWarmupTraces(),
          (System.nanoTime() - t0) / 1e9);
    }
    List<SizeResult> results = new ArrayList<>();
    for (int i = 0; i < options.sizes().size(); i++) {
      int size = options.sizes().get(i);
      results.add(measure(options, data, size, options.vecQueriesAt(i), Durability.always(), log));
    }
    return new Report(machine, options, results);
  }

  /** What a size measured with the store open, and the heap in use just before closing it. */
  private record Measured(
      long pathways,
      int imported,
      double importSeconds,
      long journalBytes,
      List<InsertResult> inserts,
      QueryResult hotswap,
      QueryResult byVec,
      long heapWithStore) {}

  private static SizeResult measure(
      Options options,
      BenchPathways data,
      int size,
      int vecQueries,
      Durability durability,
      PrintStream log) {
    ScanPeer peer = new ScanPeer(size);
    long empty = ThroughputRun.heapInUse();
    Measured m = measureLoci(options, data, size, vecQueries, durability, peer, log);
    long scanOnly = ThroughputRun.heapInUse();
    if (peer.size() != size) {
      throw new IllegalStateException("the exact scan holds " + peer.size() + " of " + size);
    }
    SizeResult r =
        new SizeResult(
            size,
            m.pathways(),
            m.imported(),
            m.importSeconds(),
            m.journalBytes(),
            m.inserts(),
            m.hotswap(),
            m.byVec(),
            Math.max(0, m.heapWithStore() - scanOnly),
            Math.max(0, scanOnly - empty));
    log.printf(
        Locale.ROOT,
        "%,d traces: heap %s for Loci, %s for the exact scan's list%n",
        size,
        Format.mib(r.lociHeapBytes()),
        Format.mib(r.scanHeapBytes()));
    return r;
  }

  private static Measured measureLoci(
      Options options,
      BenchPathways data,
      int size,
      int vecQueries,
      Durability durability,
      ScanPeer peer,
      PrintStream log) {
    Namespace ns = Namespace.of(BenchPathways.NAMESPACE);
    NamespaceScope scope = NamespaceScope.exactly(ns);
    int perWriterCount = options.insertsAt(size);
    int imported = size - perWriterCount * options.writerCounts().size();
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "pathway-" + size + "-");
        Loci loci =
            Loci.builder().dataDir(scratch.path()).durability(durability).snapshotAfter(0).open()) {
      PathwayMemory memory = PathwayMemory.of(loci);
      double importSeconds = populate(memory, ns, data, imported, peer, log);
      List<InsertResult> inserts = new ArrayList<>();
      long next = imported;
      for (int writers : options.writerCounts()) {
        inserts.add(insert(memory, ns, data, next, perWriterCount, writers, peer, log));
        next += perWriterCount;
      }
      PathwayStats stats = memory.stats(scope);
      if (stats.traces() != size || stats.headTraces() != size) {
        throw new IllegalStateException(
            "acknowledged "
                + size
                + " traces but the store holds "
                + stats.traces()
                + " ("
                + stats.headTraces()
                + " heads)");
      }
      long journalBytes = ScratchDir.bytesUnder(scratch.path().resolve("journal"));
      PathwayQueries.Queries queries =
          new PathwayQueries.Queries(
              memory, scope, data, peer, new SplittableRandom(options.seed() ^ size), log, size);
      QueryResult hotswap = queries.hotswap(2 * vecQueries);
      QueryResult byVec = queries.byVec(vecQueries);
      long heap = ThroughputRun.heapInUse();
      return new Measured(
          stats.pathways(), imported, importSeconds, journalBytes, inserts, hotswap, byVec, heap);
    }
  }

  /** Imports stored traces 0 to {@code count} in calls of {@link #IMPORT_CALL}; returns seconds. */
  private static double populate(
      PathwayMemory memory,
      Namespace ns,
      BenchPathways data,
      int count,
      ScanPeer peer,
      PrintStream log) {
    long nanos = 0;
    long started = System.nanoTime();
    long logged = started;
    for (long from = 0; from < count; from += IMPORT_CALL) {
      long to = Math.min(count, from + IMPORT_CALL);
      byte[] state = data.stateJson(from, to, peer::add);
      long t0 = System.nanoTime();
      PathwayImportReport r = memory.importRustState(ns, new ByteArrayInputStream(state));
      long t1 = System.nanoTime();
      nanos += t1 - t0;
      if (r.imported() != to - from || r.skipped() != 0 || r.legacyAssigned() != 0) {
        throw new IllegalStateException(
            "importing traces " + from + " to " + to + " stored " + r + ", expected all of them");
      }
      if (t1 - logged > 10_000_000_000L || to == count) {
        logged = t1;
        log.printf(
            Locale.ROOT,
            "imported %,d of %,d traces: %s traces/s in importRustState, %.0f s in all%n",
            to,
            count,
            Format.rate(to / (nanos / 1e9)),
            (t1 - started) / 1e9);
      }
    }
    return count == 0 ? 0 : nanos / 1e9;
  }

  private static InsertResult insert(
      PathwayMemory memory,
      Namespace ns,
      BenchPathways data,
      long first,
      int count,
      int writers,
      ScanPeer peer,
      PrintStream log) {
    PathwayTrace.Builder[] drafts = new PathwayTrace.Builder[count];
    for (int i = 0; i < count; i++) {
      drafts[i] = data.draft(first + i);
    }
    PathwayTrace[] stored = new PathwayTrace[count];
    List<ThroughputRun.Writer> ws = new ArrayList<>(writers);
    for (int w = 0; w < writers; w++) {
      ws.add(i -> stored[(int) i] = memory.insert(ns, drafts[(int) i]).trace());
    }
    System.gc();
    long c0 = ThroughputRun.processCpuNanos();
    long t0 = System.nanoTime();
    ThroughputRun.runCount("pathway-insert-" + writers, ws, count);
    long t1 = System.nanoTime();
    long c1 = ThroughputRun.processCpuNanos();
    for (PathwayTrace t : stored) {
      peer.add(t);
    }
    Throughput tp = new Throughput(count, (t1 - t0) / 1e9, c0 < 0 || c1 < 0 ? -1 : (c1 - c0) / 1e9);
    log.printf(
        Locale.ROOT,
        "insert always, %d %s into a store of %,d: %s inserts/s (%s)%n",
        writers,
        writers == 1 ? "writer" : "writers",
        first,
        Format.rate(tp.perSecond()),
        tp.detail());
    return new InsertResult(writers, first, tp);
  }

  static String micros(double us) {
    return us >= 100 ? Format.rate(us) + " us" : Format.fixed(us, 1) + " us";
  }
}
