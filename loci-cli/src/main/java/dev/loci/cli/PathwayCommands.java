package dev.loci.cli;

import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.NamespaceScope;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.PathwayWire;
import dev.loci.pathway.RedactionPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loci pathway ...}: Pathway Memory Specification v1. Input and output are JSON in the
 * spec's wire format (snake_case), one line per result, whatever {@code --json} says.
 */
@Command(
    name = "pathway",
    mixinStandardHelpOptions = true,
    description = "Pathway memory (spec v1): insert, revise, replay and query pathway traces.",
    subcommands = {
      PathwayCommands.Insert.class,
      PathwayCommands.Revise.class,
      PathwayCommands.Replay.class,
      PathwayCommands.Get.class,
      PathwayCommands.Hotswap.class,
      PathwayCommands.Similar.class,
      PathwayCommands.Versions.class,
      PathwayCommands.Import.class,
      PathwayCommands.Export.class,
      PathwayCommands.Stats.class,
      PathwayCommands.Redaction.class
    })
final class PathwayCommands {
  private PathwayCommands() {}

  /** The {@code --ns} option of reads, which may name a subtree. */
  static final class ScopeOption {
    @Option(
        names = "--ns",
        defaultValue = "default",
        paramLabel = "SCOPE",
        description =
            "A namespace (acme), or a namespace and all below it (acme.*) (default:"
                + " ${DEFAULT-VALUE}).")
    NamespaceScope scope;
  }

  /** A pathway subcommand: runs against the pathway memory of the data directory. */
  abstract static class PathwayCommand extends LociCommand {
    /** Opens the data directory (creating it for writes), runs {@code op}, prints its JSON. */
    final Integer run(boolean write, Function<PathwayMemory, Object> op) {
      try (Loci loci = write ? open() : openExisting()) {
        output().jsonLine(PathwayWire.write(op.apply(PathwayMemory.of(loci))));
      }
      return ExitCode.OK;
    }

    /** The text of {@code --option}: literal, {@code -} for stdin or {@code @FILE}. */
    final String argument(String option, String value) {
      return TraceCommands.readArgument(this, option, value);
    }
  }

