package dev.loci.cli;

import dev.loci.bench.HttpBenchmark;
import dev.loci.bench.JournalBenchmark;
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
import picocli.CommandLine.Option;

/** {@code loci bench ...}: end-to-end benchmarks that run a peer in the same process. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Run a benchmark against a peer measured in the same run.",
    subcommands = {BenchCommands.Journal.class, BenchCommands.Http.class})
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
    @Option(
        names = "--work-dir",
        paramLabel = "DIR",
        description =
            "Where the stores are made (a real disk, not tmpfs). Default: ${DEFAULT-VALUE}.")
    Path workDir = Path.of("loci-bench-work");

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

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description = "Also write the full report as JSON to FILE.")
    Optional<Path> out = Optional.empty();

    @Override
    public Integer call() {
      JournalBenchmark.Options options =
          JournalBenchmark.Options.defaults()
              .withWorkDir(workDir)
              .withWriterCounts(writers)
              .withWarmup(Duration.ofMillis(Math.round(warmup * 1000)))
              .withMeasurement(Duration.ofMillis(Math.round(seconds * 1000)))
              .withReplayEvents(replayEvents);
      JournalBenchmark.Report report = JournalBenchmark.run(options, main().errStream());
      spec.commandLine().getOut().print(report.toMarkdown());
      spec.commandLine().getOut().flush();
      writeJson(out, report.toJson());
      return ExitCode.OK;
    }
  }

  @Command(
      name = "http",
      mixinStandardHelpOptions = true,
      description = {
        "Requests per second and p50/p99 latency of GET trace, POST trace (durability always) and"
            + " a tag search through the HTTP server on loopback, against the same calls on the"
            + " embedded Java API in the same run.",
        "Prints a Markdown table with the ratios on stdout and progress on stderr."
      })
  static final class Http extends LociCommand {
    @Option(
        names = "--work-dir",
        paramLabel = "DIR",
        description = "Where the store is made (a real disk). Default: ${DEFAULT-VALUE}.")
    Path workDir = Path.of("loci-bench-work");

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
        names = "--out",
        paramLabel = "FILE",
        description = "Also write the report as JSON to FILE.")
    Optional<Path> out = Optional.empty();

    @Override
    public Integer call() {
      HttpBenchmark.Options options =
          new HttpBenchmark.Options(
              workDir,
              clients,
              Duration.ofMillis(Math.round(warmup * 1000)),
              Duration.ofMillis(Math.round(seconds * 1000)),
              records);
      HttpBenchmark.Report report = HttpBenchmark.run(options, main().errStream());
      spec.commandLine().getOut().print(report.toMarkdown());
      spec.commandLine().getOut().flush();
      writeJson(out, report.toJson());
      return ExitCode.OK;
    }
  }

  private static void writeJson(Optional<Path> out, String json) {
    if (out.isPresent()) {
      try {
        Files.writeString(out.get(), json, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
