package dev.loci.cli;

import dev.loci.bench.HeapBenchmark;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code loci bench heap}: heap per record for traces, pathway traces and memory-graph nodes. */
@Command(
    name = "heap",
    mixinStandardHelpOptions = true,
    description = {
      "Heap per record: a plain trace, a pathway trace and a memory-graph node, each stored N"
          + " times in a fresh store; heap in use after a full GC with the records, less without.",
      "Prints a Markdown table on stdout, progress on stderr."
    })
final class HeapBench extends LociCommand {
  @Mixin BenchCommands.Places places;

  @Option(
      names = "--records",
      paramLabel = "N",
      description = "Records of each kind (at least 1000). Default: ${DEFAULT-VALUE}.")
  int records = 100_000;

  @Option(
      names = "--kinds",
      split = ",",
      paramLabel = "KIND",
      description = "Which records: trace, pathway, node. Default: all three.")
  java.util.List<String> kinds = HeapBenchmark.KINDS;

  @Override
  public Integer call() {
    HeapBenchmark.Report report =
        HeapBenchmark.run(places.workDir, records, kinds, main().errStream());
    return places.print(this, report.toMarkdown(), report.toJson());
  }
}
