package dev.loci.cli;

import dev.loci.bench.CasesBenchmark;
import dev.loci.bench.ClusterBenchmark;
import dev.loci.bench.EmbedBenchmark;
import dev.loci.bench.GovernBenchmark;
import dev.loci.bench.HttpBenchmark;
import dev.loci.bench.JournalBenchmark;
import dev.loci.bench.LocomoBenchmark;
import dev.loci.bench.PathwayBenchmark;
import dev.loci.bench.RecallBenchmark;
import dev.loci.bench.SubjectsBenchmark;
import dev.loci.embed.onnx.Embeddings;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.RecallMode;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
      BenchCommands.Locomo.class,
      BenchCommands.Cases.class,
      BenchCommands.Recall.class,
      BenchCommands.Cluster.class,
      BenchCommands.Govern.class,
      BenchCommands.SubjectsBench.class,
      IsolationBench.class,
      HeapBench.class,
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
            "Also embed every recall's question with this model (onnx, bge-small, bge-small-q),"
                + " so the modes' latencies include a real model's query embedding; the corpus"
                + " vectors stay the precomputed hashing ones. Default: none.")
    Optional<String> queryEmbedding = Optional.empty();

    @Override
    public Integer call() {
      RecallBenchmark.Options options =
          RecallBenchmark.Options.defaults()
              .withWorkDir(places.workDir)
              .withSizes(nodes)
              .withQueries(queries)
              .withWarmup(warmup);
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
      name = "locomo",
      mixinStandardHelpOptions = true,
      description = {
        "Recall quality on LoCoMo: each conversation in its own namespace through the"
            + " conversation pack, every question with evidence asked in each mode and of three"
            + " peers over the raw turns (plain Lucene BM25, SQLite FTS5 bm25(), an exact dense"
            + " scan with the same embedding provider); recall_any/recall_all/recall@k, nDCG@10"
            + " and MRR per category, at turn and session level, conversations 1-5 (tuning) and"
            + " 6-10 (held out) reported apart.",
        "--data FILE names the LoCoMo file (locomo10.json), which is only read.",
        "Prints Markdown tables on stdout, progress on stderr; --out gets every question's"
            + " rankings as JSON."
      })
  static final class Locomo extends LociCommand {
    @Mixin Places places;

    @Option(
        names = "--modes",
        split = ",",
        paramLabel = "MODE",
        description = "Loci modes to ask. Default: all seven.")
    List<String> modes = List.of();

    @Option(
        names = "--k",
        split = ",",
        paramLabel = "K",
        description = "Recall cut-offs. Default: 5,10,20.")
    List<Integer> ks = List.of(5, 10, 20);

    @Option(
        names = "--embedding",
        paramLabel = "NAME",
        description =
            "Embedding provider for Loci and the dense peer: hashing, onnx (MiniLM), bge-small or"
                + " bge-small-q; vectors cached under the work directory. Default: bge-small"
                + " (ahead of hashing on LoCoMo and on the second development set).")
    String embedding = "bge-small";

    @Option(
        names = "--window",
        paramLabel = "N",
        description = "Neighbouring turns on each side added to Loci's turn text. Default: tuned.")
    Optional<Integer> window = Optional.empty();

    @Option(
        names = "--dated",
        negatable = true,
        description = "Add the session date to Loci's turn text. Default: tuned.")
    Optional<Boolean> dated = Optional.empty();

    @Option(
        names = "--term-edges",
        negatable = true,
        description =
            "Link turns of different sessions that share a rare word (shares_term edges)."
                + " Default: tuned.")
    Optional<Boolean> termEdges = Optional.empty();

    @Option(
        names = "--entity-edges",
        negatable = true,
        description =
            "Link turns that name the same proper noun through an entity node (mentions edges)."
                + " Default: tuned.")
    Optional<Boolean> entityEdges = Optional.empty();

    @Option(
        names = "--resolve-dates",
        negatable = true,
        description =
            "Resolve relative time expressions of a turn (yesterday, last Saturday) against its"
                + " session date and add the dates to its text. Default: tuned.")
    Optional<Boolean> resolveDates = Optional.empty();

    @Option(
        names = "--dense-peer",
        negatable = true,
        description =
            "Run the exact dense-scan peer (it embeds every raw turn once; vectors cached)."
                + " Default: on.")
    Optional<Boolean> densePeer = Optional.empty();

    @Option(names = "--seeds", paramLabel = "N", description = "Graph seeds. Default: tuned.")
    Optional<Integer> seeds = Optional.empty();

    @Option(names = "--hops", paramLabel = "N", description = "Graph hops. Default: tuned.")
    Optional<Integer> hops = Optional.empty();

    @Option(
        names = "--weights",
        paramLabel = "NAME=W,...",
        description =
            "weighted_graph weights over the conversation pack's, e.g. semantic=1,structural=0.2."
                + " Default: tuned.")
    Optional<String> weights = Optional.empty();

    @Option(
        names = "--lexical-share",
        split = ",",
        paramLabel = "X",
        description =
            "How much the lexical ranking counts against the embedding one in fusion, 0 to 1;"
                + " several (0.5,0.7,0.9) ask each fusing mode with each, and the"
                + " cross-validation picks per fold. Default: tuned.")
    List<Double> lexicalShare = List.of();

    @Option(
        names = "--session-cap",
        split = ",",
        paramLabel = "N",
        description =
            "Items of one session before an item of another (0 is no cap); several form a grid"
                + " like --lexical-share. Default: 0.")
    List<Integer> sessionCap = List.of();

    @Option(
        names = "--config",
        description =
            "Print every knob of the run (and record it in --out), then stop without running.")
    boolean config;

    @Option(
        names = "--conversations",
        split = ",",
        paramLabel = "N",
        description = "Only these conversations (numbers from 1), for tuning. Default: all.")
    List<Integer> conversations = List.of();

    @Option(
        names = "--dump-candidates",
        paramLabel = "FILE",
        description =
            "Also write, one JSON line per question, Loci's lexical and embedding candidates"
                + " with their scores and the periods read out of the question, for studying"
                + " fusion and time offline.")
    Optional<Path> dumpCandidates = Optional.empty();

    @Override
    public Integer call() {
      Path data = main().dataDir();
      if (!Files.isRegularFile(data)) {
        throw new IllegalArgumentException(
            "--data: expected the LoCoMo JSON file (locomo10.json), found no file at " + data);
      }
      try (CachingEmbeddingProvider provider = Embeddings.open(embedding, places.workDir)) {
        return run(data, provider);
      }
    }

    private int run(Path data, EmbeddingProvider provider) {
      LocomoBenchmark.Options d = LocomoBenchmark.Options.defaults(data, embedding, provider);
      LocomoBenchmark.Options options =
          new LocomoBenchmark.Options(
              data,
              places.workDir,
              modes.isEmpty() ? d.modes() : modes.stream().map(RecallMode::parse).toList(),
              ks,
              embedding,
              d.embedding(),
              dated.orElse(d.dated()),
              window.orElse(d.window()),
              termEdges.orElse(d.termEdges()),
              entityEdges.orElse(d.entityEdges()),
              resolveDates.orElse(d.resolveDates()),
              seeds.orElse(d.seeds()),
              hops.orElse(d.hops()),
              weights.isPresent()
                  ? Optional.of(
                      ScoreWeights.parse(
                          weights.get(), DomainPacks.named("conversation").weights()))
                  : d.weights(),
              lexicalShare.isEmpty() ? d.lexicalShares() : lexicalShare,
              sessionCap.isEmpty() ? d.sessionCaps() : sessionCap,
              Set.copyOf(conversations),
              densePeer.orElse(true));
      if (config) {
        return places.print(this, options.configMarkdown(), options.configJson());
      }
      LocomoBenchmark.Report report =
          LocomoBenchmark.run(options, main().errStream(), dumpCandidates);
      return places.print(this, report.toMarkdown(), report.toJson());
    }
  }

  @Command(
      name = "cases",
      mixinStandardHelpOptions = true,
      description = {
        "Structured recall cases: ingests the documents of --docs with --pack (or each case's"
            + " own document and pack), does each case's setup (feedback, clock advance, sweep),"
            + " asks it in every mode through the memory palace, and reports per case pass/fail"
            + " and per mode the hit rate of each family of expectations: evidence, path,"
            + " structure (semantic roles, contradiction pairs, scenario and symbolic tags),"
            + " trace, snapshot, route, space and lifecycle.",
        "The bundled demo cases: loci bench cases"
            + " loci-recall/src/main/resources/dev/loci/recall/demo/cases.json --pack"
            + " markdown:contract --docs loci-recall/src/main/resources/dev/loci/recall/demo;"
            + " the palace fixtures, using every field: loci bench cases"
            + " loci-bench/src/test/resources/dev/loci/bench/palace/cases.json --pack"
            + " markdown:runbook --docs loci-bench/src/test/resources/dev/loci/bench/palace"
      })
  static final class Cases extends LociCommand {
    @Mixin Places places;

    @Parameters(index = "0", paramLabel = "FILE", description = "The cases file (JSON).")
    Path file;

    @Option(
        names = "--pack",
        required = true,
        paramLabel = "NAME",
        description = "The pack for documents whose case names none.")
    String pack;

    @Option(
        names = "--docs",
        required = true,
        paramLabel = "DIR",
        description = "The directory holding the documents the cases ask about.")
    Path docs;

    @Option(
        names = "--modes",
        split = ",",
        paramLabel = "MODE",
        description = "Modes to ask. Default: all seven.")
    List<String> modes = List.of();

    @Option(names = "--k", paramLabel = "K", description = "Items per recall. Default: 5.")
    int k = 5;

    @Option(
        names = "--embedding",
        paramLabel = "NAME",
        description =
            "Embedding provider: hashing or onnx; vectors cached under the work directory."
                + " Default: hashing.")
    String embedding = "hashing";

    @Override
    public Integer call() {
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("FILE: expected a cases file, found none at " + file);
      }
      if (!Files.isDirectory(docs)) {
        throw new IllegalArgumentException("--docs: expected a directory, found none at " + docs);
      }
      try (CachingEmbeddingProvider provider = Embeddings.open(embedding, places.workDir)) {
        CasesBenchmark.Options options =
            new CasesBenchmark.Options(
                file,
                docs,
                pack,
                modes.isEmpty()
                    ? List.of(RecallMode.values())
                    : modes.stream().map(RecallMode::parse).toList(),
                k,
                provider,
                places.workDir);
        CasesBenchmark.Report report = CasesBenchmark.run(options, main().errStream());
        return places.print(this, report.toMarkdown(), report.toJson());
      }
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
