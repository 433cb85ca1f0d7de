package dev.loci.cli;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.TraceQuery;
import dev.loci.Traces;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code loci trace ...}: one subcommand per {@link Traces} operation. */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    description = "Add, change and read traces: versioned, opaque JSON memories.",
    subcommands = {
      TraceCommands.Add.class,
      TraceCommands.Update.class,
      TraceCommands.Revise.class,
      TraceCommands.Retire.class,
      TraceCommands.Get.class,
      TraceCommands.History.class,
      TraceCommands.Search.class
    })
final class TraceCommands {
  private TraceCommands() {}

  /** The {@code --ns} option of commands that name one namespace. */
  static final class NamespaceOption {
    @Option(
        names = "--ns",
        defaultValue = "default",
        paramLabel = "NS",
        description = "The namespace, e.g. acme.support (default: ${DEFAULT-VALUE}).")
    Namespace ns;
  }

  /** The {@code --content} option: literal JSON, {@code -} for stdin or {@code @FILE}. */
  static final class ContentOption {
    @Option(
        names = "--content",
        required = true,
        paramLabel = "JSON",
        description = "One JSON value; '-' reads it from stdin, '@FILE' from a file.")
    String content;

    /** The content text, read from stdin or a file if the option says so. */
    String read(LociCommand cmd) {
      return readArgument(cmd, "--content", content);
    }
  }

