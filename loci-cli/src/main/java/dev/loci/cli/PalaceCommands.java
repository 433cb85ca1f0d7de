package dev.loci.cli;

import dev.loci.Loci;
import dev.loci.recall.ConsolidationReport;
import dev.loci.recall.Feedback;
import dev.loci.recall.FeedbackReport;
import dev.loci.recall.LifecycleTransition;
import dev.loci.recall.MemoryPalace;
import dev.loci.recall.PalaceMemory;
import dev.loci.recall.PalaceSpace;
import dev.loci.recall.PalaceWire;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.SweepReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.ExitCode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loci spaces}, {@code loci feedback}, {@code loci consolidate} and {@code loci lifecycle
 * sweep}: the memory palace over the recall graph. Only translation happens here; the work is
 * {@link MemoryPalace}'s. {@code --json} prints the wire form of the matching HTTP route.
 */
final class PalaceCommands {
  private PalaceCommands() {}

  /** A palace command: opens the instance, runs one palace call, prints its result. */
  abstract static class PalaceCommand extends LociCommand {
    /**
     * Runs {@code op} on the palace of the data directory (opened for writing when {@code write})
     * and prints its result: {@code json} of it with {@code --json}, else {@code text}.
     */
    final <T> Integer run(
        boolean write,
        Function<MemoryPalace, T> op,
        Function<T, String> json,
        java.util.function.BiConsumer<PrintWriter, T> text) {
      T result;
      try (Loci loci = write ? open() : openExisting()) {
        RecallMemory recall =
            RecallMemory.of(loci).withScoring(dev.loci.govern.GovernedScoring.INSTANCE);
        result = op.apply(MemoryPalace.of(loci, recall));
      }
      PrintWriter out = spec.commandLine().getOut();
      if (main().output().json()) {
        out.println(json.apply(result));
      } else {
        text.accept(out, result);
      }
      return ExitCode.OK;
    }
  }

