package dev.loci.govern.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.StateEntry;
import dev.loci.govern.Written;
import dev.loci.internal.Json;
import dev.loci.spi.CommandContext;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The decisions that change memories and trusted project state: proposal (or reinforcement of the
 * same fact), promotion, rejection, invalidation, supersession, and setting state. Every decision
 * that activates a record goes through {@link ConflictDecisions} for its slot. Decides against the
 * layer's current state; the engine runs decisions one at a time.
 */
public final class MemoryDecisions {
  private static final Transitions<Memory, MemoryStatus> T = Transitions.MEMORIES;
  private final GovernLayer layer;
  private final ConflictDecisions conflicts;
  private final EntityDecisions entities;

  /** Decisions over {@code layer}'s state. */
  public MemoryDecisions(GovernLayer layer, ConflictDecisions conflicts, EntityDecisions entities) {
    this.layer = layer;
    this.conflicts = conflicts;
    this.entities = entities;
  }

  /**
   * The namespace setting that stops new project and adaptation memories once entities are used.
   */
  public static final String ENTITIES_CANONICAL = "entities_canonical";

  /**
   * Whether {@code ns} refuses new memories of {@code type}: the setting {@value
   * #ENTITIES_CANONICAL} is on, an entity is active, and the type is {@code project} or {@code
   * adaptation} (their canonical home is then an entity).
   */
  boolean refused(Namespace ns, MemoryType type) {
    return (type == MemoryType.PROJECT || type == MemoryType.ADAPTATION)
        && "true".equals(layer.shelf(ns).settings.get(ENTITIES_CANONICAL))
        && layer.entitiesInUse(ns);
  }

  private void checkAccepted(Namespace ns, MemoryDraft draft) {
    if (refused(ns, draft.type()) && sameFact(ns, draft).isEmpty()) {
      throw new InvalidRequestException(
          "type",
          "this namespace keeps new "
              + draft.type().label()
              + " facts as entities (setting "
              + ENTITIES_CANONICAL
              + "); propose a requirement, constraint or decision entity instead");
    }
  }

  /** The memory a proposal writes: the same fact reinforced, or a new candidate. */
  Memory proposed(CommandContext ctx, Namespace ns, MemoryDraft draft) {
    return sameFact(ns, draft)
        .map(m -> m.reinforced(ctx.now()))
        .orElseGet(() -> fresh(ctx, draft, ns, MemoryStatus.CANDIDATE));
  }

  /**
   * The events that write {@code m}, followed by its graduation if it has just reached the
   * reinforcement signal; the memory as last written.
   */
  Decision<Written> writtenOrGraduated(CommandContext ctx, Namespace ns, Memory m) {
    List<Event> events = new ArrayList<>(List.of(GovernLayer.memoryEvent(m)));
    Memory last = m;
    Set<String> keys = new java.util.HashSet<>(Set.of(m.id()));
    if (Graduation.reinforcedEnough(m)) {
      List<Event> g =
          Graduation.graduate(ctx, ns, entities, m, "reinforced " + m.reinforcements() + " times");
      events.addAll(g);
      last = (Memory) g.get(1).decoded().orElseThrow();
      keys.add(((dev.loci.govern.Entity) g.get(0).decoded().orElseThrow()).id());
    }
    return new Decision<>(events, keys, new Written(last, List.of()));
  }

  /** Graduates an active memory on request: an entity candidate, the memory frozen behind it. */
  public Decision<Written> decideGraduate(CommandContext ctx, Namespace ns, String id) {
    Memory m = layer.require(ns, id);
    List<Event> events = Graduation.graduate(ctx, ns, entities, m, "requested");
    Memory last = (Memory) events.get(1).decoded().orElseThrow();
    String entity = ((dev.loci.govern.Entity) events.get(0).decoded().orElseThrow()).id();
    return new Decision<>(events, Set.of(id, entity), new Written(last, List.of()));
  }

  /**
   * A proposed memory: the same fact (type, content, subjects) already a candidate or active is
   * reinforced instead of stored twice; otherwise a new candidate.
   */
  public Decision<Written> decidePropose(CommandContext ctx, Namespace ns, MemoryDraft draft) {
    checkAccepted(ns, draft);
    Decision<Written> d = writtenOrGraduated(ctx, ns, proposed(ctx, ns, draft));
    Set<String> keys = new java.util.HashSet<>(d.keys());
    keys.add("fact:m|" + Shelf.factKey(draft.type(), draft.content(), draft.subjectIds()));
    return new Decision<>(d.events(), keys, d.result()); // the same fact proposed twice: one by one
  }

  /** A memory a reviewer writes active at once, with conflict detection. */
  public Decision<Written> decideAddActive(
      CommandContext ctx, Namespace ns, MemoryDraft draft, String reviewer) {
    checkAccepted(ns, draft);
    Optional<Memory> same = sameFact(ns, draft);
    Memory m;
    if (same.isEmpty()) {
      m = fresh(ctx, draft, ns, MemoryStatus.ACTIVE);
    } else if (same.get().status() == MemoryStatus.CANDIDATE) {
      m = T.activated(same.get(), reviewer, ctx.now());
    } else {
      return writtenOrGraduated(ctx, ns, same.get().reinforced(ctx.now())); // seen again
    }
    return activatedOrGraduated(ctx, ns, m);
  }

