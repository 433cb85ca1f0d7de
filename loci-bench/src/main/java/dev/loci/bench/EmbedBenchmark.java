package dev.loci.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.loci.embed.onnx.Embeddings;
import dev.loci.embed.onnx.OnnxEmbeddingProvider;
import dev.loci.embed.onnx.OnnxModel;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

/**
 * Embedding throughput: texts per second (and per CPU second, which a loaded machine disturbs less)
 * for each in-process model at several batch sizes (batch 1 runs every text alone), against the
 * hashing provider as the baseline peer, the same texts read back from the on-disk vector cache,
 * and an ingest that embeds while it writes against one that writes, then embeds. Also each model's
 * load time.
 *
 * <p>The texts are made-up English sentences of 6 to 40 words from a fixed seed, about the length
 * of a contract clause or a dialogue turn. Every variant is loaded and warmed up (64 texts) first;
 * then the variants take turns, {@code rounds} times, each embedding every text once through {@link
 * EmbeddingProvider#embedDocuments} in one call (the provider splits it into its batches), so that
 * the load other processes put on the machine falls on all of them alike; a row reports the median
 * round.
 *
 * <p>Run: {@code ./loci bench embed --texts 1000 --models bge-small,bge-small-q --batches 16,32}
 */
public final class EmbedBenchmark {
  private EmbedBenchmark() {}

  /**
   * Below this many CPU seconds the process CPU clock (which may tick in 10 ms steps) says nothing;
   * such rows show no per-CPU rate.
   */
  static final double MEASURABLE_CPU = 0.05;