  @Command(
      name = "insert",
      mixinStandardHelpOptions = true,
      description = {
        "Insert a trace and print {\"trace\": ..., \"redactions\": N}.",
        "The JSON holds the caller's fields (task_class, file_path, signal_class, ladder_attempts,"
            + " ..., subject_ids); Loci assigns trace_uid, version, created_at, pathway_id,"
            + " pathway_vec and the counters, and redacts personal data from reducer_summary and"
            + " final_verdict."
      })
  static final class Insert extends PathwayCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--trace",
        required = true,
        paramLabel = "JSON",
        description = "A JSON object; '-' reads it from stdin, '@FILE' from a file.")
    String trace;

    @Override
    public Integer call() {
      String json = argument("--trace", trace);
      return run(true, p -> p.insertJson(ns.ns, json));
    }
  }

  @Command(
      name = "revise",
      mixinStandardHelpOptions = true,
      description = {
        "Revise a head version: a new trace with version + 1 supersedes it. Prints"
            + " {\"trace\": ..., \"redactions\": N}.",
        "The JSON names the fields to replace; the others keep the head's values."
      })
  static final class Revise extends PathwayCommand {
    @Parameters(index = "0", paramLabel = "TRACE_UID", description = "The head version.")
    String traceUid;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--fields",
        required = true,
        paramLabel = "JSON",
        description = "A JSON object of new fields; '-' reads stdin, '@FILE' a file.")
    String fields;

    @Override
    public Integer call() {
      String json = argument("--fields", fields);
      return run(true, p -> p.reviseJson(ns.ns, traceUid, json));
    }
  }

  /** The outcome of a replay: exactly one of two flags. */
  static final class Outcome {
    @Option(names = "--success", required = true, description = "The replay succeeded.")
    boolean success;

    @Option(names = "--failure", required = true, description = "The replay failed.")
    boolean failure;
  }

  @Command(
      name = "replay",
      mixinStandardHelpOptions = true,
      description = {
        "Record a replay of a trace and print the trace.",
        "At 3 or more replays with a success rate below 0.80 the pathway is retired, for good."
      })
  static final class Replay extends PathwayCommand {
    @Parameters(index = "0", paramLabel = "TRACE_UID", description = "The trace replayed.")
    String traceUid;

    @Mixin TraceCommands.NamespaceOption ns;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Outcome outcome;

    @Override
    public Integer call() {
      return run(true, p -> p.recordReplay(ns.ns, traceUid, outcome.success));
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Print one trace.")
  static final class Get extends PathwayCommand {
    @Parameters(index = "0", paramLabel = "TRACE_UID", description = "The trace.")
    String traceUid;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--include-history",
        description = "Also print a superseded version (needs --legal-token).")
    boolean includeHistory;

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      if (includeHistory) {
        LegalCapability cap =
            legal.capability(this, NamespaceScope.exactly(ns.ns), "--include-history");
        return run(false, p -> p.get(ns.ns, traceUid, cap));
      }
      return run(false, p -> p.get(ns.ns, traceUid));
    }
  }

  @Command(
      name = "hotswap",
      mixinStandardHelpOptions = true,
      description =
          "query_for_hotswap: the best head traces of the pathway these inputs identify, by"
              + " success rate then replay count; retired pathways never appear.")
  static final class Hotswap extends PathwayCommand {
    @Mixin ScopeOption scope;

    @Option(names = "--task-class", required = true, paramLabel = "CLASS")
    String taskClass;

    @Option(names = "--file-path", required = true, paramLabel = "PATH")
    String filePath;

    @Option(names = "--signal-class", paramLabel = "SIGNAL", description = "Absent means null.")
    Optional<String> signalClass = Optional.empty();

    @Option(names = "--k", paramLabel = "K", description = "How many (default: ${DEFAULT-VALUE}).")
    int k = PathwayMemory.HOTSWAP_K;

    @Option(
        names = "--include-history",
        description = "Include superseded versions (needs --legal-token).")
    boolean includeHistory;

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      if (includeHistory) {
        LegalCapability cap = legal.capability(this, scope.scope, "--include-history");
        return run(
            false, p -> p.queryForHotswap(scope.scope, taskClass, filePath, signalClass, k, cap));
      }
      return run(false, p -> p.queryForHotswap(scope.scope, taskClass, filePath, signalClass, k));
    }
  }

  /** What {@code similar} compares against: a vector or an existing trace's vector. */
  static final class Query {
    @Option(
        names = "--vec",
        required = true,
        paramLabel = "JSON",
        description = "A JSON array of 32 numbers.")
    String vec;

    @Option(
        names = "--like",
        required = true,
        paramLabel = "TRACE_UID",
        description = "Use this trace's pathway_vec (in the first namespace of --ns).")
    String like;
  }

  @Command(
      name = "similar",
      mixinStandardHelpOptions = true,
      description =
          "query_by_vec: the traces whose pathway_vec is most similar by cosine, as"
              + " [{\"score\": s, \"trace\": ...}].")
  static final class Similar extends PathwayCommand {
    @Mixin ScopeOption scope;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Query query;

    @Option(names = "--k", paramLabel = "K", description = "How many (default: ${DEFAULT-VALUE}).")
    int k = PathwayMemory.SIMILAR_K;

    @Option(
        names = "--include-history",
        description = "Include superseded versions (needs --legal-token).")
    boolean includeHistory;

    @Option(names = "--include-retired", description = "Include retired pathways.")
    boolean includeRetired;

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      Optional<LegalCapability> cap =
          includeHistory
              ? Optional.of(legal.capability(this, scope.scope, "--include-history"))
              : Optional.empty();
      return run(
          false,
          p -> {
            float[] vec =
                query.like != null
                    ? p.vectorOf(scope.scope.root(), query.like)
                    : PathwayWire.readVector(query.vec);
            return cap.isPresent()
                ? p.queryByVec(scope.scope, vec, k, includeRetired, cap.get())
                : p.queryByVec(scope.scope, vec, k, includeRetired);
          });
    }
  }

  @Command(
      name = "versions",
      mixinStandardHelpOptions = true,
      description = {
        "list_versions: the whole version chain of a trace, root first.",
        "Chains can carry personal data: --legal-token must be a token of the legal role,"
            + " whose id is recorded with the read."
      })
  static final class Versions extends PathwayCommand {
    @Parameters(index = "0", paramLabel = "TRACE_UID", description = "Any version of the chain.")
    String traceUid;

    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      LegalCapability cap = legal.capability(this, NamespaceScope.exactly(ns.ns), "list_versions");
      return run(false, p -> p.listVersions(ns.ns, traceUid, cap));
    }
  }

  @Command(
      name = "import",
      mixinStandardHelpOptions = true,
      description = {
        "Import a Rust data/_pathway_memory/state.json and print what was done.",
        "Every trace is checked before any is stored; traces already present are skipped;"
            + " legacy traces without trace_uid get one and \"legacy\": true."
      })
  static final class Import extends PathwayCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin FormatOption format;

    @Parameters(index = "0", paramLabel = "FILE", description = "The state.json file.")
    Path file;

    @Override
    public Integer call() {
      format.require(this);
      return run(
          true,
          p -> {
            try (InputStream in = Files.newInputStream(file)) {
              return p.importRustState(ns.ns, in);
            } catch (NoSuchFileException e) {
              throw usageError("FILE: no such file: " + file);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = "Write a namespace's traces, every version, as a Rust state.json to stdout.")
  static final class Export extends PathwayCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin FormatOption format;

    @Override
    public Integer call() {
      format.require(this);
      try (Loci loci = openExisting()) {
        PathwayMemory.of(loci).exportRustState(ns.ns, output().writer());
      }
      return ExitCode.OK;
    }
  }

  /** The {@code --format} option of import and export. */
  static final class FormatOption {
    @Option(
        names = "--format",
        required = true,
        paramLabel = "FORMAT",
        description = "rust-state: the Rust implementation's state.json (the only format).")
    String format;

    void require(LociCommand cmd) {
      if (!format.equals("rust-state")) {
        throw cmd.usageError("--format: expected rust-state, found '" + format + "'");
      }
    }
  }

  @Command(
      name = "stats",
      mixinStandardHelpOptions = true,
      description = "Print counts: pathways, retired, traces, heads, replays, redactions.")
  static final class Stats extends PathwayCommand {
    @Mixin ScopeOption scope;

    @Override
    public Integer call() {
      return run(false, p -> p.stats(scope.scope));
    }
  }

  /** How {@code redaction} changes the policy, if it does. */
  static final class PolicyChange {
    @Option(
        names = "--set",
        required = true,
        paramLabel = "JSON",
        description =
            "{\"rules\": [{\"name\": \"email\"}, {\"name\": \"badge\", \"regex\": \"B-\\\\d+\"}]};"
                + " a rule named email, phone or candidate_id without regex is the built-in one.")
    String set;

    @Option(names = "--off", required = true, description = "Turn redaction off.")
    boolean off;

    @Option(names = "--defaults", required = true, description = "Use the built-in rules.")
    boolean defaults;
  }

  @Command(
      name = "redaction",
      mixinStandardHelpOptions = true,
      description = {
        "Print the redaction policy in force for a namespace, or set it (it applies to the"
            + " namespace and the namespaces below it that set none of their own).",
        "Redaction is on by default: e-mail addresses, phone numbers and candidate ids.",
        "A policy set with --set may add \"trace_content\": true and \"node_content\": true to"
            + " redact trace content and memory-graph nodes of the namespace too (off by default)."
      })
  static final class Redaction extends PathwayCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    PolicyChange change;

    @Override
    public Integer call() {
      if (change == null) {
        return run(false, p -> p.redactionPolicy(ns.ns));
      }
      RedactionPolicy policy =
          change.off
              ? RedactionPolicy.off()
              : change.defaults ? RedactionPolicy.defaults() : parsePolicy(change.set);
      return run(true, p -> p.setRedactionPolicy(ns.ns, policy));
    }

    private RedactionPolicy parsePolicy(String text) {
      return RedactionPolicy.fromJson(argument("--set", text));
    }
  }
}
