package dev.loci.bench;

import dev.loci.embed.onnx.OnnxEmbeddingProvider;
import dev.loci.embed.onnx.OnnxModel;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.HashingEmbeddingProvider;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * Embedding throughput: texts per second for all-MiniLM-L6-v2 in process at several batch sizes
 * (batch 1 runs every text alone), against the hashing provider as the baseline peer, and the same
 * texts read back from the on-disk vector cache. Also the model's load time.
 *
 * <p>The texts are made-up English sentences of 6 to 40 words from a fixed seed, about the length
 * of a contract clause or a dialogue turn. Each variant embeds a warm-up of 64 texts first, then
 * every text once, through {@link EmbeddingProvider#embedDocuments} in one call (the provider
 * splits it into its batches).
 *
 * <p>Run: {@code ./loci bench embed --texts 1000 --batches 1,8,32,64 --out target/embed.json}
 */
public final class EmbedBenchmark {
  private EmbedBenchmark() {}

  /**
   * What to measure.
   *
   * @param workDir where the cache file is made (and whose file store is reported)
   * @param texts how many texts each variant embeds
   * @param batchSizes the ONNX batch sizes to measure
   */
  public record Options(Path workDir, int texts, List<Integer> batchSizes) {
    /** Checks the values and copies the list. */
    public Options {
      Objects.requireNonNull(workDir, "workDir");
      if (texts < 1) {
        throw new IllegalArgumentException("texts must be at least 1, got " + texts);
      }
      batchSizes = List.copyOf(batchSizes);
      if (batchSizes.isEmpty() || batchSizes.stream().anyMatch(b -> b < 1)) {
        throw new IllegalArgumentException("batch sizes must be at least 1, got " + batchSizes);
      }
    }
  }

  /**
   * One measured variant.
   *
   * @param name what ran
   * @param batchSize texts per model run, 0 where there is no model
   * @param texts texts embedded
   * @param seconds wall time
   */
  public record Row(String name, int batchSize, int texts, double seconds) {
    /** Texts per second. */
    public double rate() {
      return texts / seconds;
    }
  }

  /**
   * The result.
   *
   * @param machine where it ran
   * @param options what was asked
   * @param meanWords the mean words per text
   * @param loadSeconds how long loading the model took the first time in this process
   * @param rows the variants, the hashing peer first
   */
  public record Report(
      Machine machine, Options options, double meanWords, double loadSeconds, List<Row> rows) {
    /** Copies the list. */
    public Report {
      rows = List.copyOf(rows);
    }

    private Row onnxSingle() {
      return rows.stream()
          .filter(r -> r.batchSize() > 0)
          .min((a, b) -> Integer.compare(a.batchSize(), b.batchSize()))
          .orElseThrow();
    }

    /** A Markdown paragraph and table with ratios to the smallest ONNX batch size. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder(machine.toMarkdown());
      b.append(Format.count(options.texts()))
          .append(" texts of ")
          .append(Format.fixed(meanWords, 1))
          .append(" words on average; all-MiniLM-L6-v2 loaded in ")
          .append(Format.fixed(loadSeconds, 2))
          .append(" s.\n\n");
      Row base = onnxSingle();
      Format.row(b, "provider", "batch", "texts/s", "vs onnx batch " + base.batchSize());
      Format.row(b, "---", "---:", "---:", "---:");
      for (Row r : rows) {
        Format.row(
            b,
            r.name(),
            r.batchSize() == 0 ? "-" : Integer.toString(r.batchSize()),
            Format.rate(r.rate()),
            Format.fixed(r.rate() / base.rate(), 2) + "x");
      }
      return b.toString();
    }

    /** The whole report as JSON. */
    public String toJson() {
      StringBuilder b = new StringBuilder();
      b.append("{\n  \"benchmark\": \"embed\",\n  \"machine\": ").append(machine.toJson());
      b.append(",\n  \"texts\": ").append(options.texts());
      b.append(",\n  \"mean_words\": ").append(Format.number(meanWords));
      b.append(",\n  \"load_seconds\": ").append(Format.number(loadSeconds));
      b.append(",\n  \"rows\": [");
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
            .append(", \"texts_per_second\": ")
            .append(Format.number(r.rate()))
            .append('}');
      }
      return b.append("\n  ]\n}\n").toString();
    }
  }

  /** Runs the benchmark, logging progress to {@code log}. */
  public static Report run(Options options, PrintStream log) {
    Machine machine = Machine.start("embed", options.workDir(), log);
    List<String> texts = texts(options.texts(), 42);
    List<String> warmup = texts(64, 7);
    double words = texts.stream().mapToInt(t -> t.split(" ").length).average().orElse(0);
    List<Row> rows = new ArrayList<>();
    rows.add(measure("hashing", 0, HashingEmbeddingProvider.create(), warmup, texts, log));
    double load = 0;
    for (OnnxModel model : OnnxModel.all()) {
      String name = model == OnnxModel.MINILM ? "onnx" : model.id();
      for (int batch : options.batchSizes()) {
        try (OnnxEmbeddingProvider onnx = OnnxEmbeddingProvider.create(model, batch)) {
          long start = System.nanoTime();
          onnx.load();
          double seconds = (System.nanoTime() - start) / 1e9;
          log.printf("%s loaded in %.2f s%n", model.id(), seconds);
          load = load == 0 ? seconds : load;
          rows.add(measure(name, batch, onnx, warmup, texts, log));
        }
      }
      log.printf(
          "%s: lowest cosine between a text embedded in a batch of 32 and alone: %.5f%n",
          model.id(), batchAgreement(model, warmup));
    }
    Path file = options.workDir().resolve("embed-bench-cache.bin");
    try {
      Files.deleteIfExists(file);
      try (OnnxEmbeddingProvider onnx = OnnxEmbeddingProvider.create()) {
        try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(onnx, file)) {
          cache.embedDocuments(texts);
        }
        try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(onnx, file)) {
          rows.add(measure("onnx from the cache", 0, cache, List.of(), texts, log));
          if (cache.misses() != 0) {
            throw new IllegalStateException("the cache missed " + cache.misses() + " texts");
          }
        }
      }
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Report(machine, options, words, load, rows);
  }

  /** The lowest cosine between a text's vector in a batch of 32 and alone (1 if batch-exact). */
  static double batchAgreement(OnnxModel model, List<String> texts) {
    try (OnnxEmbeddingProvider batched = OnnxEmbeddingProvider.create(model, 32);
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

  private static Row measure(
      String name,
      int batch,
      EmbeddingProvider provider,
      List<String> warmup,
      List<String> texts,
      PrintStream log) {
    provider.embedDocuments(warmup);
    long start = System.nanoTime();
    List<float[]> out = provider.embedDocuments(texts);
    double seconds = (System.nanoTime() - start) / 1e9;
    if (out.size() != texts.size()) {
      throw new IllegalStateException(name + " returned " + out.size() + " vectors");
    }
    Row row = new Row(name, batch, texts.size(), seconds);
    log.printf(
        "%s%s: %s texts/s%n", name, batch == 0 ? "" : " batch " + batch, Format.rate(row.rate()));
    return row;
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
