package dev.loci.bench;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.GraphStats;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.MemoryPalace;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * {@code loci bench recall}: recall latency per mode at each corpus size, against peers measured in
 * the same run over the same corpus: a bare Lucene {@link IndexWriter}/{@link IndexSearcher} BM25
 * index of the same text (for {@code lexical}) and an exact scan of the same vectors (for {@code
 * embedding}).
 *
 * <p>The corpus is synthetic: node {@code i} holds 12-24 words drawn with a skew from a vocabulary
 * of 5,000, sections of 20 nodes chained by {@code next_unit}, and two {@code references} edges per
 * node to random nodes of the same part. Vectors come from the hashing provider (384 dimensions),
 * computed before the run and served by a lookup, so the figures are the engine's, not the model's;
 * the time to embed a query with the hashing provider is reported on its own. Ingest is durable
 * ({@code always}) through {@link RecallMemory#ingest} and {@link RecallMemory#embed}, 10,000 nodes
 * per document. After ingest the store is closed and reopened, to show the persisted indexes are
 * reused. Queries are 3-6 words of the vocabulary; each is timed alone, after every mode and peer
 * ran the warm-up queries. The palace's costs (lifecycle-aware and {@code reinforce=true} {@code
 * hybrid} against plain {@code hybrid}, sweep rates) are measured last over the same store; see
 * {@link PalaceCost}.
 *
 * <p>Run: {@code loci bench recall --nodes 10000,100000} (set {@code LOCI_JAVA_OPTS=-Xmx4g} for
 * 100,000 nodes and more).
 */
public final class RecallBenchmark {
  /** How many nodes one ingested document holds. */
  static final int PART = 10_000;

  static final int K = 10;
  static final Namespace NS = Namespace.of("bench.recall");
  private static final int VOCABULARY = 5_000;

  private RecallBenchmark() {}

  /**
   * What to run.
   *
   * @param workDir where the stores are made
   * @param sizes corpus sizes in nodes, each at least 100
   * @param queries timed queries per mode and size
   * @param warmup untimed queries per mode before timing
   * @param seed the corpus and query seed
   * @param vectors model vectors in place of the hashing ones, if any
   */
  public record Options(
      Path workDir,
      List<Integer> sizes,
      int queries,
      int warmup,
      long seed,
      Optional<ModelVectors> vectors) {
    /** Checks the values. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      Objects.requireNonNull(vectors, "vectors");
      sizes = List.copyOf(sizes);
      if (sizes.isEmpty()) {
        throw new IllegalArgumentException("sizes must name at least one size");
      }
      for (int n : sizes) {
        if (n < 100) {
          throw new IllegalArgumentException("each size must be at least 100 nodes, found " + n);
        }
      }
      if (queries < 1) {
        throw new IllegalArgumentException("queries must be at least 1, found " + queries);
      }
      if (warmup < 0) {
        throw new IllegalArgumentException("warmup must be 0 or more, found " + warmup);
      }
    }

    /** 10,000 and 100,000 nodes, 200 queries per mode after 50 warm-up queries. */
    public static Options defaults() {
      return new Options(
          Path.of("loci-bench-work"), List.of(10_000, 100_000), 200, 50, 42, Optional.empty());
    }

    /** With another work directory. */
    public Options withWorkDir(Path dir) {
      return new Options(dir, sizes, queries, warmup, seed, vectors);
    }

    /** With other sizes. */
    public Options withSizes(List<Integer> s) {
      return new Options(workDir, s, queries, warmup, seed, vectors);
    }

    /** With another query count. */
    public Options withQueries(int q) {
      return new Options(workDir, sizes, q, warmup, seed, vectors);
    }

    /** With model vectors in place of the hashing ones. */
    public Options withVectors(ModelVectors v) {
      return new Options(workDir, sizes, queries, warmup, seed, Optional.of(v));
    }

    /** With another warm-up count. */
    public Options withWarmup(int w) {
      return new Options(workDir, sizes, queries, w, seed, vectors);
    }
  }

