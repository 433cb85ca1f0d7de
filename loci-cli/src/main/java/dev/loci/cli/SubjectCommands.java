package dev.loci.cli;

import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.NamespaceScope;
import dev.loci.internal.Json;
import dev.loci.subjects.AuditVerification;
import dev.loci.subjects.SubjectPolicy;
import dev.loci.subjects.Subjects;
import dev.loci.subjects.SubjectsWire;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loci subject ...}, {@code loci audit ...} and {@code loci retention ...}: data subjects
 * from the command line. Output is JSON in the API's wire format. Everything that exports an audit
 * log, erases or changes retention takes {@code --legal-token}, a token of the legal role from
 * {@code loci.toml}, whose id is recorded in the audit log of every subject it touches.
 */
final class SubjectCommands {
  private SubjectCommands() {}

  /** A subject subcommand: opens the data directory and hands over its subjects facade. */
  abstract static class SubjectCommand extends LociCommand {
    interface Op {
      Object run(Subjects subjects, Loci loci);
    }

    final Integer run(boolean write, Op op) {
      try (Loci loci = write ? open() : openExisting()) {
        Object out = op.run(Subjects.of(loci), loci);
        output()
            .jsonLine(
                out instanceof String s
                    ? s
                    : Json.write((com.fasterxml.jackson.databind.JsonNode) out));
      }
      return ExitCode.OK;
    }
  }

  /** The {@code --ns SCOPE} option of commands that may reach a subtree; absent means none. */
  static final class OptionalScope {
    @Option(
        names = "--ns",
        paramLabel = "SCOPE",
        description = "A namespace (acme), or a namespace and all below it (acme.*).")
    Optional<NamespaceScope> scope = Optional.empty();
  }

