package dev.loci.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.loci.Loci;
import dev.loci.govern.Candidate;
import dev.loci.govern.Conflict;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityWire;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.Extraction;
import dev.loci.govern.GovernWire;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Provenance;
import dev.loci.govern.Reviewer;
import dev.loci.govern.StateEntry;
import dev.loci.govern.Written;
import dev.loci.internal.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loci memory ...}, {@code loci review}, {@code loci conflicts ...}, {@code loci state ...}
 * and {@code loci context}: governed memory from the command line. Output is JSON in the API's wire
 * format, one line per result. Acts that make a record trusted take {@code --reviewer NAME}: the
 * command line runs as the owner of the data directory, like the embedded API, so the name is not
 * proof of anything; it is what the journal records as the decision's holder, and it must be given
 * explicitly.
 */
final class GovernCommands {
  private GovernCommands() {}

  /** The {@code --reviewer} option of trusting acts. */
  static final class ReviewerOption {
    @Option(
        names = "--reviewer",
        required = true,
        paramLabel = "NAME",
        description = "Who decides, recorded with the decision.")
    String name;

    Reviewer reviewer(LociCommand command) {
      try {
        return new Reviewer(name);
      } catch (IllegalArgumentException e) {
        throw command.usageError("--reviewer: " + e.getMessage());
      }
    }
  }

  /**
   * The {@code --active} and {@code --reviewer} options of {@code memory add} and {@code entity
   * add}: a new record is a candidate, or trusted at once when a reviewer is named.
   */
  static final class ActiveOption {
    @Option(names = "--active", description = "Trusted at once (needs --reviewer).")
    boolean active;

    @Option(
        names = "--reviewer",
        paramLabel = "NAME",
        description = "Who trusts it, with --active.")
    Optional<String> reviewer = Optional.empty();

    /** The reviewer who trusts the new {@code kind} ("a memory") at once; empty: a candidate. */
    Optional<Reviewer> trusted(LociCommand command, String kind) {
      if (!active) {
        return Optional.empty();
      }
      if (reviewer.isEmpty()) {
        throw command.usageError("--active: " + kind + " trusted at once needs --reviewer NAME");
      }
      try {
        return Optional.of(new Reviewer(reviewer.get()));
      } catch (IllegalArgumentException e) {
        throw command.usageError("--reviewer: " + e.getMessage());
      }
    }
  }

  /**
   * The {@code --type} and {@code --status} filters of {@code memory list} and {@code entity list}.
   */
  static final class ListFilter {
    @Option(names = "--type", paramLabel = "TYPE", description = "Only this type.")
    Optional<String> type = Optional.empty();

    @Option(names = "--status", paramLabel = "STATUS", description = "Only this status.")
    Optional<String> status = Optional.empty();
  }

  /** A governed-memory subcommand: opens the data directory, runs {@code op}, prints its JSON. */
  abstract static class GovernCommand extends LociCommand {
    final Integer run(boolean write, Function<GovernedMemory, Object> op) {
      try (Loci loci = write ? open() : openExisting()) {
        output().jsonLine(Json.write(wire(op.apply(GovernedMemory.of(loci)))));
      }
      return ExitCode.OK;
    }
  }

  static com.fasterxml.jackson.databind.JsonNode wire(Object value) {
    if (value instanceof Memory m) {
      return GovernWire.memory(m);
    }
    if (value instanceof Conflict c) {
      return GovernWire.conflict(c);
    }
    if (value instanceof StateEntry e) {
      return GovernWire.state(e);
    }
    if (value instanceof Written w) {
      return GovernWire.written(w);
    }
    if (value instanceof ContextPack p) {
      return GovernWire.contextPack(p);
    }
    if (value instanceof Candidate c) {
      return EntityWire.candidate(c);
    }
    if (value instanceof Entity e) {
      return EntityWire.entity(e);
    }
    if (value instanceof EntityWritten w) {
      return EntityWire.written(w);
    }
    if (value instanceof Extraction x) {
      return EntityWire.extraction(x);
    }
    if (value instanceof List<?> list) {
      ArrayNode items = Json.MAPPER.createArrayNode();
      list.forEach(v -> items.add(wire(v)));
      return Json.object().set("items", items);
    }
    throw new IllegalArgumentException("no wire form for " + value.getClass());
  }