  /**
   * One size's figures.
   *
   * @param nodes corpus size
   * @param edges edges ingested
   * @param ingestSeconds wall time of the durable ingest (indexing and vectors included)
   * @param reopenSeconds wall time to reopen the store after a clean close, replaying the journal
   *     into the graph (no snapshot)
   * @param snapshotSeconds wall time to write a snapshot of the store
   * @param reopenSnapshotSeconds wall time to reopen the store from that snapshot
   * @param modes Loci's latency per recall mode
   * @param lucene the bare Lucene BM25 peer's latency
   * @param scan the exact vector scan peer's latency
   * @param queryEmbedding the hashing provider's time to embed one query
   * @param embeddingRecall the share of the exact scan's top 10 that Loci's {@code embedding} mode
   *     also returned (below 1 only where HNSW approximates)
   * @param palace lifecycle-aware and reinforcing {@code hybrid} against plain, and sweep rates
   */
  public record SizeResult(
      int nodes,
      int edges,
      double ingestSeconds,
      double reopenSeconds,
      double snapshotSeconds,
      double reopenSnapshotSeconds,
      Map<RecallMode, Latency> modes,
      Latency lucene,
      Latency scan,
      Latency queryEmbedding,
      double embeddingRecall,
      PalaceCost.Result palace) {}

  /** A run's figures. */
  public record Report(
      Options options, Machine machine, List<SizeResult> sizes, String queryModel) {
    /** A report whose queries were embedded by the hashing provider. */
    public Report(Options options, Machine machine, List<SizeResult> sizes) {
      this(options, machine, sizes, "hashing");
    }

    /** A Markdown table per size with ratios against the peers. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder();
      b.append(machine.toMarkdown());
      options.vectors().ifPresent(v -> b.append("Vectors: ").append(v).append(".\n\n"));
      b.append("| nodes | what | figure | notes |\n|---|---|---|---|\n");
      for (SizeResult s : sizes) {
        String n = Format.count(s.nodes());
        Format.row(
            b,
            n,
            "ingest (`always`)",
            Format.rate(s.nodes() / s.ingestSeconds()) + " nodes/s",
            Format.count(s.edges()) + " edges too; " + Format.fixed(s.ingestSeconds(), 1) + " s");
        Format.row(
            b,
            n,
            "reopen, journal replay",
            Format.fixed(s.reopenSeconds(), 2) + " s",
            "no snapshot; persisted indexes reused, not rebuilt");
        Format.row(
            b,
            n,
            "reopen from a snapshot",
            Format.fixed(s.reopenSnapshotSeconds(), 2) + " s",
            "snapshot written in "
                + Format.fixed(s.snapshotSeconds(), 2)
                + " s; replay / snapshot "
                + Format.fixed(s.reopenSeconds() / s.reopenSnapshotSeconds(), 2)
                + "x");
        for (Map.Entry<RecallMode, Latency> e : s.modes().entrySet()) {
          String note = "";
          if (e.getKey() == RecallMode.LEXICAL) {
            note = "Loci / bare Lucene: p50 " + ratio(e.getValue(), s.lucene());
          } else if (e.getKey() == RecallMode.EMBEDDING) {
            note =
                "Loci / exact scan: p50 "
                    + ratio(e.getValue(), s.scan())
                    + "; recall@10 "
                    + Format.fixed(s.embeddingRecall(), 3);
          }
          Format.row(
              b,
              n,
              "`" + e.getKey().name().toLowerCase(java.util.Locale.ROOT) + "`",
              e.getValue().detail(),
              note);
        }
        Format.row(b, n, "bare Lucene BM25", s.lucene().detail(), "peer");
        Format.row(b, n, "exact vector scan", s.scan().detail(), "peer");
        Format.row(
            b,
            n,
            "query embedding (" + queryModel + ")",
            s.queryEmbedding().detail(),
            queryModel.equals("hashing")
                ? "not in the above"
                : "also inside every mode above but lexical (their queries ran it)");
        s.palace().rows(b, n);
      }
      b.append('\n');
      return b.toString();
    }

    private static String ratio(Latency loci, Latency peer) {
      return Format.fixed(loci.p50Micros() / peer.p50Micros(), 2)
          + "x, p99 "
          + Format.fixed(loci.p99Micros() / peer.p99Micros(), 2)
          + "x";
    }

    /** The report as one JSON object. */
    public String toJson() {
      StringBuilder b = new StringBuilder("{\"benchmark\": \"recall\", \"machine\": ");
      b.append(machine.toJson()).append(", \"queries\": ").append(options.queries());
      b.append(", \"sizes\": [");
      for (int i = 0; i < sizes.size(); i++) {
        SizeResult s = sizes.get(i);
        b.append(i == 0 ? "" : ", ").append("{\"nodes\": ").append(s.nodes());
        b.append(", \"edges\": ").append(s.edges());
        b.append(", \"ingest_seconds\": ").append(Format.number(s.ingestSeconds()));
        b.append(", \"reopen_seconds\": ").append(Format.number(s.reopenSeconds()));
        b.append(", \"snapshot_seconds\": ").append(Format.number(s.snapshotSeconds()));
        b.append(", \"reopen_snapshot_seconds\": ")
            .append(Format.number(s.reopenSnapshotSeconds()));
        b.append(", \"modes\": {");
        int j = 0;
        for (Map.Entry<RecallMode, Latency> e : s.modes().entrySet()) {
          b.append(j++ == 0 ? "" : ", ")
              .append(Format.quote(e.getKey().name().toLowerCase(java.util.Locale.ROOT)))
              .append(": ")
              .append(e.getValue().toJson());
        }
        b.append("}, \"lucene_bm25\": ").append(s.lucene().toJson());
        b.append(", \"exact_scan\": ").append(s.scan().toJson());
        b.append(", \"query_embedding\": ").append(s.queryEmbedding().toJson());
        b.append(", \"embedding_recall_at_10\": ").append(Format.number(s.embeddingRecall()));
        b.append(", \"palace\": ").append(s.palace().toJson());
        b.append('}');
      }
      return b.append("]}\n").toString();
    }
  }

