package dev.loci.cli;

import dev.loci.bench.HnswBenchmark;
import dev.loci.recall.internal.VectorCodec;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loci bench hnsw}: HNSW recall@10 and latency against the exact scan on real vectors. */
@Command(
    name = "hnsw",
    mixinStandardHelpOptions = true,
    description = {
      "HNSW recall@10 against the exact scan, and query latency, on vectors from embedding cache"
          + " files (cache/embeddings/<model>.bin of a data or bench work directory), for each"
          + " graph setting (M:beamWidth, :int8 for 8-bit scalar quantization) and candidate"
          + " count, at each corpus size; corpora larger than the real vectors are filled up with"
          + " mixtures of them.",
      "Prints a Markdown table on stdout and progress on stderr."
    })
final class HnswBenchCommand extends LociCommand {
  @Mixin BenchCommands.Places places;

  @Option(
      names = "--vectors",
      required = true,
      split = ",",
      paramLabel = "FILE",
      description = "Embedding cache files whose vectors make the corpus.")
  List<Path> vectors;

  @Option(
      names = "--queries",
      required = true,
      paramLabel = "FILE",
      description = "The embedding cache file whose vectors are the queries (held out).")
  Path queries;

  @Option(
      names = "--sizes",
      split = ",",
      paramLabel = "N",
      description = "Corpus sizes. Default: 100000.")
  List<Integer> sizes = List.of(100_000);

  @Option(
      names = "--graphs",
      split = ",",
      paramLabel = "M:BEAM[:int8]",
      description = "HNSW settings. Default: 16:100 (Lucene's), 32:200, 16:100:int8.")
  List<String> graphs = List.of("16:100", "32:200", "16:100:int8");

  @Option(
      names = "--candidates",
      split = ",",
      paramLabel = "EF",
      description = "The search's candidate counts. Default: 100,150,200.")
  List<Integer> candidates = List.of(100, 150, 200);

  @Option(
      names = "--query-count",
      paramLabel = "N",
      description = "Queries per measurement. Default: 200.")
  int queryCount = 200;

  @Option(
      names = "--keep-indexes",
      description =
          "Keep each index under the work directory (hnsw-<size>-<M>-<beamWidth>[-int8]) and"
              + " search an index kept by an earlier run again instead of building it.")
  boolean keep;

  @Option(
      names = "--ram-buffer-mb",
      paramLabel = "MB",
      description =
          "The index writer's RAM buffer. Default: 64, as Loci's vector shards; a larger one"
              + " writes fewer, larger segments (as a shard's merges end with) without merging.")
  int ramBufferMb = 64;

  @Override
  public Integer call() {
    List<VectorCodec> codecs = graphs.stream().map(HnswBenchCommand::codec).toList();
    HnswBenchmark.Report report =
        HnswBenchmark.run(
            new HnswBenchmark.Options(
                vectors,
                queries,
                sizes,
                codecs,
                candidates,
                queryCount,
                places.workDir,
                keep,
                ramBufferMb),
            main().errStream());
    return places.print(this, report.toMarkdown(), report.toJson());
  }

  /** {@code M:BEAM} or {@code M:BEAM:int8}. */
  static VectorCodec codec(String s) {
    String[] p = s.split(":");
    try {
      if ((p.length == 2 || (p.length == 3 && p[2].equals("int8")))) {
        return new VectorCodec(Integer.parseInt(p[0]), Integer.parseInt(p[1]), p.length == 3);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "--graphs: expected M:BEAM or M:BEAM:int8 (for example 16:100), found '" + s + "'");
  }
}