  @Command(
      name = "memory",
      mixinStandardHelpOptions = true,
      description = "Governed memories: propose, list, show, reinforce, graduate.",
      subcommands = {
        GovernCommands.MemoryAdd.class,
        GovernCommands.MemoryList.class,
        GovernCommands.MemoryShow.class,
        GovernCommands.MemoryReinforce.class,
        GovernCommands.MemoryGraduate.class
      })
  static final class Memories {}

  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description = {
        "Propose a memory: a candidate for review (or the same fact reinforced).",
        "With --active and --reviewer it is trusted at once; a contradiction it causes succeeds"
            + " and is printed in \"conflicts\"."
      })
  static final class MemoryAdd extends GovernCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--type",
        required = true,
        paramLabel = "TYPE",
        description = "identity," + " preference, episodic, knowledge, project or adaptation.")
    String type;

    @Option(names = "--content", required = true, paramLabel = "TEXT", description = "The fact.")
    String content;

    @Option(names = "--confidence", paramLabel = "0..1", description = "Default: 0.5.")
    double confidence = 0.5;

    @Option(names = "--slot", paramLabel = "SLOT", description = "What it is about, for conflicts.")
    Optional<String> slot = Optional.empty();

    @Option(names = "--subject", paramLabel = "ID", description = "A data subject; repeatable.")
    List<String> subjects = new ArrayList<>();

    @Mixin ActiveOption trust;

    @Override
    public Integer call() {
      MemoryDraft draft =
          new MemoryDraft(
              MemoryType.of(type, "type"),
              content,
              confidence,
              slot,
              subjects,
              Provenance.of("cli"));
      Optional<Reviewer> who = trust.trusted(this, "a memory");
      return run(
          true, g -> who.isPresent() ? g.add(ns.ns, draft, who.get()) : g.propose(ns.ns, draft));
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List memories.")
  static final class MemoryList extends GovernCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin ListFilter filter;

    @Override
    public Integer call() {
      Optional<MemoryType> t = filter.type.map(x -> MemoryType.of(x, "type"));
      Optional<MemoryStatus> s = filter.status.map(x -> MemoryStatus.of(x, "status"));
      return run(false, g -> g.list(ns.ns, t, s));
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Print every version of a memory, newest first.")
  static final class MemoryShow extends GovernCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The memory.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Override
    public Integer call() {
      return run(false, g -> g.history(ns.ns, id));
    }
  }

  @Command(
      name = "reinforce",
      mixinStandardHelpOptions = true,
      description = "The same fact seen again: raise its confidence and reinforcement count.")
  static final class MemoryReinforce extends GovernCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The memory.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Override
    public Integer call() {
      return run(true, g -> g.reinforce(ns.ns, id));
    }
  }

  @Command(
      name = "graduate",
      mixinStandardHelpOptions = true,
      description = {
        "Graduate an active knowledge, project or adaptation memory into an entity candidate.",
        "The memory becomes graduated with a pointer to the entity; the entity waits for review."
      })
  static final class MemoryGraduate extends GovernCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The memory.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Override
    public Integer call() {
      return run(true, g -> g.graduate(ns.ns, id));
    }
  }

  /** What {@code loci review} does besides listing. */
  static final class ReviewAct {
    @Option(names = "--promote", paramLabel = "ID", description = "Promote this candidate.")
    String promote;

    @Option(names = "--reject", paramLabel = "ID", description = "Reject this candidate.")
    String reject;
  }

  @Command(
      name = "review",
      mixinStandardHelpOptions = true,
      description = {
        "The review queue: memory and entity candidates side by side, grouped by source, with the"
            + " rule that fired; or promote or reject one of either kind.",
        "--promote ID --reviewer NAME, or --reject ID --reason TEXT --reviewer NAME."
      })
  static final class Review extends GovernCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @ArgGroup(exclusive = true)
    ReviewAct act;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, with --reject.")
    String reason;

    @Option(names = "--reviewer", paramLabel = "NAME", description = "Who decides.")
    Optional<String> reviewer = Optional.empty();

    @Override
    public Integer call() {
      if (act == null) {
        return run(false, g -> g.queue(ns.ns));
      }
      Reviewer who =
          new Reviewer(
              reviewer.orElseThrow(
                  () -> usageError("--reviewer: promoting or rejecting names who decides")));
      if (act.promote != null) {
        return run(true, g -> g.promoteCandidate(ns.ns, act.promote, who));
      }
      return run(true, g -> g.rejectCandidate(ns.ns, act.reject, reason, who));
    }
  }

  @Command(
      name = "conflicts",
      mixinStandardHelpOptions = true,
      description = "Conflicts: list, resolve (keep a winner), dismiss, sweep.",
      subcommands = {
        GovernCommands.ConflictsList.class,
        GovernCommands.ConflictsResolve.class,
        GovernCommands.ConflictsDismiss.class,
        GovernCommands.ConflictsSweep.class
      })
  static final class Conflicts {}

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List conflicts.")
  static final class ConflictsList extends GovernCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--open", description = "Only open ones.")
    boolean open;

    @Override
    public Integer call() {
      return run(
          false,
          g -> g.conflicts(ns.ns, open ? Optional.of(Conflict.Status.OPEN) : Optional.empty()));
    }
  }

  @Command(
      name = "resolve",
      mixinStandardHelpOptions = true,
      description = "Keep --winner and supersede the other members.")
  static final class ConflictsResolve extends GovernCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The conflict.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--winner", required = true, paramLabel = "MEMBER", description = "Keep this.")
    String winner;

    @Mixin ReviewerOption reviewer;

    @Override
    public Integer call() {
      Reviewer who = reviewer.reviewer(this);
      return run(true, g -> g.resolve(ns.ns, id, winner, who));
    }
  }

  @Command(
      name = "dismiss",
      mixinStandardHelpOptions = true,
      description = "Close a conflict as no real conflict.")
  static final class ConflictsDismiss extends GovernCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "The conflict.")
    String id;

    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin ReviewerOption reviewer;

    @Override
    public Integer call() {
      Reviewer who = reviewer.reviewer(this);
      return run(true, g -> g.dismiss(ns.ns, id, who));
    }
  }

  @Command(
      name = "sweep",
      mixinStandardHelpOptions = true,
      description = "Open a conflict for every disagreeing slot that has none open.")
  static final class ConflictsSweep extends GovernCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Override
    public Integer call() {
      return run(true, g -> g.sweep(ns.ns));
    }
  }

  @Command(
      name = "state",
      mixinStandardHelpOptions = true,
      description = "Trusted project state: get one key or all, set a key (reviewer only).",
      subcommands = {GovernCommands.StateGet.class, GovernCommands.StateSet.class})
  static final class State {}

  @Command(name = "get", mixinStandardHelpOptions = true, description = "Print a key, or all.")
  static final class StateGet extends GovernCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "KEY", description = "The key.")
    String key;

    @Mixin TraceCommands.NamespaceOption ns;

    @Override
    public Integer call() {
      if (key == null) {
        return run(false, g -> List.copyOf(g.state(ns.ns).values()));
      }
      return run(
          false,
          g ->
              g.state(ns.ns, key)
                  .orElseThrow(
                      () ->
                          new dev.loci.NotFoundException(
                              "key", "no project state '" + key + "' in " + ns.ns)));
    }
  }

  @Command(name = "set", mixinStandardHelpOptions = true, description = "Set a key.")
  static final class StateSet extends GovernCommand {
    @Parameters(index = "0", paramLabel = "KEY", description = "The key.")
    String key;

    @Parameters(index = "1", paramLabel = "VALUE", description = "The value.")
    String value;

    @Mixin TraceCommands.NamespaceOption ns;

    @Mixin ReviewerOption reviewer;

    @Override
    public Integer call() {
      Reviewer who = reviewer.reviewer(this);
      return run(true, g -> g.setState(ns.ns, key, value, who));
    }
  }

  @Command(
      name = "context",
      mixinStandardHelpOptions = true,
      description =
          "Print the context pack for a prompt: trusted state, identity, preference, entities and"
              + " relevant memories, in trust order, within --budget tokens.")
  static final class Context extends GovernCommand {
    @Parameters(index = "0", paramLabel = "PROMPT", description = "The prompt.")
    String prompt;

    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--budget", paramLabel = "TOKENS", description = "Default: 2000.")
    int budget = 2000;

    @Override
    public Integer call() {
      return run(false, g -> g.context(ns.ns, prompt, budget));
    }
  }
}
