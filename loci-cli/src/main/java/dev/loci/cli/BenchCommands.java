package dev.loci.cli;

import dev.loci.bench.ClusterBenchmark;
import dev.loci.bench.EmbedBenchmark;
import dev.loci.bench.GovernBenchmark;
import dev.loci.bench.HttpBenchmark;
import dev.loci.bench.JournalBenchmark;
import dev.loci.bench.ModelVectors;
import dev.loci.bench.PathwayBenchmark;
import dev.loci.bench.RecallBenchmark;
import dev.loci.bench.SubjectsBenchmark;
import dev.loci.embed.onnx.Embeddings;
import dev.loci.recall.CachingEmbeddingProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loci bench ...}: end-to-end benchmarks that run a peer in the same process. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Run a benchmark against a peer measured in the same run.",
    subcommands = {
      BenchCommands.Journal.class,
      BenchCommands.Http.class,
      BenchCommands.Pathway.class,
      BenchCommands.Embed.class,
      QualityBenchCommands.Locomo.class,
      QualityBenchCommands.Cases.class,
      BenchCommands.Recall.class,
      BenchCommands.Cluster.class,
      BenchCommands.Govern.class,
      BenchCommands.SubjectsBench.class,
      IsolationBench.class,
      HeapBench.class,
      ReopenBench.class,
      McpBenchCommand.class,
      HnswBenchCommand.class
    })
final class BenchCommands {
  private BenchCommands() {}

  @Command(
      name = "journal",
      mixinStandardHelpOptions = true,
      description = {
        "Durable appends per second for 1 and 8 writers under 'always' against SQLite (WAL,"
            + " synchronous=FULL, one transaction per record), and replay speed opening a"
            + " journal of N traces with and without a snapshot.",
        "Prints a Markdown table with the ratios on stdout and progress on stderr."
      })
  static final class Journal extends LociCommand {
    @Mixin Places places;

    @Option(
        names = "--writers",
        split = ",",
        paramLabel = "N",
        description = "Writer counts to measure. Default: 1,8.")
    List<Integer> writers = List.of(1, 8);

    @Option(names = "--warmup", paramLabel = "SECONDS", description = "Default: 2.")
    double warmup = 2;

    @Option(
        names = "--seconds",
        paramLabel = "SECONDS",
        description = "Per measurement. Default: 10.")
    double seconds = 10;

    @Option(names = "--replay-events", paramLabel = "N", description = "Default: 1000000.")
    int replayEvents = 1_000_000;

