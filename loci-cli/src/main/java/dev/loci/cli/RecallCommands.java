package dev.loci.cli;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.embed.onnx.Embeddings;
import dev.loci.govern.EntityWire;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.recall.CachingEmbeddingProvider;
import dev.loci.recall.DemoCorpus;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryPalace;
import dev.loci.recall.PalaceRecallResult;
import dev.loci.recall.PalaceWire;
import dev.loci.recall.PathStep;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.RecallWire;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.DomainPack;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loci ingest}, {@code loci recall} and {@code loci demo}: the memory graph and recall. Only
 * translation happens here; the work is {@link RecallMemory}'s.
 */
final class RecallCommands {
  private RecallCommands() {}

  /** {@code --embedding}: which provider turns text into vectors; see {@link Embeddings}. */
  static final class EmbeddingOption {
    @Option(
        names = "--embedding",
        paramLabel = "NAME",
        description =
            "bge-small (bge-small-en-v1.5 in process), bge-small-q (its quantized weights),"
                + " bge-small-qd (stored texts by the quantized weights, queries by the full),"
                + " bge-small-int8 (its weight products quantized to 8 bits at load), onnx"
                + " (all-MiniLM-L6-v2 in process) or hashing (word overlap, no model); vectors are"
                + " cached under DATA/cache/embeddings (default: ${DEFAULT-VALUE}).")
    String name = Embeddings.DEFAULT;

    /** The provider with its cache in {@code dataDir}, after checking the name. */
    CachingEmbeddingProvider open(Path dataDir) {
      return Embeddings.open(name, dataDir);
    }

    /** Checks the name before anything is opened. */
    void check() {
      Embeddings.named(name);
    }
  }

  @Command(
      name = "ingest",
      mixinStandardHelpOptions = true,
      description = {
        "Turn files into memory-graph nodes and edges with a domain pack.",
        "Re-ingesting an unchanged file writes nothing; units gone from an edited file are"
            + " removed (their history is kept). A LoCoMo file writes one child namespace per"
            + " conversation (NS.<sample_id>).",
        "A namespace whose governance setting extract_on_ingest is on then gets one extraction"
            + " wave over the chunks ingested (as POST ingest runs it); --extract overrides it."
      })
  static final class Ingest extends LociCommand {
    @Option(
        names = "--pack",
        required = true,
        paramLabel = "PACK",
        description = "markdown:contract, markdown:runbook or conversation.")
    String pack;

    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin EmbeddingOption embedding;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "The files to ingest.")
    List<Path> paths;

    @Option(
        names = "--extract",
        paramLabel = "KIND",
        description =
            "off, memory, entities or both: the extraction wave for this ingest whatever the"
                + " namespace's extract_on_ingest setting says (default: the setting).")
    Optional<String> extract = Optional.empty();

    @Override
    public Integer call() {
      DomainPack domainPack = DomainPacks.named(pack);
      embedding.check();
      Optional<Optional<ExtractionTarget>> override =
          extract.map(x -> GovernedMemory.ingestTarget(x, "--extract"));
      List<GovernedRecall.IngestWave> waves = List.of();
      PrintStream progress = main().errStream();
      List<IngestReport> reports = new ArrayList<>();
      String embedded;
      try (Loci loci = open();
          CachingEmbeddingProvider embeddings = embedding.open(loci.dataDir())) {
        RecallMemory recall = RecallMemory.of(loci, embeddings);
        for (Path p : paths) {
          // the model embeds each journal batch's nodes while the next batch is written
          reports.add(
              recall.ingestEmbedding(
                  ns.ns,
                  domainPack,
                  p,
                  (source, done, total) ->
                      progress.printf("loci: ingesting %s: %d/%d records%n", source, done, total),
                  (source, done, total) ->
                      progress.printf("loci: embedding %s: %d/%d nodes%n", source, done, total)));
        }
        if (override.filter(Optional::isEmpty).isEmpty()) {
          GovernedRecall graph =
              GovernedRecall.of(GovernedMemory.of(loci), GovernedEntities.of(loci), recall);
          Map<Namespace, List<String>> documents = GovernedRecall.ingested(reports);
          waves =
              override.isPresent()
                  ? graph.afterIngest(documents, override.get().get())
                  : graph.afterIngest(documents);
        }
        embedded =
            String.format(
                Locale.ROOT,
                "embeddings: %s, %d computed, %d from the cache %s",
                embeddings.modelId(),
                embeddings.misses(),
                embeddings.hits(),
                embeddings.file());
      }
      printIngested(reports, waves, embedded);
      return ExitCode.OK;
    }

