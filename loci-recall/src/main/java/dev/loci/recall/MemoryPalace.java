package dev.loci.recall;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.recall.internal.Consolidator;
import dev.loci.recall.internal.PalaceDecisions;
import dev.loci.recall.internal.PalaceLayer;
import dev.loci.recall.internal.PalaceView;
import dev.loci.recall.internal.RecallLayer;
import dev.loci.spi.CommandExecutor;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The memory palace: the recall graph's nodes as typed memories ({@link EpisodicMemory}, {@link
 * SemanticMemory}, {@link RouteMemory}) located in {@link PalaceSpace}s and joined by {@link
 * MemoryLink}s, each with a lifecycle that use strengthens and time weakens.
 *
 * <pre>{@code
 * MemoryPalace palace = MemoryPalace.of(loci, RecallMemory.of(loci));
 * PalaceRecallResult r = palace.recall(ns, RecallQuery.builder("who pages the on-call?",
 *     RecallMode.HYBRID).build(), false);
 * palace.feedback(ns, new Feedback(List.of(r.result().ids().get(0)), List.of(), true));
 * palace.sweep(ns); // records what time changed
 * }</pre>
 *
 * <p>Lifecycle is derived, transitions are events: stability decays from timestamps at read time
 * ({@link LifecyclePolicy}); feedback, {@code reinforce=true} recalls and sweeps record uses and
 * state changes in the journal with their reasons, so replay rebuilds the same states. Archived
 * memories stay readable here but leave recall. "Now" is the instance's clock ({@link
 * Loci.Builder#clock}), so tests move time by injecting one. Returned values are immutable.
 * Thread-safe.
 */
public final class MemoryPalace {
  private final CommandExecutor engine;
  private final RecallMemory recall;
  private final PalaceView view;
  private final PalaceDecisions decisions;
  private final Consolidator consolidator;
  private final Clock clock;
  private final String actor;

  private MemoryPalace(
      CommandExecutor engine, RecallMemory recall, PalaceView view, Clock clock, String actor) {
    this.engine = engine;
    this.recall = recall;
    this.view = view;
    this.decisions = new PalaceDecisions(view);
    this.consolidator = new Consolidator(view);
    this.clock = clock;
    this.actor = actor;
  }

  /**
   * The palace of an open instance, recalling through {@code recall}.
   *
   * @throws IllegalStateException if the instance was opened without the recall or palace layer
   */
  public static MemoryPalace of(Loci loci, RecallMemory recall) {
    Objects.requireNonNull(recall, "recall");
    PalaceView view = new PalaceView(loci.layer(RecallLayer.class), loci.layer(PalaceLayer.class));
    return new MemoryPalace(loci.executor(), recall, view, loci.clock(), loci.actor());
  }

  /** The same palace, recording {@code actor} as the author of its writes. */
  public MemoryPalace as(String actor) {
    return new MemoryPalace(engine, recall.as(actor), view, clock, actor);
  }

  // ---------------------------------------------------------------- reads

  /** Every space of {@code ns} that holds a memory (or a space that does), sorted by id. */
  public List<PalaceSpace> spaces(Namespace ns) {
    Objects.requireNonNull(ns, "ns");
    return engine.read(() -> view.spaces(ns));
  }

  /**
   * Space {@code id} of {@code ns}.
   *
   * @throws NotFoundException naming {@code id} if no memory is located in it
   */
  public PalaceSpace space(Namespace ns, String id) {
    return engine
        .read(() -> view.space(ns, id))
        .orElseThrow(() -> new NotFoundException("id", "no space '" + id + "' in " + ns));
  }

  /**
   * The memories located directly in space {@code id}, read now.
   *
   * @throws NotFoundException naming {@code id} if there is no such space
   */
  public List<PalaceMemory> memoriesIn(Namespace ns, String id) {
    space(ns, id);
    Instant now = clock.instant();
    return engine.read(() -> view.memoriesIn(ns, id, now));
  }

  /**
   * Memory {@code id} with its type, space, links and lifecycle read now; archived ones included.
   *
   * @throws NotFoundException naming {@code id} if it is not a live node of {@code ns}
   */
  public PalaceMemory memory(Namespace ns, String id) {
    Instant now = clock.instant();
    return engine
        .read(() -> view.memory(ns, id, now))
        .orElseThrow(() -> new NotFoundException("id", "no memory '" + id + "' in " + ns));
  }

  /** The lifecycle transitions memory {@code id} went through, oldest first. */
  public List<LifecycleTransition> transitions(Namespace ns, String id) {
    return engine.read(() -> view.palace().history(ns, id));
  }