    @Override
    public Integer call() {
      JournalBenchmark.Options options =
          JournalBenchmark.Options.defaults()
              .withWorkDir(places.workDir)
              .withWriterCounts(writers)
              .withWarmup(Duration.ofMillis(Math.round(warmup * 1000)))
              .withMeasurement(Duration.ofMillis(Math.round(seconds * 1000)))
              .withReplayEvents(replayEvents);
      JournalBenchmark.Report report = JournalBenchmark.run(options, main().errStream());
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  @Command(
      name = "http",
      mixinStandardHelpOptions = true,
      description = {
        "Requests per second and p50/p99 latency of GET trace, POST trace (durability always) and"
            + " a tag search through the HTTP server on loopback, against the same calls on the"
            + " embedded Java API in the same run; then the web UI's pages (a trace, a search, the"
            + " namespace overview and tree) beside API routes in the same run.",
        "Prints a Markdown table with the ratios on stdout and progress on stderr."
      })
  static final class Http extends LociCommand {
    @Mixin Places places;

    @Option(names = "--clients", paramLabel = "N", description = "Concurrent clients. Default: 16.")
    int clients = 16;

    @Option(names = "--warmup", paramLabel = "SECONDS", description = "Default: 1.")
    double warmup = 1;

    @Option(
        names = "--seconds",
        paramLabel = "SECONDS",
        description = "Per measurement. Default: 5.")
    double seconds = 5;

    @Option(
        names = "--records",
        paramLabel = "N",
        description = "Traces added first. Default: 10000.")
    int records = 10_000;

    @Option(
        names = "--page-clients",
        paramLabel = "N",
        description = "Concurrent clients of the web UI's pages and their API peers. Default: 4.")
    int pageClients = 4;

    @Override
    public Integer call() {
      HttpBenchmark.Options options =
          new HttpBenchmark.Options(
              places.workDir,
              clients,
              Duration.ofMillis(Math.round(warmup * 1000)),
              Duration.ofMillis(Math.round(seconds * 1000)),
              records,
              pageClients);
      HttpBenchmark.Report report = HttpBenchmark.run(options, main().errStream());
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  @Command(
      name = "pathway",
      mixinStandardHelpOptions = true,
      description = {
        "Pathway memory at each store size: durable insert rate with 1 and 8 writers, and"
            + " query_for_hotswap and query_by_vec latency (p50, p99) against an exact scan over"
            + " the same traces, every answer checked against the scan's (the run fails if one"
            + " differs).",
        "A million traces need a large heap: LOCI_JAVA_OPTS=-Xmx8g.",
        "Prints a Markdown table with the ratios on stdout and progress on stderr."
      })
  static final class Pathway extends LociCommand {
    @Mixin Places places;

    @Option(
        names = "--sizes",
        split = ",",
        paramLabel = "N",
        description = "Store sizes in traces, each at least 100. Default: 10000,1000000.")
    List<Integer> sizes = List.of(10_000, 1_000_000);

    @Option(
        names = "--queries",
        split = ",",
        paramLabel = "N",
        description =
            "query_by_vec queries per side, one count per size in order (the last one also for"
                + " later sizes); query_for_hotswap runs twice as many. The exact scan takes"
                + " about a second per query at a million traces. Default: 1000,500.")
    List<Integer> queries = List.of(1_000, 500);

    @Option(
        names = "--inserts",
        paramLabel = "N",
        description =
            "Measured inserts per writer count, at most a quarter of the size. Default: 10000.")
    int inserts = 10_000;

    @Override
    public Integer call() {
      PathwayBenchmark.Options options =
          PathwayBenchmark.Options.defaults()
              .withWorkDir(places.workDir)
              .withSizes(sizes)
              .withQueries(queries)
              .withInserts(inserts);
      PathwayBenchmark.Report report = PathwayBenchmark.run(options, main().errStream());
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  @Command(
      name = "embed",
      mixinStandardHelpOptions = true,
      description = {
        "Texts per second and per CPU second for each in-process model at each batch size (1"
            + " runs every text alone) against the hashing provider, the variants taking turns;"
            + " the same texts read back from the on-disk vector cache; an ingest that embeds"
            + " while it writes against one that writes, then embeds; each model's load time.",
        "Prints a Markdown table with the ratios on stdout and progress on stderr."
      })
  static final class Embed extends LociCommand {
    @Mixin Places places;

    @Option(names = "--texts", paramLabel = "N", description = "Texts per variant. Default: 1000.")
    int texts = 1000;

    @Option(
        names = "--models",
        split = ",",
        paramLabel = "NAME",
        description =
            "Models, by --embedding name (bge-small, bge-small-q, onnx); the first is the"
                + " reference of the ratios and the model of the cache and ingest rows. Default:"
                + " bge-small-q,bge-small,onnx.")
    List<String> models = List.of("bge-small-q", "bge-small", "onnx");

    @Option(
        names = "--batches",
        split = ",",
        paramLabel = "N",
        description = "ONNX batch sizes. Default: 1,16,32.")
    List<Integer> batches = List.of(1, 16, 32);

    @Option(
        names = "--rounds",
        paramLabel = "N",
        description = "Times each variant embeds every text, in turn. Default: 3.")
    int rounds = 3;

    @Option(
        names = "--ingest",
        paramLabel = "N",
        description = "Clauses of the ingested document, 0 for no ingest rows. Default: 500.")
    int ingest = 500;

    @Option(
        names = "--spinning",
        description =
            "Also run each model and batch size with ONNX Runtime's workers spinning while they"
                + " wait (its own default; Loci's providers let them sleep).")
    boolean spinning;

    @Override
    public Integer call() {
      EmbedBenchmark.Report report =
          EmbedBenchmark.run(
              new EmbedBenchmark.Options(
                  places.workDir, texts, models, batches, rounds, ingest, spinning),
              main().errStream());
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  @Command(
      name = "recall",
      mixinStandardHelpOptions = true,
      description = {
        "Recall at each corpus size: durable ingest rate, reopen time, and p50/p99 latency of"
            + " every mode against a bare Lucene BM25 index and an exact vector scan over the same"
            + " synthetic corpus (hashing vectors, 384 dimensions, precomputed); query embedding"
            + " time reported on its own.",
        "100,000 nodes and more need a larger heap: LOCI_JAVA_OPTS=-Xmx4g.",
        "Prints a Markdown table with the ratios on stdout and progress on stderr."
      })
  static final class Recall extends LociCommand {
    @Mixin Places places;

    @Option(
        names = "--nodes",
        split = ",",
        paramLabel = "N",
        description = "Corpus sizes in nodes, each at least 100. Default: 10000,100000.")
    List<Integer> nodes = List.of(10_000, 100_000);

    @Option(
        names = "--queries",
        paramLabel = "N",
        description = "Timed queries per mode and size. Default: 200.")
    int queries = 200;

    @Option(
        names = "--warmup",
        paramLabel = "N",
        description = "Untimed queries per mode before timing. Default: 50.")
    int warmup = 50;

    @Option(
        names = "--query-embedding",
        paramLabel = "NAME",
        description =
            "Also embed every recall's question with this model (onnx, bge-small, bge-small-q,"
                + " bge-small-qd, bge-small-int8),"
                + " so the modes' latencies include a real model's query embedding; the corpus"
                + " vectors stay the precomputed hashing ones. Default: none.")
    Optional<String> queryEmbedding = Optional.empty();

    @Option(
        names = "--vectors",
        split = ",",
        paramLabel = "FILE",
        description =
            "Embedding cache files whose vectors replace the corpus's hashing vectors (the real"
                + " ones, then mixtures of them, as `bench hnsw` makes them); needs"
                + " --query-vectors. Default: hashing vectors.")
    List<Path> vectors = List.of();

    @Option(
        names = "--query-vectors",
        paramLabel = "FILE",
        description = "The embedding cache file whose vectors are the queries' (with --vectors).")
    Optional<Path> queryVectors = Optional.empty();

    @Override
    public Integer call() {
      RecallBenchmark.Options options =
          RecallBenchmark.Options.defaults()
              .withWorkDir(places.workDir)
              .withSizes(nodes)
              .withQueries(queries)
              .withWarmup(warmup);
      if (vectors.isEmpty() != queryVectors.isEmpty()) {
        throw new IllegalArgumentException("--vectors and --query-vectors go together");
      }
      if (!vectors.isEmpty()) {
        options = options.withVectors(new ModelVectors(vectors, queryVectors.get()));
      }
      if (queryEmbedding.isEmpty()) {
        return print(RecallBenchmark.run(options, main().errStream()));
      }
      try (CachingEmbeddingProvider model = Embeddings.open(queryEmbedding.get(), places.workDir)) {
        return print(RecallBenchmark.run(options, main().errStream(), Optional.of(model)));
      }
    }

    private int print(RecallBenchmark.Report report) {
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  @Command(
      name = "cluster",
      mixinStandardHelpOptions = true,
      description = {
        "Loci over a PostgreSQL journal: durable appends per second with 1 and 3 instances (8"
            + " writers each) against plain INSERT+commit of rows of the same shape from as many"
            + " client threads; visibility lag on another instance following the journal; the"
            + " catch-up rate of a new instance. Each measurement gets a scratch database.",
        "Prints a Markdown table with the ratios on stdout and progress on stderr."
      })
  static final class Cluster extends LociCommand {
    @Mixin Places places;

    @Option(
        names = "--pg",
        paramLabel = "URL",
        description =
            "A maintenance database of the PostgreSQL server to use, where scratch databases are"
                + " created. Default: ${DEFAULT-VALUE}.")
    String pg = "postgresql://postgres@127.0.0.1:5432/postgres";

    @Option(
        names = "--servers",
        split = ",",
        paramLabel = "N",
        description = "Instance counts to measure. Default: 1,3.")
    List<Integer> servers = List.of(1, 3);

    @Option(names = "--writers", paramLabel = "N", description = "Per instance. Default: 8.")
    int writers = 8;

    @Option(names = "--warmup", paramLabel = "SECONDS", description = "Default: 2.")
    double warmup = 2;

    @Option(
        names = "--seconds",
        paramLabel = "SECONDS",
        description = "Per measurement. Default: 10.")
    double seconds = 10;

    @Option(names = "--lag-samples", paramLabel = "N", description = "Default: 500.")
    int lagSamples = 500;

    @Override
    public Integer call() {
      ClusterBenchmark.Options options =
          new ClusterBenchmark.Options(
              pg,
              places.workDir,
              servers,
              writers,
              Duration.ofMillis(Math.round(warmup * 1000)),
              Duration.ofMillis(Math.round(seconds * 1000)),
              lagSamples);
      ClusterBenchmark.Report report = ClusterBenchmark.run(options, main().errStream());
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  @Command(
      name = "govern",
      mixinStandardHelpOptions = true,
      description = {
        "Governed memory: durable proposals and active writes with conflict detection per"
            + " second against plain trace adds (4 writers each), and context-pack latency with a"
            + " 4,000-token budget at each size against a plain trace search.",
        "Prints a Markdown table with the ratios on stdout and progress on stderr."
      })
  static final class Govern extends LociCommand {
    @Mixin Places places;

    @Option(
        names = "--sizes",
        split = ",",
        paramLabel = "N",
        description = "Governed records per store. Default: 10000,100000.")
    List<Integer> sizes = List.of(10_000, 100_000);

    @Option(
        names = "--queries",
        paramLabel = "N",
        description = "Context packs per size. Default: 200.")
    int queries = 200;

    @Option(
        names = "--seconds",
        paramLabel = "SECONDS",
        description = "Per write measurement. Default: 5.")
    double seconds = 5;

    @Override
    public Integer call() {
      GovernBenchmark.Report report =
          GovernBenchmark.run(
              new GovernBenchmark.Options(places.workDir, sizes, queries, seconds),
              main().errStream());
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  @Command(
      name = "subjects",
      mixinStandardHelpOptions = true,
      description = {
        "Subjects: durable trace adds per second with the subject index and audit log against"
            + " the trace store alone (4 writers, same run), audit verification rate, and the time"
            + " to erase one subject's records from a large store.",
        "Prints a Markdown table with the ratio and the issue's goals on stdout, progress on"
            + " stderr."
      })
  static final class SubjectsBench extends LociCommand {
    @Mixin Places places;

    @Option(
        names = "--store",
        paramLabel = "N",
        description = "Records in the erasure store. Default: 1000000.")
    int store = 1_000_000;

    @Option(
        names = "--records",
        paramLabel = "N",
        description = "Of them, records naming the erased subject. Default: 1000.")
    int records = 1_000;

    @Option(
        names = "--seconds",
        paramLabel = "SECONDS",
        description = "Per write measurement. Default: 5.")
    double seconds = 5;

    @Override
    public Integer call() {
      SubjectsBenchmark.Report report =
          SubjectsBenchmark.run(
              new SubjectsBenchmark.Options(places.workDir, store, records, seconds),
              main().errStream());
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  /** The options of every benchmark: where it makes its stores and where the JSON report goes. */
  static final class Places {
    @Option(
        names = "--work-dir",
        paramLabel = "DIR",
        description =
            "Where the stores are made (a real disk, not tmpfs). Default: ${DEFAULT-VALUE}.")
    Path workDir = Path.of("loci-bench-work");

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description = "Also write the full report as JSON to FILE.")
    Optional<Path> out = Optional.empty();

    /** Prints {@code markdown} on {@code command}'s stdout and writes {@code json} to --out. */
    int print(LociCommand command, String markdown, String json) {
      command.spec.commandLine().getOut().print(markdown);
      command.spec.commandLine().getOut().flush();
      if (out.isPresent()) {
        try {
          Files.writeString(out.get(), json, StandardCharsets.UTF_8);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return ExitCode.OK;
    }
  }
}