  /** Runs every size in turn, logging progress to {@code log}. */
  public static Report run(Options options, PrintStream log) {
    return run(options, log, Optional.empty());
  }

  /**
   * Runs every size in turn as {@link #run(Options, PrintStream)} does; with {@code queryModel},
   * every recall also embeds its question with that model (the vector found is still the
   * precomputed one, so rankings do not change), so the modes' latencies include a real model's
   * query embedding, and the query embedding row times that model.
   */
  public static Report run(
      Options options, PrintStream log, Optional<EmbeddingProvider> queryModel) {
    Machine machine = Machine.start("recall", options.workDir(), log);
    List<SizeResult> out = new ArrayList<>();
    for (int n : options.sizes()) {
      out.add(runSize(options, n, log, queryModel));
    }
    return new Report(
        options, machine, out, queryModel.map(EmbeddingProvider::modelId).orElse("hashing"));
  }

  /** The synthetic corpus of one size. */
  static final class Corpus {
    final String[] texts;
    final float[][] vectors;
    final List<String> queries;
    final Map<String, float[]> byText = new HashMap<>();
    final String[] words = new String[VOCABULARY];

    Corpus(int n, int queryCount, long seed) {
      this(n, queryCount, seed, true);
    }

    /** The corpus; without {@code embed} its vectors are not computed (the array stays empty). */
    Corpus(int n, int queryCount, long seed, boolean embed) {
      SplittableRandom r = new SplittableRandom(seed);
      for (int w = 0; w < VOCABULARY; w++) {
        words[w] = word(w);
      }
      texts = new String[n];
      for (int i = 0; i < n; i++) {
        texts[i] = sentence(r, 12 + r.nextInt(13));
      }
      queries = new ArrayList<>();
      for (int q = 0; q < queryCount; q++) {
        queries.add(sentence(r, 3 + r.nextInt(4)));
      }
      HashingEmbeddingProvider hashing = HashingEmbeddingProvider.create();
      vectors = new float[embed ? n : 0][];
      for (int i = 0; embed && i < n; i += 1000) {
        List<float[]> v =
            hashing.embedDocuments(Arrays.asList(texts).subList(i, Math.min(n, i + 1000)));
        for (int j = 0; j < v.size(); j++) {
          vectors[i + j] = v.get(j);
          byText.put(texts[i + j], v.get(j));
        }
      }
      for (String q : embed ? queries : List.<String>of()) {
        byText.put(q, hashing.embedQuery(q));
      }
    }

