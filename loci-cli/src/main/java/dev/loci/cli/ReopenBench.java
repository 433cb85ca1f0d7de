package dev.loci.cli;

import dev.loci.bench.ReopenBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loci bench reopen}: how long opening a large store takes, from a snapshot and by replay.
 */
@Command(
    name = "reopen",
    mixinStandardHelpOptions = true,
    description = {
      "Reopen at scale: Loci.open of a memory graph of N nodes by journal replay and from a"
          + " snapshot, and of a journal of N traces by replay, with the CPU time of the opening"
          + " thread beside the wall time. The stores are built once (durability none) under the"
          + " work directory and kept for later runs.",
      "Prints a Markdown table on stdout, progress on stderr."
    })
final class ReopenBench extends LociCommand {
  @Mixin BenchCommands.Places places;

  @Option(
      names = "--nodes",
      paramLabel = "N",
      description = "Memory-graph nodes (0: none, else at least 1000). Default: ${DEFAULT-VALUE}.")
  int nodes = 200_000;

  @Option(
      names = "--traces",
      paramLabel = "N",
      description = "Trace events of the replayed journal (0: none). Default: ${DEFAULT-VALUE}.")
  int traces = 1_000_000;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      description = "How many times each open is timed. Default: ${DEFAULT-VALUE}.")
  int rounds = 3;

  @Override
  public Integer call() {
    ReopenBenchmark.Report report =
        ReopenBenchmark.run(
            new ReopenBenchmark.Options(places.workDir, nodes, traces, rounds), main().errStream());
    return places.print(this, report.toMarkdown(), report.toJson());
  }
}