  @Command(
      name = "spaces",
      mixinStandardHelpOptions = true,
      description = {
        "List the palace spaces of a namespace (document sections <file stem>:<section slug>,"
            + " conversation sessions), or with ID the memories located in one.",
      })
  static final class Spaces extends PalaceCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "ID", description = "A space id.")
    Optional<String> id = Optional.empty();

    @Mixin TraceCommands.NamespaceOption ns;

    /** A space and its memories. */
    private record Located(PalaceSpace space, List<PalaceMemory> memories) {}

    @Override
    public Integer call() {
      if (id.isEmpty()) {
        return run(false, p -> p.spaces(ns.ns), PalaceWire::writeSpaces, PalaceCommands::spaces);
      }
      return run(
          false,
          p -> new Located(p.space(ns.ns, id.get()), p.memoriesIn(ns.ns, id.get())),
          l -> PalaceWire.writeSpace(l.space(), l.memories()),
          (out, l) -> {
            spaces(out, List.of(l.space()));
            l.memories().forEach(m -> out.println("  " + memory(m)));
          });
    }
  }

  private static void spaces(PrintWriter out, List<PalaceSpace> spaces) {
    if (spaces.isEmpty()) {
      out.println("no spaces");
    }
    for (PalaceSpace s : spaces) {
      out.printf(
          Locale.ROOT,
          "%s  %s  %d memories  %s%s%n",
          s.id(),
          s.kind(),
          s.memoryCount(),
          s.title(),
          s.parent().map(p -> "  (in " + p + ")").orElse(""));
    }
  }

  /** One memory on one line: id, kind, state, uses, stability. */
  static String memory(PalaceMemory m) {
    return String.format(
        Locale.ROOT,
        "%s  %s  %s  uses %d  stability %.3f",
        m.id(),
        m.kind(),
        m.lifecycle().state().wireName(),
        m.lifecycle().reinforcementCount(),
        m.lifecycle().stabilityScore());
  }

  @Command(
      name = "feedback",
      mixinStandardHelpOptions = true,
      description = {
        "Record that recalled memories were used: useful ones gain usage and stability, others"
            + " lose half their stability; a useful --route is stored as a route memory that"
            + " recall replays.",
      })
  static final class FeedbackCommand extends PalaceCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(
        names = "--node",
        paramLabel = "ID",
        description = "A memory that was used (repeatable, or comma-separated).",
        split = ",")
    List<String> nodes = new ArrayList<>();

    @Option(
        names = "--route",
        paramLabel = "ID",
        description = "The steps of a path that worked, in order (comma-separated).",
        split = ",")
    List<String> route = new ArrayList<>();

    @Option(names = "--not-useful", description = "Mark them as not useful.")
    boolean notUseful;

    @Override
    public Integer call() {
      Feedback feedback = new Feedback(nodes, route, !notUseful);
      return run(
          true,
          p -> p.feedback(ns.ns, feedback),
          PalaceWire::writeFeedback,
          (out, r) -> {
            out.println("used: " + String.join(", ", r.used()));
            r.route().ifPresent(id -> out.println("route: " + id));
            transitions(out, r.transitions());
          });
    }
  }

  private static void transitions(PrintWriter out, List<LifecycleTransition> transitions) {
    for (LifecycleTransition t : transitions) {
      out.printf(
          "%s: %s -> %s (%s)%n", t.nodeId(), t.from().wireName(), t.to().wireName(), t.reason());
    }
  }

  @Command(
      name = "consolidate",
      mixinStandardHelpOptions = true,
      description = {
        "Consolidate episodic memories that repeat across sessions into semantic memories that"
            + " quote them (rule-based, no model); a second run changes nothing. --undo RUN"
            + " removes a run's summaries (their history is kept).",
      })
  static final class Consolidate extends PalaceCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--undo", paramLabel = "RUN", description = "The run to undo.")
    Optional<String> undo = Optional.empty();

    @Override
    public Integer call() {
      return run(
          true,
          p -> undo.isPresent() ? p.undoConsolidation(ns.ns, undo.get()) : p.consolidate(ns.ns),
          PalaceWire::writeConsolidation,
          PalaceCommands::consolidation);
    }
  }

  private static void consolidation(PrintWriter out, ConsolidationReport r) {
    out.printf(
        "run %s: %d episodic memories examined, %d summaries%n",
        r.runId().orElse("(none)"), r.examined(), r.summaries().size());
    r.summaries()
        .forEach(
            (summary, sources) ->
                out.println("  " + summary + " summarizes " + String.join(", ", sources)));
  }

  @Command(
      name = "lifecycle",
      mixinStandardHelpOptions = true,
      description = "Memory lifecycles: sweep.",
      subcommands = {PalaceCommands.Sweep.class})
  static final class Lifecycle {}

  @Command(
      name = "sweep",
      mixinStandardHelpOptions = true,
      description = {
        "Record, as journal events, the lifecycle changes time has caused by now (fading,"
            + " archived). serve does this hourly.",
      })
  static final class Sweep extends PalaceCommand {
    @Mixin TraceCommands.NamespaceOption ns;

    @Option(names = "--all", description = "Every namespace that holds memories.")
    boolean all;

    @Override
    public Integer call() {
      if (all) {
        return run(
            true,
            MemoryPalace::sweepAll,
            reports ->
                "[" + String.join(",", reports.stream().map(PalaceWire::writeSweep).toList()) + "]",
            (out, reports) -> reports.forEach(r -> sweep(out, r)));
      }
      return run(true, p -> p.sweep(ns.ns), PalaceWire::writeSweep, PalaceCommands::sweep);
    }
  }

  private static void sweep(PrintWriter out, SweepReport r) {
    out.printf(
        "swept %d memories at %s: %d transitions%n", r.examined(), r.at(), r.transitions().size());
    transitions(out, r.transitions());
  }

  /** Prints a feedback report's transitions; used by {@code loci recall --reinforce}. */
  static void reinforced(PrintWriter out, FeedbackReport r) {
    out.println("reinforced: " + String.join(", ", r.used()));
    transitions(out, r.transitions());
  }
}