    /** A pronounceable word for rank {@code w}. */
    private static String word(int w) {
      String[] syllables = {"ka", "lo", "mi", "ru", "te", "sa", "no", "vi", "de", "po", "zu", "he"};
      StringBuilder b = new StringBuilder();
      int x = w + 12;
      while (x > 0) {
        b.append(syllables[x % syllables.length]);
        x /= syllables.length;
      }
      return b.toString();
    }

    private String sentence(SplittableRandom r, int words) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < words; i++) {
        // skewed: the square of a uniform draw favours the low ranks
        double u = r.nextDouble();
        b.append(i == 0 ? "" : " ").append(this.words[(int) (u * u * VOCABULARY)]);
      }
      return b.toString();
    }
  }

  /**
   * Serves the precomputed vectors; computes any other text with the hashing provider. With a query
   * model, each query is also embedded by that model first, for its time only.
   */
  static final class Precomputed implements EmbeddingProvider {
    private final Map<String, float[]> byText;
    private final HashingEmbeddingProvider fallback = HashingEmbeddingProvider.create();
    private final Optional<EmbeddingProvider> queryModel;

    Precomputed(Map<String, float[]> byText) {
      this(byText, Optional.empty());
    }

    Precomputed(Map<String, float[]> byText, Optional<EmbeddingProvider> queryModel) {
      this.byText = byText;
      this.queryModel = queryModel;
    }

    @Override
    public float[] embedQuery(String text) {
      queryModel.ifPresent(m -> m.embedQuery(text));
      return embedDocuments(List.of(text)).get(0);
    }

    @Override
    public String modelId() {
      return "bench-precomputed-" + fallback.modelId();
    }

    @Override
    public int dimension() {
      return fallback.dimension();
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
      List<float[]> out = new ArrayList<>(texts.size());
      for (String t : texts) {
        float[] v = byText.get(t);
        out.add(v != null ? v : fallback.embedQuery(t));
      }
      return out;
    }
  }

  /** Makes the graph of one part of the corpus. */
  static final class BenchPack implements DomainPack {
    private final Corpus corpus;
    private final long seed;

    BenchPack(Corpus corpus, long seed) {
      this.corpus = corpus;
      this.seed = seed;
    }

    @Override
    public String name() {
      return "bench";
    }

    @Override
    public ScoreWeights weights() {
      return ScoreWeights.DEFAULT;
    }

    /** The document's text is {@code from,to}: the node numbers of the part. */
    @Override
    public Ingestion read(SourceDocument document) {
      String[] range = document.text().split(",");
      int from = Integer.parseInt(range[0]);
      int to = Integer.parseInt(range[1]);
      SplittableRandom r = new SplittableRandom(seed ^ from);
      List<MemoryNode> nodes = new ArrayList<>(to - from);
      List<MemoryEdge> edges = new ArrayList<>();
      for (int i = from; i < to; i++) {
        nodes.add(
            MemoryNode.builder("n" + i, "unit", corpus.texts[i])
                .importance(r.nextDouble())
                .risk(r.nextDouble() * 0.2)
                .build());
      }
      Set<String> keys = new HashSet<>();
      for (int i = from; i < to; i++) {
        if ((i + 1) % 20 != 0 && i + 1 < to) {
          add(edges, keys, MemoryEdge.of("n" + i, "n" + (i + 1), "next_unit", 0.8));
        }
        for (int e = 0; e < 2; e++) {
          int j = from + r.nextInt(to - from);
          if (j != i) {
            add(edges, keys, MemoryEdge.of("n" + i, "n" + j, "references", 0.6));
          }
        }
      }
      return new Ingestion(List.of(new Ingestion.Graph(Optional.empty(), nodes, edges)), List.of());
    }

    private static void add(List<MemoryEdge> edges, Set<String> keys, MemoryEdge e) {
      if (keys.add(e.key().toString())) {
        edges.add(e);
      }
    }
  }

  private static SizeResult runSize(
      Options options, int n, PrintStream log, Optional<EmbeddingProvider> queryModel) {
    log.println("recall: corpus of " + Format.count(n) + " nodes");
    Corpus corpus = new Corpus(n, options.queries() + options.warmup(), options.seed());
    options.vectors().ifPresent(v -> v.apply(corpus));
    Precomputed provider = new Precomputed(corpus.byText, queryModel);
    try (ScratchDir scratch = ScratchDir.create(options.workDir(), "recall-")) {
      Path data = scratch.path().resolve("loci");
      int edges = 0;
      long start = System.nanoTime();
      try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
        RecallMemory recall = RecallMemory.of(loci, provider);
        BenchPack pack = new BenchPack(corpus, options.seed());
        for (int from = 0; from < n; from += PART) {
          int to = Math.min(n, from + PART);
          edges +=
              recall
                  .ingest(
                      NS,
                      pack,
                      new SourceDocument("bench/part-" + from, from + "," + to),
                      RecallMemory.Progress.NONE)
                  .edges();
          // as `loci ingest` does: the vectors (and the HNSW graph) are part of the ingest
          recall.embed(NS, RecallMemory.Progress.NONE);
          log.println("recall: ingested " + Format.count(to) + " nodes");
        }
      }
      double ingestSeconds = (System.nanoTime() - start) / 1e9;
      GraphStats ingested;
      double reopenSeconds;
      start = System.nanoTime();
      BenchClock clock = new BenchClock(Instant.now());
      try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).clock(clock).open()) {
        RecallMemory recall = RecallMemory.of(loci, provider);
        reopenSeconds = (System.nanoTime() - start) / 1e9;
        log.println("recall: reopened in " + Format.fixed(reopenSeconds, 2) + " s");
        ingested = recall.stats(NS);
      }
      double[] seconds = snapshotThenReopen(data, provider, ingested, log);
      // the measured store runs on the bench clock: the palace's second sweep moves it 200 days
      try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).clock(clock).open()) {
        RecallMemory recall = RecallMemory.of(loci, provider);
        Map<RecallMode, Latency> modes = new EnumMap<>(RecallMode.class);
        Map<String, List<String>> embeddingTop = new HashMap<>();
        // every mode warms up before any is timed, so the first one timed does not pay for the JIT
        for (RecallMode mode : RecallMode.values()) {
          for (String q : corpus.queries.subList(0, options.warmup())) {
            recall(recall, q, mode);
          }
        }
        for (RecallMode mode : RecallMode.values()) {
          long[] nanos = time(options, corpus.queries, q -> recall(recall, q, mode));
          modes.put(mode, Latency.of(nanos));
          log.println("recall: " + mode + " " + modes.get(mode).detail());
        }
        for (String q : corpus.queries.subList(options.warmup(), corpus.queries.size())) {
          embeddingTop.put(
              q,
              recall(recall, q, RecallMode.EMBEDDING).items().stream()
                  .map(i -> i.node().id())
                  .toList());
        }
        PalaceCost.Result palace =
            PalaceCost.measure(
                recall,
                MemoryPalace.of(loci, recall),
                clock,
                NS,
                corpus.queries,
                options.warmup(),
                K,
                log);
        try (LucenePeer lucene = new LucenePeer(scratch.path().resolve("lucene"), corpus.texts)) {
          Latency luceneLatency = Latency.of(time(options, corpus.queries, lucene::search));
          Map<String, List<String>> scanTop = new HashMap<>();
          Latency scanLatency =
              Latency.of(
                  time(
                      options,
                      corpus.queries,
                      q -> scanTop.put(q, scan(corpus.vectors, corpus.byText.get(q)))));
          EmbeddingProvider queries = queryModel.orElse(HashingEmbeddingProvider.create());
          Latency embed = Latency.of(time(options, corpus.queries, queries::embedQuery));
          double found = 0;
          double wanted = 0;
          for (Map.Entry<String, List<String>> e : embeddingTop.entrySet()) {
            List<String> exact = scanTop.get(e.getKey());
            wanted += exact.size();
            found += exact.stream().filter(e.getValue()::contains).count();
          }
          return new SizeResult(
              n,
              edges,
              ingestSeconds,
              reopenSeconds,
              seconds[0],
              seconds[1],
              modes,
              luceneLatency,
              scanLatency,
              embed,
              wanted == 0 ? 1 : found / wanted,
              palace);
        }
      }
    }
  }

  /**
   * Writes a snapshot of the store, then reopens it from that snapshot; returns both wall times in
   * seconds. The reopened graph must hold what the replayed one held.
   */
  private static double[] snapshotThenReopen(
      Path data, EmbeddingProvider provider, GraphStats expected, PrintStream log) {
    double snapshotSeconds;
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      long start = System.nanoTime();
      loci.snapshot();
      snapshotSeconds = (System.nanoTime() - start) / 1e9;
    }
    long start = System.nanoTime();
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      RecallMemory recall = RecallMemory.of(loci, provider);
      double reopenSeconds = (System.nanoTime() - start) / 1e9;
      GraphStats restored = recall.stats(NS);
      if (!restored.equals(expected)) {
        throw new IllegalStateException(
            "the graph reopened from a snapshot differs: " + restored + ", expected " + expected);
      }
      log.println(
          "recall: snapshot in "
              + Format.fixed(snapshotSeconds, 2)
              + " s, reopened from it in "
              + Format.fixed(reopenSeconds, 2)
              + " s");
      return new double[] {snapshotSeconds, reopenSeconds};
    }
  }

  private static RecallResult recall(RecallMemory recall, String q, RecallMode mode) {
    return recall.recall(NS, RecallQuery.builder(q, mode).k(K).build());
  }

  /** Times each query alone after the warm-up ones; returns the nanoseconds of the timed ones. */
  private static long[] time(
      Options options, List<String> queries, java.util.function.Consumer<String> run) {
    for (String q : queries.subList(0, options.warmup())) {
      run.accept(q);
    }
    List<String> timed = queries.subList(options.warmup(), queries.size());
    long[] nanos = new long[timed.size()];
    for (int i = 0; i < nanos.length; i++) {
      long t = System.nanoTime();
      run.accept(timed.get(i));
      nanos[i] = System.nanoTime() - t;
    }
    return nanos;
  }

  /** The ids of the {@code K} vectors with the highest positive dot product with {@code q}. */
  static List<String> scan(float[][] vectors, float[] q) {
    PriorityQueue<double[]> best = new PriorityQueue<>(Comparator.comparingDouble(a -> a[0]));
    for (int i = 0; i < vectors.length; i++) {
      float[] v = vectors[i];
      double s = 0;
      for (int d = 0; d < v.length; d++) {
        s += q[d] * v[d];
      }
      if (s > 0 && (best.size() < K || s > best.peek()[0])) {
        best.add(new double[] {s, i});
        if (best.size() > K) {
          best.poll();
        }
      }
    }
    List<double[]> sorted = new ArrayList<>(best);
    sorted.sort(Comparator.comparingDouble((double[] a) -> a[0]).reversed());
    return sorted.stream().map(a -> "n" + (int) a[1]).toList();
  }
}