  @Command(
      name = "subject",
      mixinStandardHelpOptions = true,
      description = "Data subjects: what is held about one, their policy, their erasure.",
      subcommands = {
        SubjectCommands.Show.class,
        SubjectCommands.Erase.class,
        SubjectCommands.Policy.class
      })
  static final class Subject {}

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = {
        "The subject's manifest: every record that names them (trace, pathway trace, governed"
            + " memory) with every version, counts by kind, namespaces, the policy and vertical"
            + " that apply, and the erasure if there was one.",
        "Ids and versions only, never content. Every namespace unless --ns is given."
      })
  static final class Show extends SubjectCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The subject's id.")
    String id;

    @Mixin OptionalScope ns;

    @Override
    public Integer call() {
      return run(
          false,
          (s, loci) ->
              SubjectsWire.manifest(
                  ns.scope.map(x -> s.manifest(id, x)).orElseGet(() -> s.manifest(id))));
    }
  }

  @Command(
      name = "erase",
      mixinStandardHelpOptions = true,
      description = {
        "Erase every record in --ns that names the subject, in every version: the journal is"
            + " rewritten without the content, state and snapshots replaced; ids and version"
            + " chains stay and every other record keeps its history.",
        "Stops writes while it runs; a crash leaves an intent that the next open completes."
      })
  static final class Erase extends SubjectCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The subject's id.")
    String id;

    @Option(
        names = "--ns",
        required = true,
        paramLabel = "SCOPE",
        description = "Where to erase: a namespace (acme.hr), or one and all below it (acme.*).")
    NamespaceScope scope;

    @Option(
        names = "--reason",
        required = true,
        paramLabel = "TEXT",
        description = "Why (the request's reference), recorded in the audit log.")
    String reason;

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      LegalCapability cap = legal.capability(this, Optional.of(scope), "erase");
      return run(
          true,
          (s, loci) -> SubjectsWire.erasure(id, s.erase(cap, scope, scope.root(), id, reason)));
    }
  }

  @Command(
      name = "policy",
      mixinStandardHelpOptions = true,
      description =
          "Set the subject's policy (replacing it): retention, legal hold, vertical, legal basis.")
  static final class Policy extends SubjectCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The subject's id.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--retain-days",
        paramLabel = "DAYS",
        description = "Keep each record this many days after its last write (1-36500).")
    Optional<Integer> retainDays = Optional.empty();

    @Option(
        names = "--legal-hold",
        description = "Keep every record of the subject past any retention.")
    boolean legalHold;

    @Option(names = "--vertical", paramLabel = "NAME", description = "For example healthcare.")
    Optional<String> vertical = Optional.empty();

    @Option(names = "--legal-basis", paramLabel = "TEXT", description = "Recorded as given.")
    Optional<String> legalBasis = Optional.empty();

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      SubjectPolicy p = new SubjectPolicy(days(retainDays), legalHold, vertical, legalBasis);
      LegalCapability cap =
          legal.capability(this, Optional.of(NamespaceScope.exactly(ns.ns)), "subject policy");
      return run(true, (s, loci) -> SubjectsWire.policy(s.setPolicy(cap, ns.ns, id, p)));
    }
  }

  static OptionalInt days(Optional<Integer> days) {
    return days.map(OptionalInt::of).orElse(OptionalInt.empty());
  }

  @Command(
      name = "audit",
      mixinStandardHelpOptions = true,
      description = "The per-subject HMAC-chained audit logs.",
      subcommands = {
        SubjectCommands.AuditVerify.class,
        SubjectCommands.AuditExport.class,
        SubjectCommands.AuditRotateKey.class
      })
  static final class Audit {}

  @Command(
      name = "verify",
      mixinStandardHelpOptions = true,
      description = {
        "Recompute the HMAC chain of every subject's audit log (or one's) and check each holds"
            + " every entry the journal accounts for.",
        "Exits 1 naming the first bad entry on any edit, deletion, reordering or truncation."
      })
  static final class AuditVerify extends SubjectCommand {
    @Option(names = "--subject", paramLabel = "ID", description = "Only this subject's log.")
    Optional<String> subject = Optional.empty();

    @Override
    public Integer call() {
      AuditVerification[] v = new AuditVerification[1];
      run(
          false,
          (s, loci) -> {
            v[0] = s.verifyAudit(subject);
            return SubjectsWire.verification(v[0]);
          });
      if (!v[0].ok()) {
        spec.commandLine().getErr().println("loci: audit log damaged: " + v[0].problems().get(0));
        return ExitCode.SOFTWARE;
      }
      return ExitCode.OK;
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description =
          "Print a subject's audit log, one JSON entry per line, as kept; the export is recorded"
              + " in it first.")
  static final class AuditExport extends SubjectCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The subject's id.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      LegalCapability cap =
          legal.capability(this, Optional.of(NamespaceScope.exactly(ns.ns)), "audit export");
      return run(true, (s, loci) -> String.join("\n", s.auditLog(cap, ns.ns, id)));
    }
  }

  @Command(
      name = "rotate-key",
      mixinStandardHelpOptions = true,
      description =
          "Start a new audit key: new entries are signed with it, every chain records the"
              + " rotation, the old key stays to verify what it signed.")
  static final class AuditRotateKey extends SubjectCommand {
    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      LegalCapability cap = legal.capability(this, Optional.empty(), "rotate-key");
      return run(
          true,
          (s, loci) -> {
            var n = Json.object();
            n.put("key", s.rotateAuditKey(cap));
            return n;
          });
    }
  }

  @Command(
      name = "retention",
      mixinStandardHelpOptions = true,
      description = "Retention per namespace, and the sweep that erases what is past it.",
      subcommands = {
        SubjectCommands.RetentionShow.class,
        SubjectCommands.RetentionSet.class,
        SubjectCommands.RetentionSweep.class
      })
  static final class Retention {}

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "The policy that applies in a namespace: its own or its nearest ancestor's.")
  static final class RetentionShow extends SubjectCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Override
    public Integer call() {
      return run(false, (s, loci) -> SubjectsWire.policy(s.namespacePolicy(ns.ns)));
    }
  }

  @Command(
      name = "set",
      mixinStandardHelpOptions = true,
      description = "Set a namespace's retention and vertical, inherited below it.")
  static final class RetentionSet extends SubjectCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--retain-days",
        paramLabel = "DAYS",
        description = "Keep each record this many days after its last write (1-36500).")
    Optional<Integer> retainDays = Optional.empty();

    @Option(names = "--vertical", paramLabel = "NAME", description = "For example healthcare.")
    Optional<String> vertical = Optional.empty();

    @Mixin LegalOption legal;

    @Override
    public Integer call() {
      SubjectPolicy p = new SubjectPolicy(days(retainDays), false, vertical, Optional.empty());
      LegalCapability cap =
          legal.capability(this, Optional.of(NamespaceScope.exactly(ns.ns)), "retention set");
      return run(true, (s, loci) -> SubjectsWire.policy(s.setNamespacePolicy(cap, ns.ns, p)));
    }
  }

  @Command(
      name = "sweep",
      mixinStandardHelpOptions = true,
      description = {
        "Erase every subject record past its retention (a legal hold on any subject it names"
            + " keeps it); serve runs this daily.",
        "With --dry-run, list what would go and change nothing."
      })
  static final class RetentionSweep extends SubjectCommand {
    @Option(names = "--dry-run", description = "List only.")
    boolean dryRun;

    @Mixin OptionalScope ns;

    @Override
    public Integer call() {
      Instant now = Instant.now();
      return run(
          !dryRun,
          (s, loci) ->
              SubjectsWire.sweep(
                  ns.scope
                      .map(x -> s.sweep(x, now, dryRun))
                      .orElseGet(() -> s.sweep(now, dryRun))));
    }
  }
}
