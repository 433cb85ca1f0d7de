package dev.loci.cli;

import dev.loci.Namespace;
import dev.loci.mcp.LociMcpServer;
import dev.loci.postgres.JournalOptions;
import dev.loci.postgres.PostgresJournal;
import dev.loci.server.ConfigFile;
import dev.loci.server.Credential;
import dev.loci.server.Grant;
import dev.loci.server.LociServer;
import dev.loci.server.RequestLimits;
import dev.loci.server.Role;
import dev.loci.server.ServerConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Option;

/** {@code loci serve} and {@code loci token ...}: the HTTP server and its credentials. */
final class ServerCommands {
  private ServerCommands() {}

  /** The {@code --config} option: {@code loci.toml} in the data directory unless given. */
  static final class ConfigOption {
    @Option(
        names = "--config",
        paramLabel = "FILE",
        description = "The server configuration (default: loci.toml in the data directory).")
    Optional<Path> file = Optional.empty();

    Path resolve(Main main) {
      return file.orElse(main.dataDir().resolve(ConfigFile.NAME));
    }
  }

  @Command(
      name = "serve",
      mixinStandardHelpOptions = true,
      description = {
        "Serve the data directory over HTTP (API v1 under /v1, the web UI under /ui, /health,"
            + " /metrics) until stopped"
            + " with Ctrl-C or SIGTERM, which lets requests in flight finish first.",
        "With no credential in loci.toml every request is allowed, and only a loopback address"
            + " may be bound. One JSON line per request goes to stdout."
      })
  static final class Serve extends LociCommand {
    /** How often a server over a shared journal asks for its head when no notification came. */
    static final Duration FOLLOW_POLL = Duration.ofSeconds(1);

    @picocli.CommandLine.Mixin ConfigOption config;

    @picocli.CommandLine.Mixin RecallCommands.EmbeddingOption embedding;

    @Option(
        names = "--host",
        paramLabel = "ADDRESS",
        description = "The address to listen on (default: loci.toml's, else 127.0.0.1).")
    Optional<String> host = Optional.empty();

    @Option(
        names = "--port",
        paramLabel = "PORT",
        description = "The port to listen on, 0 for any (default: loci.toml's, else 7070).")
    Optional<Integer> port = Optional.empty();

    @Option(
        names = "--retention-sweep-hours",
        paramLabel = "HOURS",
        defaultValue = "24",
        description =
            "How often to erase subject records past their retention, in hours; 0 never"
                + " (default: ${DEFAULT-VALUE}).")
    int sweepHours;

    @Option(
        names = "--conflict-sweep-hours",
        paramLabel = "HOURS",
        defaultValue = "24",
        description =
            "How often to sweep every namespace for governed records that disagree and have no"
                + " open conflict, in hours; 0 never (default: ${DEFAULT-VALUE}).")
    int conflictSweepHours;

    @Override
    public Integer call() throws InterruptedException {
      if (conflictSweepHours < 0) {
        throw usageError("--conflict-sweep-hours: expected 0 or more, found " + conflictSweepHours);
      }
      if (sweepHours < 0) {
        throw usageError("--retention-sweep-hours: expected 0 or more, found " + sweepHours);
      }
      Path configFile = config.resolve(main());
      ServerConfig cfg = ConfigFile.load(configFile);
      if (host.isPresent()) {
        cfg = cfg.withHost(host.get());
      }
      if (port.isPresent()) {
        cfg = cfg.withPort(port.get());
      }
      embedding.check();
      RequestLimits limits = cfg.limits();
      PrintWriter out = spec.commandLine().getOut();
      AtomicReference<PostgresJournal> shared = new AtomicReference<>();
      LociServer server =
          LociServer.builder(
                  main()
                      .builder(
                          shared::set,
                          ConfigFile.journalUrl(configFile),
                          ConfigFile.journalPoolSize(
                              configFile,
                              JournalOptions.MIN_POOL_SIZE,
                              JournalOptions.MAX_POOL_SIZE)))
              .config(cfg)
              .configFile(configFile)
              .embeddings(opened -> embedding.open(opened.dataDir()))
              .routes(
                  (opened, provider) ->
                      LociMcpServer.create(opened, provider, Namespace.of("default"), limits)
                          .routes())
              .web(dev.loci.ui.LociUi::create)
              .retentionSweepEvery(java.time.Duration.ofHours(sweepHours))
              .conflictSweepEvery(java.time.Duration.ofHours(conflictSweepHours))
              .accessLog(
                  line -> {
                    synchronized (out) {
                      out.println(line);
                    }
                  })
              .start();
      if (shared.get() != null) {
        // other servers append to the same journal: apply their batches as they arrive
        shared.get().follow(server.loci()::tryCatchUp, FOLLOW_POLL);
      }
      Thread hook = new Thread(server::close, "loci-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      output()
          .note(
              "serving "
                  + main().dataDir()
                  + (shared.get() != null ? " (journal: " + shared.get() + ")" : "")
                  + " on http://"
                  + server.host()
                  + ":"
                  + server.port()
                  + " (embeddings: "
                  + embedding.name
                  + ")"
                  + (cfg.credentials().isEmpty()
                      ? " with no credential configured: every request is allowed (loopback only)"
                      : " for " + cfg.credentials().size() + " credential(s) in " + configFile));
      server.awaitStop();
      return ExitCode.OK;
    }
  }

