package dev.loci.cli;

import dev.loci.bench.IsolationBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loci bench isolation}: small-write latency beside large redacted writes. */
@Command(
    name = "isolation",
    mixinStandardHelpOptions = true,
    description = {
      "Write isolation: p50/p99 latency of small durable trace adds alone and while pathway"
          + " inserts with large redacted fields run in another namespace (same run, alternating),"
          + " and the time to redact one large field alone.",
      "Prints a Markdown table with the p99 ratio on stdout, progress on stderr."
    })
final class IsolationBench extends LociCommand {
  @Mixin BenchCommands.Places places;

  @Option(
      names = "--seconds",
      paramLabel = "SECONDS",
      description = "Per phase. Default: ${DEFAULT-VALUE}.")
  double seconds = 5;

  @Option(
      names = "--big-chars",
      paramLabel = "N",
      description = "Characters of each large redacted field. Default: ${DEFAULT-VALUE}.")
  int bigChars = 1_000_000;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      description = "Alone/beside pairs. Default: ${DEFAULT-VALUE}.")
  int rounds = 3;

  @Override
  public Integer call() {
    IsolationBenchmark.Report report =
        IsolationBenchmark.run(
            new IsolationBenchmark.Options(places.workDir, seconds, bigChars, rounds),
            main().errStream());
    return places.print(this, report.toMarkdown(), report.toJson());
  }
}
