package dev.loci.cli;

import dev.loci.Loci;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityType;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Provenance;
import dev.loci.govern.RelationType;
import dev.loci.govern.Reviewer;
import dev.loci.govern.SourceRef;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.internal.Json;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loci entity ...} and {@code loci capture}: typed entities and interaction capture from the
 * command line, printed as JSON in the API's wire format. Trusting acts take {@code --reviewer
 * NAME}, recorded as the decision's holder (see {@link GovernCommands}).
 */
final class EntityCommands {
  private EntityCommands() {}

  /** An entity subcommand: opens the data directory, runs {@code op}, prints its JSON. */
  abstract static class EntityCommand extends LociCommand {
    final Integer run(boolean write, Function<GovernedEntities, Object> op) {
      try (Loci loci = write ? open() : openExisting()) {
        output().jsonLine(Json.write(GovernCommands.wire(op.apply(GovernedEntities.of(loci)))));
      }
      return ExitCode.OK;
    }
  }

  @Command(
      name = "entity",
      mixinStandardHelpOptions = true,
      description =
          "Typed entities (requirement, constraint, decision, fact, parameter, subsystem): add,"
              + " list, show, relate, promote, reject, set fields.",
      subcommands = {
        EntityCommands.Add.class,
        EntityCommands.ListEntities.class,
        EntityCommands.Show.class,
        EntityCommands.Relate.class,
        EntityCommands.Promote.class,
        EntityCommands.Reject.class,
        EntityCommands.Set.class
      })
  static final class Entities {}

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description = {
        "Propose an entity: a candidate for review (or the same entity reinforced).",
        "With --active and --reviewer it is trusted at once; conflicts it opens are printed."
      })
  static final class Add extends EntityCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--type", required = true, paramLabel = "TYPE", description = "Its type.")
    String type;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "Its name.")
    String name;

    @Option(
        names = "--field",
        paramLabel = "NAME=VALUE",
        description = "A field; repeatable (for a fact or parameter: value=\"16 bar\").")
    Map<String, String> fields = new LinkedHashMap<>();

    @Option(
        names = "--source",
        paramLabel = "KIND:ID",
        description = "A source (interaction, chunk, document, result, memory); repeatable.")
    List<String> sources = new ArrayList<>();

    @Option(names = "--confidence", paramLabel = "0..1", description = "Default: 0.5.")
    double confidence = 0.5;

    @Mixin GovernCommands.ActiveOption trust;

    @Override
    public Integer call() {
      List<SourceRef> refs = new ArrayList<>();
      for (String s : sources) {
        int colon = s.indexOf(':');
        if (colon < 1) {
          throw usageError("--source: expected KIND:ID, found '" + s + "'");
        }
        refs.add(new SourceRef(s.substring(0, colon), s.substring(colon + 1)));
      }
      EntityDraft draft =
          new EntityDraft(
              EntityType.of(type, "type"),
              name,
              fields,
              confidence,
              refs,
              Provenance.of("cli"),
              Optional.empty());
      Optional<Reviewer> who = trust.trusted(this, "an entity");
      return run(
          true, e -> who.isPresent() ? e.add(ns.ns, draft, who.get()) : e.propose(ns.ns, draft));
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List entities.")
  static final class ListEntities extends EntityCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin GovernCommands.ListFilter filter;

    @Override
    public Integer call() {
      Optional<EntityType> t = filter.type.map(x -> EntityType.of(x, "type"));
      Optional<EntityStatus> s = filter.status.map(x -> EntityStatus.of(x, "status"));
      return run(false, e -> e.list(ns.ns, t, s));
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print every version of an entity, newest first.")
  static final class Show extends EntityCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The entity.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Override
    public Integer call() {
      return run(false, e -> e.history(ns.ns, id));
    }
  }

  @Command(
      name = "relate",
      mixinStandardHelpOptions = true,
      description = "Add a typed relationship: loci entity relate ID part_of TARGET.")
  static final class Relate extends EntityCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The source entity.")
    String id;

    @Parameters(index = "1", paramLabel = "TYPE", description = "part_of, depends_on, ...")
    String type;

    @Parameters(index = "2", paramLabel = "TARGET", description = "The target entity.")
    String target;

    @Mixin TraceCommands.NamespaceOption ns;

    @Override
    public Integer call() {
      RelationType t = RelationType.of(type, "type");
      return run(true, e -> e.relate(ns.ns, id, t, target));
    }
  }

  @Command(name = "promote", mixinStandardHelpOptions = true, description = "Promote a candidate.")
  static final class Promote extends EntityCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The entity.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin GovernCommands.ReviewerOption reviewer;

    @Override
    public Integer call() {
      Reviewer who = reviewer.reviewer(this);
      return run(true, e -> e.promote(ns.ns, id, who));
    }
  }

  @Command(name = "reject", mixinStandardHelpOptions = true, description = "Reject a candidate.")
  static final class Reject extends EntityCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The entity.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why.")
    String reason;

    @Mixin GovernCommands.ReviewerOption reviewer;

    @Override
    public Integer call() {
      Reviewer who = reviewer.reviewer(this);
      return run(true, e -> e.reject(ns.ns, id, reason, who));
    }
  }

  @Command(
      name = "set",
      mixinStandardHelpOptions = true,
      description = "Change fields; each changed field moves to its next version.")
  static final class Set extends EntityCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The entity.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--field",
        required = true,
        paramLabel = "NAME=VALUE",
        description = "A field; repeatable.")
    Map<String, String> fields = new LinkedHashMap<>();

    @Mixin GovernCommands.ReviewerOption reviewer;

    @Override
    public Integer call() {
      Reviewer who = reviewer.reviewer(this);
      return run(true, e -> e.update(ns.ns, id, fields, who));
    }
  }

  @Command(
      name = "capture",
      mixinStandardHelpOptions = true,
      description = {
        "Capture an interaction and extract candidates from it (rule-based).",
        "Prints the interaction and the memory and entity candidates it produced."
      })
  static final class Capture extends LociCommand {
    @Parameters(
        index = "0",
        paramLabel = "TEXT",
        description = "What was said; '-' reads it from stdin, '@FILE' from a file.")
    String text;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--speaker", paramLabel = "WHO", description = "Default: user.")
    String speaker = "user";

    @Option(names = "--time", paramLabel = "INSTANT", description = "When it was said.")
    Optional<String> time = Optional.empty();

    @Option(
        names = "--subject",
        paramLabel = "ID",
        description =
            "A data subject the exchange is about; repeatable. The interaction and the memory"
                + " candidates extracted from it name them.")
    List<String> subjects = new ArrayList<>();

    @Option(
        names = "--target",
        paramLabel = "KIND",
        description = "memory, entities or both (default: both).")
    String target = "both";

    @Override
    public Integer call() {
      String body = TraceCommands.readArgument(this, "TEXT", text);
      ExtractionTarget t = ExtractionTarget.of(target, "target");
      Optional<Instant> said;
      try {
        said = time.map(Instant::parse);
      } catch (DateTimeParseException e) {
        throw usageError("--time: expected an ISO-8601 instant, found '" + time.get() + "'");
      }
      try (Loci loci = open()) {
        output()
            .jsonLine(
                Json.write(
                    GovernCommands.wire(
                        GovernedMemory.of(loci).capture(ns.ns, body, speaker, said, subjects, t))));
      }
      return ExitCode.OK;
    }
  }
}