    private void printIngested(
        List<IngestReport> reports, List<GovernedRecall.IngestWave> waves, String embedded) {
      PrintWriter out = spec.commandLine().getOut();
      if (main().output().json()) {
        out.println(
            "{\"items\":"
                + RecallWire.write(reports)
                + ",\"extraction_waves\":"
                + dev.loci.internal.Json.write(EntityWire.waves(waves))
                + "}");
        return;
      }
      PrintWriter err = spec.commandLine().getErr();
      for (IngestReport r : reports) {
        r.skipped().forEach(s -> err.println("loci: skipped " + s.where() + ": " + s.reason()));
        out.printf(
            "%s: %d nodes, %d edges into %s (%d written, %d removed, %d batches), %d skipped%n",
            r.source(),
            r.nodes(),
            r.edges(),
            r.namespaces().stream().map(Namespace::value).collect(Collectors.joining(", ")),
            r.written(),
            r.removed(),
            r.batches(),
            r.skipped().size());
      }
      for (GovernedRecall.IngestWave w : waves) {
        out.printf(
            "extraction wave %s in %s: %d chunks, %d candidates, %d graduated, %d over the cap%n",
            w.extraction().wave().orElse("?"),
            w.namespace().value(),
            w.chunks(),
            w.extraction().candidates().size(),
            w.extraction().graduated().size(),
            w.extraction().overCap());
      }
      out.println(embedded);
    }
  }

  @Command(
      name = "recall",
      mixinStandardHelpOptions = true,
      description = {
        "Recall the nodes that answer a question, each with its evidence path.",
        "Modes: lexical, embedding, hybrid (z-score fusion), structure_only, weighted_graph,"
            + " activation_spreading, ppr."
      })
  static final class Recall extends LociCommand {
    @Parameters(index = "0", paramLabel = "QUESTION", description = "The question.")
    String question;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--mode",
        paramLabel = "MODE",
        description = "How to find and rank (default: ${DEFAULT-VALUE}).")
    String mode = "hybrid";

    @Option(names = "--k", paramLabel = "K", description = "How many (default: ${DEFAULT-VALUE}).")
    int k = 10;

    @Option(
        names = "--explain",
        description =
            "Print each item's path step by step with its score components, the palace memory"
                + " behind it, the routes replayed, the activation snapshot and the activation"
                + " trace with where and why propagation stopped.")
    boolean explain;

    @Option(
        names = "--reinforce",
        description = "Record a useful use of every returned memory (one write per recall).")
    boolean reinforce;

    @Option(
        names = "--weights",
        paramLabel = "W",
        description =
            "weighted_graph weights over the pack's, e.g."
                + " semantic=0.5,structural=0.35,anomaly=0.1,importance=0.05.")
    Optional<String> weights = Optional.empty();

    @Option(
        names = "--seeds",
        paramLabel = "N",
        description = "Graph modes start from N (default: 3).")
    int seeds = 3;

    @Option(names = "--hops", paramLabel = "N", description = "Longest path in edges (default: 2).")
    int hops = 2;

    @Mixin EmbeddingOption embedding;

    @Override
    public Integer call() {
      embedding.check();
      RecallQuery.Builder b =
          RecallQuery.builder(question, RecallMode.parse(mode)).k(k).seeds(seeds).hops(hops);
      weights.ifPresent(w -> b.weights(ScoreWeights.parse(w, ScoreWeights.DEFAULT)));
      RecallQuery query = b.build();
      PalaceRecallResult result;
      try (Loci loci = openExisting();
          CachingEmbeddingProvider embeddings = embedding.open(loci.dataDir())) {
        RecallMemory recall =
            RecallMemory.of(loci, embeddings).withScoring(dev.loci.govern.GovernedScoring.INSTANCE);
        result = MemoryPalace.of(loci, recall).recall(ns.ns, query, reinforce);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (main().output().json()) {
        out.println(PalaceWire.writeRecall(result));
      } else {
        printResult(out, result.result(), explain);
        if (explain) {
          RecallExplain.print(out, result);
        }
        result.reinforced().ifPresent(r -> PalaceCommands.reinforced(out, r));
      }
      return ExitCode.OK;
    }
  }

  /** Prints a result for people: one block per item, paths and snapshot if asked. */
  static void printResult(PrintWriter out, RecallResult result, boolean explain) {
    if (result.items().isEmpty()) {
      out.println("no results");
      return;
    }
    int rank = 0;
    for (RecallItem item : result.items()) {
      rank++;
      out.printf(
          Locale.ROOT,
          "%d. %s  %.4f  %s%n",
          rank,
          item.node().id(),
          item.score(),
          item.node().type());
      out.println("   " + item.node().content());
      item.path().supportingEvidence().forEach(e -> out.println("   evidence: " + e.describe()));
      if (explain) {
        out.println("   path:");
        int i = 0;
        for (PathStep s : item.path().steps()) {
          i++;
          out.printf(
              Locale.ROOT,
              "     %d. %-14s %s  %.4f  %s%n",
              i,
              s.via(),
              s.nodeId(),
              s.score(),
              components(s.components()));
        }
      }
    }
    if (explain && !result.activation().isEmpty()) {
      out.println("activation snapshot:");
      result.activation().entrySet().stream()
          .limit(10)
          .forEach(e -> out.printf(Locale.ROOT, "  %s  %.4f%n", e.getKey(), e.getValue()));
    }
  }

  private static String components(Map<String, Double> c) {
    return c.entrySet().stream()
        .map(e -> String.format(Locale.ROOT, "%s=%.4f", e.getKey(), e.getValue()))
        .collect(Collectors.joining(", "));
  }

  @Command(
      name = "demo",
      mixinStandardHelpOptions = true,
      description = {
        "Ingest the bundled contract and runbook into a temporary data directory and answer their"
            + " questions twice: with lexical BM25 and with a path-aware mode.",
        "Gold evidence is starred. --data is not used; nothing is left behind."
      })
  static final class Demo extends LociCommand {
    @Option(names = "--k", paramLabel = "K", description = "How many (default: ${DEFAULT-VALUE}).")
    int k = 5;

    @Option(
        names = "--mode",
        paramLabel = "MODE",
        description = "The path-aware mode (default: ${DEFAULT-VALUE}).")
    String mode = "weighted_graph";

    @Mixin EmbeddingOption embedding;

    @Override
    public Integer call() throws IOException {
      RecallMode pathAware = RecallMode.parse(mode);
      embedding.check();
      Path dir = Files.createTempDirectory("loci-demo");
      try (Loci loci = Loci.builder().dataDir(dir).durability(Durability.none()).open();
          CachingEmbeddingProvider embeddings = embedding.open(dir)) {
        RecallMemory recall = RecallMemory.of(loci, embeddings);
        for (DemoCorpus.Document d : DemoCorpus.documents()) {
          recall.ingest(
              demoNs(d.label()), d.domainPack(), d.document(), RecallMemory.Progress.NONE);
        }
        run(recall, pathAware);
      } finally {
        delete(dir);
      }
      return ExitCode.OK;
    }

    private void run(RecallMemory recall, RecallMode pathAware) {
      PrintWriter out = spec.commandLine().getOut();
      int gold = 0;
      int foundFlat = 0;
      int foundPaths = 0;
      for (DemoCorpus.Question q : DemoCorpus.questions()) {
        Namespace ns = demoNs(q.label());
        RecallResult flat =
            recall.recall(ns, RecallQuery.builder(q.question(), RecallMode.LEXICAL).k(k).build());
        RecallResult paths =
            recall.recall(ns, RecallQuery.builder(q.question(), pathAware).k(k).build());
        gold += q.gold().size();
        foundFlat += (int) q.gold().stream().filter(flat.ids()::contains).count();
        foundPaths += (int) q.gold().stream().filter(paths.ids()::contains).count();
        out.printf("%s%n  gold: %s%n", q.question(), String.join(", ", q.gold()));
        out.printf("  %-36s %s%n", "lexical", pathAware.wireName());
        for (int i = 0; i < k; i++) {
          out.printf("  %-36s %s%n", cell(flat.ids(), i, q.gold()), cell(paths.ids(), i, q.gold()));
        }
        for (RecallItem item : paths.items()) {
          if (q.gold().contains(item.node().id()) && !flat.ids().contains(item.node().id())) {
            out.println(
                item.path().steps().size() == 1
                    ? "  found as a seed by meaning: " + item.node().id()
                    : "  found through: " + trail(item));
          }
        }
        out.println();
      }
      out.printf(
          "gold units in the top %d: lexical %d/%d, %s %d/%d%n",
          k, foundFlat, gold, pathAware.wireName(), foundPaths, gold);
    }

    private static String cell(List<String> ids, int i, List<String> gold) {
      if (i >= ids.size()) {
        return "-";
      }
      return (i + 1) + ". " + ids.get(i) + (gold.contains(ids.get(i)) ? " *" : "");
    }

    private static String trail(RecallItem item) {
      StringBuilder sb = new StringBuilder();
      for (PathStep s : item.path().steps()) {
        if (!s.via().equals(PathStep.SEED)) {
          sb.append(" --").append(s.via()).append("--> ");
        }
        sb.append(s.nodeId());
      }
      return sb.toString();
    }

    private static Namespace demoNs(String label) {
      return Namespace.of("demo." + label);
    }

    private static void delete(Path dir) {
      try (Stream<Path> all = Files.walk(dir)) {
        for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
