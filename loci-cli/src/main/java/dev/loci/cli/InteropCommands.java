package dev.loci.cli;

import dev.loci.ImportReport;
import dev.loci.Loci;
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
  /** The only format so far: the ADR-004 Go trace store log. */
  static final String ADR004_JSONL = "adr004-jsonl";

  private InteropCommands() {}

  /** The {@code --format} option, checked before any file is touched. */
  static final class FormatOption {
    @Option(
        names = "--format",
        defaultValue = ADR004_JSONL,
        paramLabel = "FORMAT",
        description = "The file format; only " + ADR004_JSONL + " so far (the default).")
    String format;

    /** Throws a usage error unless the format is one this command knows. */
    void check(LociCommand cmd) {
      if (!format.equals(ADR004_JSONL)) {
        throw cmd.usageError("--format: expected " + ADR004_JSONL + ", found '" + format + "'");
      }
    }
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = {
        "Import a trace log into a namespace.",
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
      format.check(this);
      if (!Files.isRegularFile(file)) {
        throw usageError("no such file: " + file);
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
      format.check(this);
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
