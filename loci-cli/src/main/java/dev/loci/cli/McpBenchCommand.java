package dev.loci.cli;

import dev.loci.bench.McpBenchmark;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code loci bench mcp}: MCP tool-call latency over stdio and HTTP against the embedded API. The
 * stdio server is this same command line started as a child JVM with this JVM's class path.
 */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    description = {
      "Latency p50/p99 of the recall and remember MCP tools called by an MCP client over stdio"
          + " (a 'loci mcp' child process) and over streamable HTTP (/mcp with a token), against"
          + " the same operations on the embedded Java API in the same run.",
      "Prints a Markdown table with the overheads on stdout and progress on stderr."
    })
final class McpBenchCommand extends LociCommand {
  @Mixin BenchCommands.Places places;

  @Option(
      names = "--calls",
      paramLabel = "N",
      description = "Measured calls per tool and side. Default: 2000.")
  int calls = 2000;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      description =
          "Calls per tool and side before measuring (the child JVM compiles recall's code"
              + " meanwhile). Default: 1000.")
  int warmup = 1000;

  @Override
  public Integer call() {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> launcher =
        List.of(java, "-cp", System.getProperty("java.class.path"), Main.class.getName());
    McpBenchmark.Options options =
        new McpBenchmark.Options(places.workDir, calls, warmup, launcher);
    McpBenchmark.Report report = McpBenchmark.run(options, main().errStream());
    return places.print(this, report.toMarkdown(), report.toJson());
  }
}