  /**
   * The text of an option that takes literal text, {@code -} for stdin or {@code @FILE}.
   *
   * @throws picocli.CommandLine.ParameterException naming {@code option} if the file is missing
   */
  static String readArgument(LociCommand cmd, String option, String value) {
    try {
      if (value.equals("-")) {
        return new String(cmd.main().stdin().readAllBytes(), StandardCharsets.UTF_8);
      }
      if (value.startsWith("@")) {
        return Files.readString(Path.of(value.substring(1)), StandardCharsets.UTF_8);
      }
      return value;
    } catch (NoSuchFileException e) {
      throw cmd.usageError(option + ": no such file: " + e.getFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A trace subcommand: runs one operation on the trace store and prints its result. */
  abstract static class TraceCommand extends LociCommand {
    /** Opens the data directory, applies {@code op} to its trace store and prints the result. */
    final <T> Integer run(Function<Traces, T> op, BiConsumer<Output, T> printer) {
      try (Loci loci = open()) {
        printer.accept(output(), op.apply(loci.traces()));
      }
      return ExitCode.OK;
    }

    /** Like {@link #run}, for operations that only read: the data directory must exist. */
    final <T> Integer read(Function<Traces, T> op, BiConsumer<Output, T> printer) {
      try (Loci loci = openExisting()) {
        printer.accept(output(), op.apply(loci.traces()));
      }
      return ExitCode.OK;
    }
  }

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description = {
        "Add a trace with a new uid and print it.",
        "With --uid, add it under that uid, or, if the uid exists, raise its replay count and"
            + " keep its content."
      })
  static final class Add extends TraceCommand {
    @Mixin NamespaceOption ns;
    @Mixin ContentOption content;

    @Option(names = "--tag", paramLabel = "TAG", description = "A tag; repeat for several.")
    List<String> tags = new ArrayList<>();

    @Option(names = "--uid", paramLabel = "UID", description = "A caller-chosen uid.")
    Optional<String> uid = Optional.empty();

    @Override
    public Integer call() {
      String json = content.read(this);
      return run(
          traces ->
              uid.isPresent()
                  ? traces.addIdempotent(ns.ns, uid.get(), json, tags)
                  : traces.add(ns.ns, json, tags),
          Output::trace);
    }
  }

  @Command(
      name = "update",
      mixinStandardHelpOptions = true,
      description = "Replace a trace's content in place (same uid; not a revision) and print it.")
  static final class Update extends TraceCommand {
    @Parameters(index = "0", paramLabel = "UID", description = "The trace to update.")
    String uid;

    @Mixin NamespaceOption ns;
    @Mixin ContentOption content;

    @Override
    public Integer call() {
      String json = content.read(this);
      return run(traces -> traces.update(ns.ns, uid, json), Output::trace);
    }
  }

  @Command(
      name = "revise",
      mixinStandardHelpOptions = true,
      description = "Record a new version of a trace as a new trace linked to it, and print it.")
  static final class Revise extends TraceCommand {
    @Parameters(index = "0", paramLabel = "PREDECESSOR_UID", description = "The trace revised.")
    String predecessorUid;

    @Mixin NamespaceOption ns;
    @Mixin ContentOption content;

    @Option(names = "--tag", paramLabel = "TAG", description = "A tag; repeat for several.")
    List<String> tags = new ArrayList<>();

    @Override
    public Integer call() {
      String json = content.read(this);
      return run(traces -> traces.revise(ns.ns, predecessorUid, json, tags), Output::trace);
    }
  }

  @Command(
      name = "retire",
      mixinStandardHelpOptions = true,
      description = "Hide a trace from search (get and history still show it) and print it.")
  static final class Retire extends TraceCommand {
    @Parameters(index = "0", paramLabel = "UID", description = "The trace to retire.")
    String uid;

    @Mixin NamespaceOption ns;

    @Override
    public Integer call() {
      return run(traces -> traces.retire(ns.ns, uid), Output::trace);
    }
  }

  @Command(
      name = "get",
      mixinStandardHelpOptions = true,
      description = "Print a trace, retired or not.")
  static final class Get extends TraceCommand {
    @Parameters(index = "0", paramLabel = "UID", description = "The trace to print.")
    String uid;

    @Mixin NamespaceOption ns;

    @Override
    public Integer call() {
      return read(traces -> traces.get(ns.ns, uid), Output::trace);
    }
  }

  @Command(
      name = "history",
      mixinStandardHelpOptions = true,
      description = {
        "Print a trace and the versions it revises, newest first.",
        "Superseded versions may carry personal data: --legal-token must be a token of the legal"
            + " role, whose id is recorded with the read."
      })
  static final class History extends TraceCommand {
    @Parameters(index = "0", paramLabel = "UID", description = "The newest version to start at.")
    String uid;

    @Mixin NamespaceOption ns;

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      return read(
          traces ->
              traces.history(
                  ns.ns, uid, legal.capability(this, NamespaceScope.exactly(ns.ns), "history")),
          Output::history);
    }
  }

  @Command(
      name = "search",
      mixinStandardHelpOptions = true,
      description = "Print one page of the traces that match every filter given.")
  static final class Search extends TraceCommand {
    @Option(
        names = "--ns",
        defaultValue = "default",
        paramLabel = "SCOPE",
        description =
            "A namespace (acme), or a namespace and all below it (acme.*) (default:"
                + " ${DEFAULT-VALUE}).")
    NamespaceScope scope;

    @Option(names = "--tag", paramLabel = "TAG", description = "A required tag; repeatable.")
    List<String> tags = new ArrayList<>();

    @Option(
        names = "--contains",
        paramLabel = "TEXT",
        description = "Text the compact JSON content must contain.")
    Optional<String> contains = Optional.empty();

    @Option(
        names = "--from",
        paramLabel = "INSTANT",
        description = "Only traces created at or after this ISO-8601 instant.")
    Optional<Instant> from = Optional.empty();

    @Option(
        names = "--before",
        paramLabel = "INSTANT",
        description = "Only traces created before this ISO-8601 instant.")
    Optional<Instant> before = Optional.empty();

    @Option(names = "--include-retired", description = "Include retired traces.")
    boolean includeRetired;

    @Option(
        names = "--limit",
        paramLabel = "N",
        description =
            "The most traces on one page, 1 to "
                + TraceQuery.MAX_LIMIT
                + " (default: ${DEFAULT-VALUE}).")
    int limit = TraceQuery.DEFAULT_LIMIT;

    @Option(
        names = "--cursor",
        paramLabel = "CURSOR",
        description = "The next cursor printed with the previous page.")
    Optional<String> cursor = Optional.empty();

    @Override
    public Integer call() {
      TraceQuery.Builder query =
          TraceQuery.in(scope).tags(tags).includeRetired(includeRetired).limit(limit);
      contains.ifPresent(query::contentContains);
      from.ifPresent(query::createdFrom);
      before.ifPresent(query::createdBefore);
      cursor.ifPresent(query::cursor);
      TraceQuery built = query.build();
      return read(traces -> traces.search(built), Output::page);
    }
  }
}
