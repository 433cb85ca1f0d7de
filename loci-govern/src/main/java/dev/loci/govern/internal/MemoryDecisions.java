package dev.loci.govern.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.StateEntry;
import dev.loci.govern.Written;
import dev.loci.internal.Json;
import dev.loci.spi.CommandContext;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The decisions that change memories and trusted project state: proposal (or reinforcement of the
 * same fact), promotion, rejection, invalidation, supersession, and setting state. Every decision
 * that activates a record goes through {@link ConflictDecisions} for its slot. Decides against the
 * layer's current state; the engine runs decisions one at a time.
 */
public final class MemoryDecisions {
  private final GovernLayer layer;
  private final ConflictDecisions conflicts;

  /** Decisions over {@code layer}'s state. */
  public MemoryDecisions(GovernLayer layer, ConflictDecisions conflicts) {
    this.layer = layer;
    this.conflicts = conflicts;
  }

  /**
   * A proposed memory: the same fact (type, content, subjects) already a candidate or active is
   * reinforced instead of stored twice; otherwise a new candidate.
   */
  public Decision<Written> decidePropose(CommandContext ctx, Namespace ns, MemoryDraft draft) {
    Optional<Memory> same = sameFact(ns, draft);
    if (same.isPresent()) {
      Memory r = same.get().reinforced(ctx.now());
      return new Decision<>(
          List.of(GovernLayer.memoryEvent(r)), Set.of(r.id()), new Written(r, List.of()));
    }
    Memory m = fresh(ctx, draft, ns, MemoryStatus.CANDIDATE);
    return new Decision<>(
        List.of(GovernLayer.memoryEvent(m)), Set.of(m.id()), new Written(m, List.of()));
  }

  /** A memory a reviewer writes active at once, with conflict detection. */
  public Decision<Written> decideAddActive(
      CommandContext ctx, Namespace ns, MemoryDraft draft, String reviewer) {
    Optional<Memory> same = sameFact(ns, draft);
    Memory m;
    if (same.isEmpty()) {
      m = fresh(ctx, draft, ns, MemoryStatus.ACTIVE);
    } else if (same.get().status() == MemoryStatus.CANDIDATE) {
      m =
          same.get()
              .withStatus(MemoryStatus.ACTIVE, Optional.of("promoted by " + reviewer), ctx.now());
    } else {
      m = same.get().reinforced(ctx.now()); // the same trusted fact seen again
    }
    return conflicts.activated(ctx, ns, m, List.of());
  }

  /** Reinforces a candidate or active memory. */
  public Decision<Memory> decideReinforce(CommandContext ctx, Namespace ns, String id) {
    Memory m = layer.require(ns, id);
    requireStatus(m, MemoryStatus.CANDIDATE, MemoryStatus.ACTIVE);
    Memory r = m.reinforced(ctx.now());
    return new Decision<>(List.of(GovernLayer.memoryEvent(r)), Set.of(id), r);
  }

  /** Promotes a candidate to active, with conflict detection. */
  public Decision<Written> decidePromote(
      CommandContext ctx, Namespace ns, String id, String reviewer) {
    Memory m = layer.require(ns, id);
    requireStatus(m, MemoryStatus.CANDIDATE);
    return conflicts.activated(
        ctx,
        ns,
        m.withStatus(MemoryStatus.ACTIVE, Optional.of("promoted by " + reviewer), ctx.now()),
        List.of());
  }

  /** Rejects a candidate, or invalidates a candidate or active memory, with a reason. */
  public Decision<Memory> decideInvalidate(
      CommandContext ctx,
      Namespace ns,
      String id,
      String reason,
      String reviewer,
      boolean candidatesOnly) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidRequestException("reason", "expected why, found none");
    }
    Memory m = layer.require(ns, id);
    if (candidatesOnly) {
      requireStatus(m, MemoryStatus.CANDIDATE);
    } else {
      requireStatus(m, MemoryStatus.CANDIDATE, MemoryStatus.ACTIVE);
    }
    Memory r =
        m.withStatus(MemoryStatus.INVALID, Optional.of(reason + " (" + reviewer + ")"), ctx.now());
    return new Decision<>(List.of(GovernLayer.memoryEvent(r)), Set.of(id), r);
  }

  /** Supersedes an active memory by another (promoting that one if it is a candidate). */
  public Decision<Written> decideSupersede(
      CommandContext ctx, Namespace ns, String id, String by, String reviewer) {
    if (id.equals(by)) {
      throw new InvalidRequestException("by", "a memory cannot supersede itself");
    }
    Memory old = layer.require(ns, id);
    requireStatus(old, MemoryStatus.ACTIVE);
    Memory successor;
    try {
      successor = layer.require(ns, by);
    } catch (NotFoundException e) {
      throw new NotFoundException("by", "no memory '" + by + "' in " + ns);
    }
    if (successor.status() != MemoryStatus.ACTIVE && successor.status() != MemoryStatus.CANDIDATE) {
      throw new InvalidRequestException(
          "by", "expected an active or candidate successor, found " + successor.status().label());
    }
    Memory superseded = old.supersededBy(by, reviewer, ctx.now());
    if (successor.status() == MemoryStatus.CANDIDATE) {
      successor =
          successor.withStatus(
              MemoryStatus.ACTIVE, Optional.of("promoted by " + reviewer), ctx.now());
    }
    return conflicts.activated(ctx, ns, successor, List.of(superseded));
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

  private Optional<Memory> sameFact(Namespace ns, MemoryDraft draft) {
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

  static void requireStatus(Memory m, MemoryStatus... allowed) {
    for (MemoryStatus s : allowed) {
      if (m.status() == s) {
        return;
      }
    }
    throw new InvalidRequestException(
        "status",
        "memory '"
            + m.id()
            + "' is "
            + m.status().label()
            + "; expected "
            + Arrays.stream(allowed).map(MemoryStatus::label).collect(Collectors.joining(" or ")));
  }
}