  /**
   * The batch that writes {@code m} active, with its conflicts; a {@code knowledge} memory shaped
   * {@code X = value [unit]} is graduated in the same batch instead (its entity's conflicts are
   * checked when a reviewer promotes the entity).
   */
  private Decision<Written> activatedOrGraduated(CommandContext ctx, Namespace ns, Memory m) {
    if (!Graduation.shaped(m)) {
      return conflicts.activated(ctx, ns, m, List.of());
    }
    List<Event> events = new ArrayList<>(List.of(GovernLayer.memoryEvent(m)));
    events.addAll(Graduation.graduate(ctx, ns, entities, m, "shaped X = value [unit]"));
    Memory last = (Memory) events.get(2).decoded().orElseThrow();
    String entity = ((dev.loci.govern.Entity) events.get(1).decoded().orElseThrow()).id();
    return new Decision<>(events, Set.of(m.id(), entity), new Written(last, List.of()));
  }

  /** Reinforces a candidate or active memory. */
  public Decision<Written> decideReinforce(CommandContext ctx, Namespace ns, String id) {
    Memory m = layer.require(ns, id);
    T.require(m, MemoryStatus.CANDIDATE, MemoryStatus.ACTIVE);
    return writtenOrGraduated(ctx, ns, m.reinforced(ctx.now()));
  }

  /** Promotes a candidate to active, with conflict detection. */
  public Decision<Written> decidePromote(
      CommandContext ctx, Namespace ns, String id, String reviewer) {
    return activatedOrGraduated(ctx, ns, T.promote(layer.require(ns, id), reviewer, ctx.now()));
  }

  /** Rejects a candidate, or invalidates a candidate or active memory, with a reason. */
  public Decision<Memory> decideInvalidate(
      CommandContext ctx,
      Namespace ns,
      String id,
      String reason,
      String reviewer,
      boolean candidatesOnly) {
    Transitions.requireReason(reason);
    Memory r = T.invalidate(layer.require(ns, id), reason, reviewer, candidatesOnly, ctx.now());
    return new Decision<>(List.of(GovernLayer.memoryEvent(r)), Set.of(id), r);
  }

  /** Supersedes an active memory by another (promoting that one if it is a candidate). */
  public Decision<Written> decideSupersede(
      CommandContext ctx, Namespace ns, String id, String by, String reviewer) {
    T.requireOther(id, by);
    Memory old = layer.require(ns, id);
    T.require(old, MemoryStatus.ACTIVE);
    Memory successor;
    try {
      successor = layer.require(ns, by);
    } catch (NotFoundException e) {
      throw new NotFoundException("by", "no memory '" + by + "' in " + ns);
    }
    Memory superseded = old.supersededBy(by, reviewer, ctx.now());
    return conflicts.activated(
        ctx, ns, T.successor(successor, reviewer, ctx.now()), List.of(superseded));
  }

  /** Sets trusted project state; an active memory whose slot is the key and disagrees conflicts. */
  public Decision<StateEntry> decideStateSet(
      CommandContext ctx, Namespace ns, String key, String value, String reviewer) {
    StateEntry e = new StateEntry(key, value, reviewer, ctx.now());
    List<Event> events =
        new ArrayList<>(List.of(new Event(GovernLayer.STATE_SET, GovernWire.state(e))));
    conflicts.stateConflict(ctx, ns, key, value).ifPresent(events::add);
    return new Decision<>(events, Set.of("state:" + key), e);
  }

  /** Deletes a key of trusted project state. */
  public Decision<StateEntry> decideStateDelete(CommandContext ctx, Namespace ns, String key) {
    StateEntry e = layer.shelf(ns).state.get(key);
    if (e == null) {
      throw new NotFoundException("key", "no project state '" + key + "' in " + ns);
    }
    return new Decision<>(
        List.of(new Event(GovernLayer.STATE_DELETED, Json.object().put("key", key))),
        Set.of("state:" + key),
        e);
  }

  Optional<Memory> sameFact(Namespace ns, MemoryDraft draft) {
    Shelf s = layer.shelf(ns);
    return Optional.ofNullable(
            s.openFacts.get(Shelf.factKey(draft.type(), draft.content(), draft.subjectIds())))
        .map(s::newest);
  }

  static Memory fresh(CommandContext ctx, MemoryDraft d, Namespace ns, MemoryStatus status) {
    Instant now = ctx.now();
    return new Memory(
        ctx.newId(),
        ns,
        d.type(),
        d.content(),
        d.confidence(),
        status,
        d.slot(),
        d.subjectIds(),
        0,
        d.provenance(),
        Optional.empty(),
        Optional.empty(),
        1,
        now,
        now);
  }
}
