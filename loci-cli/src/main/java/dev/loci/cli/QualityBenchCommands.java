package dev.loci.cli;

import dev.loci.bench.CasesBenchmark;
import dev.loci.bench.LocomoBenchmark;
import dev.loci.embed.onnx.Embeddings;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.RecallMode;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.EmbeddingProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loci bench locomo} and {@code loci bench cases}: recall quality on real conversations and
 * on the project's own cases, with the lexical peers scored in the same run.
 */
final class QualityBenchCommands {
  private QualityBenchCommands() {}

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
    @Mixin BenchCommands.Places places;

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
            "Embedding provider for Loci and the dense peer: hashing, onnx (MiniLM), bge-small,"
                + " bge-small-q, bge-small-qd (quantized documents, full queries) or bge-small-int8"
                + " (8-bit weight products made at load); vectors cached under the work directory."
                + " Default: bge-small"
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
        names = "--term-max-turns",
        paramLabel = "N",
        description =
            "The most turns of a conversation a word may be held by and still link them"
                + " (shares_term edges). Default: tuned.")
    Optional<Integer> termMaxTurns = Optional.empty();

    @Option(
        names = "--term-weight",
        paramLabel = "W",
        description = "The weight of a shares_term edge, in (0, 1]. Default: tuned.")
    Optional<Double> termWeight = Optional.empty();

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
        names = "--context-weight",
        split = ",",
        paramLabel = "W",
        description =
            "How much a match in a turn's neighbouring turns counts against one in the turn in the"
                + " lexical ranking, 0 to 1; several form a grid like --lexical-share. Default:"
                + " tuned.")
    List<Double> contextWeight = List.of();

    @Option(
        names = "--length-norm",
        split = ",",
        paramLabel = "B",
        description =
            "BM25's length normalization (b) of the lexical ranking, 0 to 1 (Lucene's default is"
                + " 0.75); several form a grid like --lexical-share. Default: tuned.")
    List<Double> lengthNorm = List.of();

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
              termMaxTurns.orElse(d.termMaxTurns()),
              termWeight.orElse(d.termWeight()),
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
              contextWeight.isEmpty() ? d.contextWeights() : contextWeight,
              lengthNorm.isEmpty() ? d.lengthNorms() : lengthNorm,
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
    @Mixin BenchCommands.Places places;

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
            "Embedding provider: hashing, onnx, bge-small, bge-small-q, bge-small-qd or"
                + " bge-small-int8; vectors"
                + " cached under the work directory."
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
}
