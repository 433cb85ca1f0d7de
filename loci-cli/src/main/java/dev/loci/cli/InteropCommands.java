package dev.loci.cli;

import dev.loci.ImportReport;
import dev.loci.Loci;
import dev.loci.mcp.LociMcpServer;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.IngestReport;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallWire;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loci import} and {@code loci export}: moving traces in and out in the log format of the Go
 * trace store of ADR-004.
 */
final class InteropCommands {
  /** The ADR-004 Go trace store log. */
  static final String ADR004_JSONL = "adr004-jsonl";

  /** The JSON Lines file of the reference MCP memory server, imported as entity nodes. */
  static final String MCP_MEMORY = LociMcpServer.MEMORY_PACK;

  private InteropCommands() {}

  /** The {@code --format} option, checked before any file is touched. */
  static final class FormatOption {
    @Option(
        names = "--format",
        defaultValue = ADR004_JSONL,
        paramLabel = "FORMAT",
        description =
            "The file format: "
                + ADR004_JSONL
                + " (trace log, the default) or, for import, "
                + MCP_MEMORY
                + " (the memory.jsonl of the reference MCP memory server).")
    String format;

    /** Throws a usage error unless the format is one of {@code known}. */
    void check(LociCommand cmd, String... known) {
      if (!java.util.List.of(known).contains(format)) {
        throw cmd.usageError(
            "--format: expected " + String.join(" or ", known) + ", found '" + format + "'");
      }
    }
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = {
        "Import a trace log, or the memory.jsonl of the reference MCP memory server (--format"
            + " mcp-memory: entities and relations become memory-graph nodes and edges), into a"
            + " namespace.",
        "Lines that do not parse or do not apply are skipped and reported; the exit code is"
            + " still 0."
      })
  static final class Import extends LociCommand {
    @Mixin FormatOption format;
    @Mixin TraceCommands.NamespaceOption ns;

    @Parameters(index = "0", paramLabel = "FILE", description = "The log to import.")
    Path file;

    @Override
    public Integer call() {
      format.check(this, ADR004_JSONL, MCP_MEMORY);
      if (!Files.isRegularFile(file)) {
        throw usageError("no such file: " + file);
      }
      if (format.format.equals(MCP_MEMORY)) {
        return importMcpMemory();
      }
      ImportReport report;
      try (Loci loci = open();
          BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        report = loci.traces().importAdr004(ns.ns, in);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      output().imported(ns.ns, report);
      return ExitCode.OK;
    }

    /** Ingests the file with the mcp-memory pack: re-importing an unchanged file writes nothing. */
    private Integer importMcpMemory() {
      IngestReport r;
      try (Loci loci = open()) {
        r =
            RecallMemory.of(loci)
                .ingest(ns.ns, DomainPacks.named(MCP_MEMORY), file, RecallMemory.Progress.NONE);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (main().output().json()) {
        out.println(RecallWire.write(r));
        return ExitCode.OK;
      }
      PrintWriter err = spec.commandLine().getErr();
      r.skipped().forEach(s -> err.println("loci: skipped " + s.where() + ": " + s.reason()));
      out.printf(
          "%s: %d entities, %d relations into %s (%d written, %d removed), %d skipped%n",
          r.source(), r.nodes(), r.edges(), ns.ns, r.written(), r.removed(), r.skipped().size());
      return ExitCode.OK;
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = {
        "Export every trace of a namespace, retired ones included, as a trace log.",
        "Writes to stdout unless --out is given."
      })
  static final class Export extends LociCommand {
    @Mixin FormatOption format;
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE, not stdout.")
    Optional<Path> out = Optional.empty();

    @Override
    public Integer call() {
      format.check(this, ADR004_JSONL);
      try (Loci loci = openExisting()) {
        if (out.isEmpty()) {
          PrintWriter stdout = spec.commandLine().getOut();
          loci.traces().exportAdr004(ns.ns, stdout);
          if (stdout.checkError()) {
            throw new UncheckedIOException(new IOException("cannot write to stdout"));
          }
          return ExitCode.OK;
        }
        long count;
        try (Writer w = Files.newBufferedWriter(out.get(), StandardCharsets.UTF_8)) {
          count = loci.traces().exportAdr004(ns.ns, w);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        output().exported(ns.ns, count, out.get());
      }
      return ExitCode.OK;
    }
  }
}