  /** The half-life of {@code ns}. */
  public LifecyclePolicy policy(Namespace ns) {
    return new LifecyclePolicy(engine.read(() -> view.palace().halfLife(ns)));
  }

  // ---------------------------------------------------------------- writes

  /** Sets the half-life of {@code ns} (a journal event: decay replays the same). */
  public LifecyclePolicy setPolicy(Namespace ns, LifecyclePolicy policy) {
    Objects.requireNonNull(policy, "policy");
    engine.execute(ns, actor, ctx -> decisions.policy(ns, policy.halfLife()));
    return policy;
  }

  /**
   * Records a use of the memories {@code feedback} names: useful ones are reinforced (usage and
   * stability up, state forward), others lose half their stability; a useful route is stored as a
   * route memory and reinforced too.
   *
   * @throws NotFoundException naming {@code node_ids[i]} or {@code route[i]} for a memory that is
   *     not live; nothing is written
   */
  public FeedbackReport feedback(Namespace ns, Feedback feedback) {
    Objects.requireNonNull(ns, "ns");
    Objects.requireNonNull(feedback, "feedback");
    return engine.execute(ns, actor, ctx -> decisions.feedback(ns, feedback, ctx.now()));
  }

  /** Records, as journal events, the state changes time has caused in {@code ns} by now. */
  public SweepReport sweep(Namespace ns) {
    Objects.requireNonNull(ns, "ns");
    return engine.execute(ns, actor, ctx -> decisions.sweep(ns, ctx.now()));
  }

  /** {@link #sweep} of every namespace that holds memories; the reports of those that changed. */
  public List<SweepReport> sweepAll() {
    List<SweepReport> out = new ArrayList<>();
    for (Namespace ns : engine.read(() -> view.graph().namespaces())) {
      SweepReport r = sweep(ns);
      if (!r.transitions().isEmpty()) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * Consolidates the episodic memories of {@code ns} that repeat across sessions into semantic
   * memories; a second run with nothing new changes nothing.
   */
  public ConsolidationReport consolidate(Namespace ns) {
    Objects.requireNonNull(ns, "ns");
    return engine.execute(ns, actor, ctx -> consolidator.consolidate(ns, ctx.newId(), ctx.now()));
  }

  /**
   * Undoes consolidation run {@code runId}: its summaries are removed, their history kept.
   *
   * @throws NotFoundException naming {@code id} if there is no such run
   * @throws dev.loci.ConflictException if it was undone already
   */
  public ConsolidationReport undoConsolidation(Namespace ns, String runId) {
    Objects.requireNonNull(runId, "runId");
    return engine.execute(ns, actor, ctx -> consolidator.undo(ns, runId, ctx.now()));
  }

  /** Every consolidation run of {@code ns}, oldest first, as run id to whether it was undone. */
  public Map<String, Boolean> consolidations(Namespace ns) {
    Map<String, Boolean> out = new LinkedHashMap<>();
    engine.read(() -> view.palace().consolidations(ns)).forEach(c -> out.put(c.id(), c.undone()));
    return out;
  }

  // ---------------------------------------------------------------- recall

  /**
   * Recalls from {@code ns} and reads the result through the palace: the memories behind the items
   * and the stored routes that start at one of them (replayed: their steps in order). With {@code
   * reinforce}, every returned memory's use is recorded as useful first (one write per recall that
   * returns anything), and the memories are read after it.
   */
  public PalaceRecallResult recall(Namespace ns, RecallQuery query, boolean reinforce) {
    RecallResult result = recall.recall(ns, query);
    Optional<FeedbackReport> reinforced = Optional.empty();
    if (reinforce && !result.items().isEmpty()) {
      reinforced = Optional.of(feedback(ns, new Feedback(result.ids(), List.of(), true)));
    }
    Instant now = clock.instant();
    Optional<FeedbackReport> done = reinforced;
    return engine.read(
        () -> {
          List<PalaceMemory> memories = new ArrayList<>();
          List<RouteMemory> routes = new ArrayList<>();
          java.util.Set<String> seen = new java.util.HashSet<>();
          java.util.Set<String> archived = view.palace().archived(ns);
          for (RecallItem item : result.items()) {
            view.memory(ns, item.node().id(), now).ifPresent(memories::add);
            for (String routeId : view.palace().routesFrom(ns, item.node().id())) {
              if (!archived.contains(routeId) && seen.add(routeId)) {
                view.memory(ns, routeId, now)
                    .filter(RouteMemory.class::isInstance)
                    .map(RouteMemory.class::cast)
                    .ifPresent(routes::add);
              }
            }
          }
          return new PalaceRecallResult(result, memories, routes, done);
        });
  }
}
