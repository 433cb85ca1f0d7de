package dev.loci.cli;

import dev.loci.Damage;
import dev.loci.Durability;
import dev.loci.InvalidRequestException;
import dev.loci.Loci;
import dev.loci.postgres.JournalOptions;
import dev.loci.postgres.PostgresJournal;
import dev.loci.postgres.PostgresUrl;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code loci} command: the global options every subcommand inherits, and the entry points.
 *
 * <p>{@link #main} runs the command line and exits the JVM with its exit code; {@link #run} does
 * the same in-process and returns the code, for tests and embedding. Each run builds a fresh
 * command tree, so runs share no state.
 */
@Command(
    name = "loci",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Loci, a local-first memory engine for AI agents.",
    subcommands = {
      ServerCommands.Serve.class,
      ServerCommands.Token.class,
      TraceCommands.class,
      PathwayCommands.class,
      GovernCommands.Memories.class,
      EntityCommands.Entities.class,
      EntityCommands.Capture.class,
      GovernCommands.Review.class,
      GovernCommands.Conflicts.class,
      GovernCommands.State.class,
      GovernCommands.Context.class,
      McpCommand.class,
      RecallCommands.Ingest.class,
      RecallCommands.Recall.class,
      RecallCommands.Demo.class,
      PalaceCommands.Spaces.class,
      PalaceCommands.FeedbackCommand.class,
      PalaceCommands.Consolidate.class,
      PalaceCommands.Lifecycle.class,
      InteropCommands.Import.class,
      InteropCommands.Export.class,
      SubjectCommands.Subject.class,
      SubjectCommands.Audit.class,
      SubjectCommands.Retention.class,
      AdminCommands.Verify.class,
      AdminCommands.Compact.class,
      BenchCommands.class
    })
public final class Main {
  /**
   * The core logs the damage it finds on open; the CLI prints {@link Loci#openDamage()} itself, so
   * only errors are let through. Held here so the configured logger is not garbage-collected.
   */
  private static final Logger CORE_LOG = Logger.getLogger("dev.loci");

  /**
   * Jetty and Javalin (the server), and HikariCP and Flyway (the PostgreSQL journal), log through
   * java.util.logging; only warnings are shown.
   */
  /**
   * The server's own warnings (a refused reload of loci.toml, an incident) must show although the
   * core's are quiet: this logger is below {@link #CORE_LOG} and overrides its level.
   */
  private static final Logger SERVER_LOG = Logger.getLogger("dev.loci.server");

  private static final java.util.List<Logger> SERVER_LOGS =
      java.util.List.of(
          Logger.getLogger("org.eclipse.jetty"),
          Logger.getLogger("io.javalin"),
          Logger.getLogger("com.zaxxer.hikari"),
          Logger.getLogger("org.flywaydb"));

  /**
   * DJL (the ONNX embedding's tokenizer) warns on every start of a machine without a GPU and logs
   * where it found its native library; only errors are shown.
   */
  private static final Logger DJL_LOG = Logger.getLogger("ai.djl");

  @Option(
      names = "--data",
      scope = ScopeType.INHERIT,
      defaultValue = "./loci-data",
      paramLabel = "DIR",
      description = "The data directory (default: ${DEFAULT-VALUE}).")
  private Path dataDir;

  @Option(
      names = "--json",
      scope = ScopeType.INHERIT,
      description = "Print machine-readable JSON instead of text.")
  private boolean json;

  @Option(
      names = "--durability",
      scope = ScopeType.INHERIT,
      defaultValue = "always",
      paramLabel = "POLICY",
      description =
          "When a write counts as done: always, none or interval=<ms> (default: ${DEFAULT-VALUE}).")
  private Durability durability;

  @Option(
      names = "--journal",
      scope = ScopeType.INHERIT,
      defaultValue = "${env:LOCI_JOURNAL}",
      paramLabel = "URL",
      description =
          "Keep the journal in PostgreSQL instead of DIR/journal, shared with other servers:"
              + " postgresql://[user[:password]@]host[:port]/database (default: the LOCI_JOURNAL"
              + " environment variable; the password may also come from PGPASSWORD). Snapshots"
              + " and indexes stay in the data directory.")
  private String journal;

  @Option(
      names = "--journal-pool-size",
      scope = ScopeType.INHERIT,
      paramLabel = "N",
      description =
          "Connections to the PostgreSQL journal, 3 to 1000 (default: loci.toml's [journal]"
              + " pool_size for serve, else 4).")
  private Integer journalPoolSize;

  private final InputStream stdin;
  private final PrintWriter out;
  private final PrintWriter err;
  private final PrintStream errStream;
  private final PrintStream outStream;

  private Main(
      InputStream stdin,
      PrintWriter out,
      PrintWriter err,
      PrintStream errStream,
      PrintStream outStream) {
    this.stdin = stdin;
    this.out = out;
    this.err = err;
    this.errStream = errStream;
    this.outStream = outStream;
  }

  /** Runs the command line with the process's standard streams and exits with its exit code. */
  public static void main(String... args) {
    CORE_LOG.setLevel(Level.SEVERE);
    SERVER_LOGS.forEach(l -> l.setLevel(Level.WARNING));
    SERVER_LOG.setLevel(Level.WARNING);
    DJL_LOG.setLevel(Level.SEVERE);
    System.exit(run(System.in, System.out, System.err, args));
  }

  /**
   * Runs the command line in-process and returns its exit code: 0 ok, 1 failure, 2 usage error or
   * invalid input. Output is written as UTF-8 and flushed before returning.
   *
   * @param stdin what {@code --content -} reads
   * @param out where results go
   * @param err where errors and warnings go
   * @param args the arguments, without the program name
   */
  public static int run(InputStream stdin, PrintStream out, PrintStream err, String... args) {
    PrintWriter o = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    PrintWriter e = new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    try {
      return commandLine(new Main(stdin, o, e, err, out)).execute(args);
    } finally {
      o.flush();
      e.flush();
    }
  }

  /**
   * The command line with its options and subcommands, on null streams, for checking that a command
   * line parses (the documentation test) without running it.
   */
  static CommandLine parser() {
    PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream(), true);
    PrintWriter none = new PrintWriter(OutputStream.nullOutputStream(), true);
    return commandLine(new Main(InputStream.nullInputStream(), none, none, nowhere, nowhere));
  }

  private static CommandLine commandLine(Main main) {
    CommandLine cmd = new CommandLine(main).setExpandAtFiles(false);
    Converters.register(cmd);
    ErrorHandler handler = new ErrorHandler();
    return cmd.setOut(main.out)
        .setErr(main.err)
        .setExecutionExceptionHandler(handler)
        .setParameterExceptionHandler(handler);
  }

  /**
   * Opens the data directory with the global options and prints the damage found on the way as
   * warnings. The caller closes it. Commands that only read pass {@code create = false}, so a
   * mistyped {@code --data} is reported instead of becoming a new, empty store.
   */
  Loci open(boolean create) {
    return open(create, j -> {});
  }

  /** Like {@link #open(boolean)}, telling {@code opened} the PostgreSQL journal if there is one. */
  Loci open(boolean create, Consumer<PostgresJournal> opened) {
    Loci loci = builder(opened).createIfMissing(create).open();
    Output output = output();
    for (Damage d : loci.openDamage()) {
      output.warning(Output.describe(d));
    }
    return loci;
  }

  /**
   * A builder for the data directory with the global options; with {@code --journal}, the journal
   * is PostgreSQL's, and {@code opened} is told the journal once it is open (the server follows
   * it).
   *
   * @throws IllegalArgumentException naming {@code --journal} if its URL is not a PostgreSQL one
   */
  Loci.Builder builder(Consumer<PostgresJournal> opened) {
    return builder(opened, Optional.empty(), Optional.empty());
  }

  /**
   * Like {@link #builder(Consumer)}, with {@code configured} (a {@code [journal] url} of loci.toml)
   * as the journal when {@code --journal} and {@code LOCI_JOURNAL} give none, and {@code
   * configuredPoolSize} (its {@code pool_size}) when {@code --journal-pool-size} gives none.
   */
  Loci.Builder builder(
      Consumer<PostgresJournal> opened,
      Optional<String> configured,
      Optional<Integer> configuredPoolSize) {
    Loci.Builder builder = Loci.builder().dataDir(dataDir).durability(durability);
    JournalOptions options =
        journalOptions(configuredPoolSize.orElse(JournalOptions.DEFAULT_POOL_SIZE));
    journalUrl()
        .or(() -> configured.map(url -> parseJournal(url, "[journal] url")))
        .ifPresent(
            url ->
                builder.journal(
                    d -> {
                      PostgresJournal j = PostgresJournal.open(url, options.withDataDir(d));
                      opened.accept(j);
                      return j;
                    }));
    return builder;
  }

  /**
   * The PostgreSQL journal given by {@code --journal} or {@code LOCI_JOURNAL}, if any.
   *
   * @throws InvalidRequestException naming {@code journal} if it is not a PostgreSQL URL
   */
  Optional<PostgresUrl> journalUrl() {
    if (journal == null || journal.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(parseJournal(journal, "--journal"));
  }

  /**
   * The journal's options with {@code --journal-pool-size}, else {@code fallback} connections.
   *
   * @throws InvalidRequestException naming {@code journal-pool-size} if it is out of range
   */
  JournalOptions journalOptions(int fallback) {
    int size = journalPoolSize != null ? journalPoolSize : fallback;
    try {
      return JournalOptions.defaults().withPoolSize(size);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(
          "journal-pool-size",
          "--journal-pool-size: expected "
              + JournalOptions.MIN_POOL_SIZE
              + " to "
              + JournalOptions.MAX_POOL_SIZE
              + " connections, found "
              + size);
    }
  }

  private static PostgresUrl parseJournal(String url, String where) {
    try {
      return PostgresUrl.parse(url);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException("journal", where + ": " + e.getMessage());
    }
  }

  /** When a write counts as done, as {@code --durability} says. */
  Durability durability() {
    return durability;
  }

  /** The data directory given by {@code --data}. */
  Path dataDir() {
    return dataDir;
  }

  /** Standard error as a stream, for progress lines of long runs. */
  PrintStream errStream() {
    return errStream;
  }

  /** Standard output as a stream of bytes, for {@code loci mcp}'s JSON-RPC. */
  PrintStream outStream() {
    return outStream;
  }

  /** Where {@code --content -} reads from. */
  InputStream stdin() {
    return stdin;
  }

  /** Prints results in the format {@code --json} selects. */
  Output output() {
    return new Output(out, err, json);
  }

  /** Reports the version recorded in the jar's manifest. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"loci " + (v == null ? "(development build)" : v)};
    }
  }
}