  @Command(
      name = "token",
      mixinStandardHelpOptions = true,
      description = "Manage the bearer tokens the server accepts.",
      subcommands = {
        ServerCommands.TokenCreate.class,
        ServerCommands.TokenList.class,
        ServerCommands.TokenRevoke.class
      })
  static final class Token {}

  @Command(
      name = "create",
      mixinStandardHelpOptions = true,
      description = {
        "Create a random bearer token, store only its SHA-256 in loci.toml, and print the token"
            + " once on stdout. A running server that reads this file accepts it within a second."
      })
  static final class TokenCreate extends LociCommand {
    @picocli.CommandLine.Mixin ConfigOption config;

    @Option(
        names = "--role",
        required = true,
        paramLabel = "ROLE",
        description = "reader, writer, reviewer, admin or legal.")
    String role;

    @Option(
        names = "--ns",
        required = true,
        paramLabel = "SCOPE",
        description =
            "A namespace the token may reach: 'acme' exactly, 'acme.*' and below, or '*';"
                + " repeatable.")
    List<String> namespaces = new ArrayList<>();

    @Option(
        names = "--id",
        paramLabel = "NAME",
        description = "A name for the token in logs (default: derived from its hash).")
    Optional<String> id = Optional.empty();

    @Override
    public Integer call() {
      Role r;
      List<Grant> grants = new ArrayList<>();
      try {
        r = Role.of(role);
        namespaces.forEach(n -> grants.add(Grant.of(n)));
      } catch (IllegalArgumentException e) {
        throw usageError("--role: " + e.getMessage());
      } catch (dev.loci.InvalidRequestException e) {
        throw usageError("--ns: " + e.getMessage());
      }
      Path file = config.resolve(main());
      ConfigFile.IssuedToken token = ConfigFile.addToken(file, r, grants, id);
      spec.commandLine().getOut().println(token.token());
      output()
          .note(
              "token "
                  + token.id()
                  + " ("
                  + r.label()
                  + ", "
                  + String.join(", ", namespaces)
                  + ") stored hashed in "
                  + file
                  + "; it is shown only now");
      return ExitCode.OK;
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the tokens in loci.toml: id, role and namespaces (never the token).")
  static final class TokenList extends LociCommand {
    @picocli.CommandLine.Mixin ConfigOption config;

    @Override
    public Integer call() {
      output().credentials(ConfigFile.load(config.resolve(main())).credentials());
      return ExitCode.OK;
    }
  }

  @Command(
      name = "revoke",
      mixinStandardHelpOptions = true,
      description = {
        "Remove a token from loci.toml, keeping the rest of the file. A running server that reads"
            + " this file stops accepting it within a second."
      })
  static final class TokenRevoke extends LociCommand {
    @picocli.CommandLine.Mixin ConfigOption config;

    @picocli.CommandLine.Parameters(paramLabel = "ID", description = "The token's id.")
    String id;

    @Override
    public Integer call() {
      Path file = config.resolve(main());
      Credential gone = ConfigFile.revokeToken(file, id);
      output().note("token " + gone.id() + " (" + gone.role().label() + ") removed from " + file);
      return ExitCode.OK;
    }
  }
}
