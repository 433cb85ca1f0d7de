package dev.loci.cli;

import dev.loci.Loci;
import dev.loci.VerifyReport;
import dev.loci.postgres.PostgresJournal;
import dev.loci.postgres.PostgresUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Option;

/** {@code loci verify} and {@code loci compact}: looking after a data directory. */
final class AdminCommands {
  private AdminCommands() {}

  @Command(
      name = "verify",
      mixinStandardHelpOptions = true,
      description = {
        "Check every journal segment and snapshot of the data directory and list the damage;"
            + " with --journal, every batch of the PostgreSQL journal instead.",
        "Reads only, so it can run beside a live instance. Exits 1 if committed data may be"
            + " missing or unreadable; a torn tail alone is a warning."
      })
  static final class Verify extends LociCommand {
    @Override
    public Integer call() {
      Optional<PostgresUrl> shared = main().journalUrl();
      if (shared.isPresent()) {
        VerifyReport report = PostgresJournal.verify(shared.get());
        output().verified(shared.get().redacted(), report);
        if (!report.ok()) {
          spec.commandLine().getErr().println("loci: damage found in " + shared.get());
          return ExitCode.SOFTWARE;
        }
        return ExitCode.OK;
      }
      Path dataDir = main().dataDir();
      if (!Files.isDirectory(dataDir)) {
        throw usageError("no data directory at " + dataDir);
      }
      VerifyReport report = Loci.verify(dataDir);
      output().verified(dataDir.toString(), report);
      if (!report.ok()) {
        spec.commandLine().getErr().println("loci: damage found in " + dataDir);
        return ExitCode.SOFTWARE;
      }
      return ExitCode.OK;
    }
  }

  @Command(
      name = "compact",
      mixinStandardHelpOptions = true,
      description = {
        "Write a snapshot, then delete the journal segments and older snapshots it covers.",
        "Damaged lines in deleted segments go with them; the command warns when there were any.",
        "With --journal the rows stay (other servers share them): the snapshot is registered for"
            + " this data directory, and --archive moves the rows every registered server's"
            + " snapshot covers to loci_batch_archive."
      })
  static final class Compact extends LociCommand {
    @Option(
        names = "--archive",
        description =
            "With --journal: then move the batches at or below the lowest snapshot any"
                + " registered server holds to loci_batch_archive (reads still see them).")
    boolean archive;

    @Option(
        names = "--forget-server",
        paramLabel = "ID",
        description =
            "With --journal: first forget the registered server ID (one retired for good: its"
                + " snapshot no longer holds --archive back). Repeatable.")
    List<String> forget = new ArrayList<>();

    @Override
    public Integer call() {
      if ((archive || !forget.isEmpty()) && main().journalUrl().isEmpty()) {
        throw usageError(
            (archive ? "--archive" : "--forget-server")
                + " needs --journal (or LOCI_JOURNAL): only a PostgreSQL journal is archived");
      }
      AtomicReference<PostgresJournal> shared = new AtomicReference<>();
      try (Loci loci = main().open(false, shared::set)) {
        long lossy = loci.openDamage().stream().filter(d -> d.kind().lossy()).count();
        Loci.CompactReport compacted = loci.compact();
        for (String id : forget) {
          if (!shared.get().forgetServer(id)) {
            output().warning("no registered server " + id + " to forget");
          }
        }
        output()
            .compacted(compacted, archive ? Optional.of(shared.get().archive()) : Optional.empty());
        if (lossy > 0) {
          output()
              .warning(
                  lossy
                      + " damage report(s) above concerned this journal; the snapshot holds what"
                      + " could be read, and damaged segments it covers are deleted, so 'loci"
                      + " verify' will no longer list them");
        }
      }
      return ExitCode.OK;
    }
  }
}