  /** The model of a name {@code --models} takes ({@code --embedding}'s names of one ONNX model). */
  static OnnxModel model(String name) {
    return Embeddings.model(name)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "models: expected names of one ONNX model among "
                        + Embeddings.names()
                        + ", found "
                        + name));
  }

  /**
   * What to measure.
   *
   * @param workDir where the cache file and the ingest stores are made
   * @param texts how many texts each variant embeds
   * @param models the models, by {@link #model} name; the first is the reference of the ratios and
   *     the model of the cache and ingest rows
   * @param batchSizes the ONNX batch sizes to measure
   * @param rounds how many times each variant embeds every text
   * @param ingestUnits clauses of the document the ingest rows ingest, 0 for no ingest rows
   * @param spinning whether each ONNX variant is also run with ONNX Runtime's workers spinning
   */
  public record Options(
      Path workDir,
      int texts,
      List<String> models,
      List<Integer> batchSizes,
      int rounds,
      int ingestUnits,
      boolean spinning) {
    /** Checks the values and copies the lists. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      if (texts < 1) {
        throw new IllegalArgumentException("texts must be at least 1, got " + texts);
      }
      models = List.copyOf(models);
      if (models.isEmpty()) {
        throw new IllegalArgumentException("models: expected at least one, found none");
      }
      models.forEach(EmbedBenchmark::model);
      batchSizes = List.copyOf(batchSizes);
      if (batchSizes.isEmpty() || batchSizes.stream().anyMatch(b -> b < 1)) {
        throw new IllegalArgumentException("batch sizes must be at least 1, got " + batchSizes);
      }
      if (rounds < 1) {
        throw new IllegalArgumentException("rounds must be at least 1, got " + rounds);
      }
      if (ingestUnits < 0) {
        throw new IllegalArgumentException("ingest units must be at least 0, got " + ingestUnits);
      }
    }
  }

  /**
   * One measured variant, its median round.
   *
   * @param name what ran
   * @param batchSize texts per model run, 0 where there is no model
   * @param texts texts embedded (or nodes ingested) per round
   * @param seconds wall time
   * @param cpuSeconds CPU time of the whole process meanwhile (ONNX Runtime's threads included)
   * @param loadAverage the system load average when the round ended
   */
  public record Row(
      String name,
      int batchSize,
      int texts,
      double seconds,
      double cpuSeconds,
      double loadAverage) {
    /** Texts per second. */
    public double rate() {
      return texts / seconds;
    }

    /** Texts per CPU second. */
    public double cpuRate() {
      return texts / cpuSeconds;
    }
  }

  /**
   * The result.
   *
   * @param machine where it ran
   * @param options what was asked
   * @param meanWords the mean words per text
   * @param loadSeconds how long loading each model took, by model id
   * @param rows the variants, the hashing peer first
   * @param ingest the ingest rows: writing then embedding, and embedding while writing
   */
  public record Report(
      Machine machine,
      Options options,
      double meanWords,
      Map<String, Double> loadSeconds,
      List<Row> rows,
      List<Row> ingest) {
    /** Copies the collections. */
    public Report {
      loadSeconds = new LinkedHashMap<>(loadSeconds);
      rows = List.copyOf(rows);
      ingest = List.copyOf(ingest);
    }

    private Row reference() {
      return rows.stream().filter(r -> r.batchSize() > 0).findFirst().orElseThrow();
    }

    /** A Markdown paragraph and tables with ratios to the first ONNX row. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder(machine.toMarkdown());
      b.append(Format.count(options.texts()))
          .append(" texts of ")
          .append(Format.fixed(meanWords, 1))
          .append(" words on average, median of ")
          .append(options.rounds())
          .append(" rounds taken in turn; loaded in");
      loadSeconds.forEach(
          (id, s) -> b.append(' ').append(id).append(' ').append(Format.fixed(s, 2)).append(" s,"));
      b.setLength(b.length() - 1);
      b.append(".\n\n");
      Row base = reference();
      String vs = "vs " + base.name() + " batch " + base.batchSize();
      Format.row(b, "provider", "batch", "texts/s", "texts/CPU s", vs, vs + " (CPU)", "load");
      Format.row(b, "---", "---:", "---:", "---:", "---:", "---:", "---:");
      for (Row r : rows) {
        Format.row(
            b,
            r.name(),
            r.batchSize() == 0 ? "-" : Integer.toString(r.batchSize()),
            Format.rate(r.rate()),
            r.cpuSeconds() < MEASURABLE_CPU ? "-" : Format.rate(r.cpuRate()),
            Format.fixed(r.rate() / base.rate(), 2) + "x",
            r.cpuSeconds() < MEASURABLE_CPU
                ? "-"
                : Format.fixed(r.cpuRate() / base.cpuRate(), 2) + "x",
            Format.fixed(r.loadAverage(), 1));
      }
      if (!ingest.isEmpty()) {
        Row first = ingest.get(0);
        b.append("\nIngest of one document of ")
            .append(Format.count(first.texts()))
            .append(" clauses (durable journal, ")
            .append(options.models().get(0))
            .append(", no cache):\n\n");
        Format.row(b, "ingest", "nodes/s", "seconds", "vs " + first.name(), "load");
        Format.row(b, "---", "---:", "---:", "---:", "---:");
        for (Row r : ingest) {
          Format.row(
              b,
              r.name(),
              Format.rate(r.rate()),
              Format.fixed(r.seconds(), 2),
              Format.fixed(first.seconds() / r.seconds(), 2) + "x",
              Format.fixed(r.loadAverage(), 1));
        }
      }
      return b.toString();
    }

    /** The whole report as JSON. */
    public String toJson() {
      StringBuilder b = new StringBuilder();
      b.append("{\n  \"benchmark\": \"embed\",\n  \"machine\": ").append(machine.toJson());
      b.append(",\n  \"texts\": ").append(options.texts());
      b.append(",\n  \"rounds\": ").append(options.rounds());
      b.append(",\n  \"mean_words\": ").append(Format.number(meanWords));
      b.append(",\n  \"load_seconds\": {");
      String sep = "";
      for (Map.Entry<String, Double> e : loadSeconds.entrySet()) {
        b.append(sep)
            .append(Format.quote(e.getKey()))
            .append(": ")
            .append(Format.number(e.getValue()));
        sep = ", ";
      }
      b.append("},\n  \"rows\": ");
      json(b, rows);
      b.append(",\n  \"ingest\": ");
      json(b, ingest);
      return b.append("\n}\n").toString();
    }

    private static void json(StringBuilder b, List<Row> rows) {
      b.append('[');
      for (int i = 0; i < rows.size(); i++) {
        Row r = rows.get(i);
        b.append(i == 0 ? "\n" : ",\n")
            .append("    {\"name\": ")
            .append(Format.quote(r.name()))
            .append(", \"batch_size\": ")
            .append(r.batchSize())
            .append(", \"texts\": ")
            .append(r.texts())
            .append(", \"seconds\": ")
            .append(Format.number(r.seconds()))
            .append(", \"cpu_seconds\": ")
            .append(Format.number(r.cpuSeconds()))
            .append(", \"texts_per_second\": ")
            .append(Format.number(r.rate()))
            .append(", \"texts_per_cpu_second\": ")
            .append(Format.number(r.cpuRate()))
            .append(", \"load_average\": ")
            .append(Format.number(r.loadAverage()))
            .append('}');
      }
      b.append(rows.isEmpty() ? "]" : "\n  ]");
    }
  }

  /** One variant: a name, a batch size and the provider. */
  private record Variant(String name, int batch, EmbeddingProvider provider) {}

  /** Runs the benchmark, logging progress to {@code log}. */
  public static Report run(Options options, PrintStream log) {
    Machine machine = Machine.start("embed", options.workDir(), log);
    List<String> texts = texts(options.texts(), 42);
    List<String> warmup = texts(64, 7);
    double words = texts.stream().mapToInt(t -> t.split(" ").length).average().orElse(0);
    List<Variant> variants = new ArrayList<>();
    variants.add(new Variant("hashing", 0, HashingEmbeddingProvider.create()));
    Map<String, Double> load = new LinkedHashMap<>();
    List<OnnxEmbeddingProvider> opened = new ArrayList<>();
    try {
      for (String name : options.models()) {
        OnnxModel model = model(name);
        for (int batch : options.batchSizes()) {
          for (boolean spin : options.spinning() ? List.of(false, true) : List.of(false)) {
            OnnxEmbeddingProvider onnx = OnnxEmbeddingProvider.create(model, batch, spin);
            opened.add(onnx);
            long start = System.nanoTime();
            onnx.load();
            double seconds = (System.nanoTime() - start) / 1e9;
            log.printf("%s loaded in %.2f s%n", model.id(), seconds);
            load.putIfAbsent(model.id(), seconds);
            variants.add(new Variant(spin ? name + " spinning" : name, batch, onnx));
          }
        }
        log.printf(
            "%s: lowest cosine between a text embedded in a batch of %d and alone: %.5f%n",
            model.id(), OnnxEmbeddingProvider.DEFAULT_BATCH_SIZE, batchAgreement(model, warmup));
      }
      variants.forEach(v -> v.provider().embedDocuments(warmup));
      Map<Variant, List<Row>> rounds = new LinkedHashMap<>();
      for (int round = 0; round < options.rounds(); round++) {
        for (Variant v : variants) {
          rounds
              .computeIfAbsent(v, k -> new ArrayList<>())
              .add(measure(v.name(), v.batch(), () -> check(v, texts), texts.size(), log));
        }
      }
      List<Row> rows = new ArrayList<>();
      rounds.values().forEach(r -> rows.add(median(r)));
      OnnxModel first = model(options.models().get(0));
      rows.add(fromCache(first, options.workDir(), texts, log));
      List<Row> ingest =
          options.ingestUnits() == 0
              ? List.of()
              : IngestOverlapBench.run(
                  first,
                  options.workDir(),
                  texts(options.ingestUnits(), 11),
                  options.rounds(),
                  log);
      return new Report(machine, options, words, load, rows, ingest);
    } finally {
      opened.forEach(OnnxEmbeddingProvider::close);
    }
  }

  private static void check(Variant v, List<String> texts) {
    List<float[]> out = v.provider().embedDocuments(texts);
    if (out.size() != texts.size()) {
      throw new IllegalStateException(v.name() + " returned " + out.size() + " vectors");
    }
  }

  /** The same texts read back from a reopened cache, every one a hit. */
  private static Row fromCache(OnnxModel model, Path workDir, List<String> texts, PrintStream log) {
    Path file = workDir.resolve("embed-bench-cache.bin");
    try {
      Files.deleteIfExists(file);
      try (OnnxEmbeddingProvider onnx = OnnxEmbeddingProvider.create(model, 16)) {
        try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(onnx, file)) {
          cache.embedDocuments(texts);
        }
        try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(onnx, file)) {
          Row row =
              measure(
                  model.id() + " from the cache",
                  0,
                  () -> cache.embedDocuments(texts),
                  texts.size(),
                  log);
          if (cache.misses() != 0) {
            throw new IllegalStateException("the cache missed " + cache.misses() + " texts");
          }
          return row;
        }
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lowest cosine between a text's vector in a default batch and alone (1 if batch-exact). */
  static double batchAgreement(OnnxModel model, List<String> texts) {
    try (OnnxEmbeddingProvider batched =
            OnnxEmbeddingProvider.create(model, OnnxEmbeddingProvider.DEFAULT_BATCH_SIZE);
        OnnxEmbeddingProvider alone = OnnxEmbeddingProvider.create(model, 1)) {
      List<float[]> a = batched.embedDocuments(texts);
      List<float[]> b = alone.embedDocuments(texts);
      double lowest = 1;
      for (int i = 0; i < texts.size(); i++) {
        double dot = 0;
        for (int d = 0; d < a.get(i).length; d++) {
          dot += a.get(i)[d] * b.get(i)[d];
        }
        lowest = Math.min(lowest, dot);
      }
      return lowest;
    }
  }

  /** Times {@code work}: wall time, the process's CPU time, and the load average after. */
  static Row measure(String name, int batch, Runnable work, int texts, PrintStream log) {
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu = os.getProcessCpuTime();
    long start = System.nanoTime();
    work.run();
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpuSeconds = Math.max(1e-9, (os.getProcessCpuTime() - cpu) / 1e9);
    Row row = new Row(name, batch, texts, seconds, cpuSeconds, os.getSystemLoadAverage());
    log.printf(
        "%s%s: %s texts/s, %s texts/CPU s, load %.1f%n",
        name,
        batch == 0 ? "" : " batch " + batch,
        Format.rate(row.rate()),
        Format.rate(row.cpuRate()),
        row.loadAverage());
    return row;
  }

  /** The round of median wall time (the lower middle one for an even count). */
  static Row median(List<Row> rounds) {
    Row[] sorted = rounds.toArray(Row[]::new);
    Arrays.sort(sorted, (a, b) -> Double.compare(a.seconds(), b.seconds()));
    return sorted[(sorted.length - 1) / 2];
  }

  private static final String[] WORDS = {
    "the",
    "supplier",
    "buyer",
    "shall",
    "deliver",
    "goods",
    "within",
    "days",
    "of",
    "order",
    "invoice",
    "payment",
    "late",
    "penalty",
    "clause",
    "notice",
    "terminate",
    "breach",
    "remedy",
    "warehouse",
    "inspection",
    "batch",
    "reject",
    "quality",
    "we",
    "went",
    "to",
    "a",
    "support",
    "group",
    "yesterday",
    "and",
    "it",
    "was",
    "really",
    "helpful",
    "my",
    "sister",
    "painted",
    "sunset",
    "lake",
    "camping",
    "trip",
    "restart",
    "payment",
    "adapter",
    "pods",
    "error",
    "rate",
    "rollback",
    "page",
    "on-call",
    "lead",
    "if",
    "fails",
    "escalate",
    "database",
    "replica",
    "lag",
    "after",
    "before",
    "because",
    "every",
    "week",
    "month",
    "new",
    "old",
    "team",
    "plan",
    "book"
  };

  /** {@code n} made-up sentences of 6 to 40 words from {@code seed}. */
  static List<String> texts(int n, long seed) {
    Random random = new Random(seed);
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int words = 6 + random.nextInt(35);
      StringBuilder b = new StringBuilder();
      for (int w = 0; w < words; w++) {
        b.append(w == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
      }
      out.add(b.append('.').toString());
    }
    return out;
  }
}
