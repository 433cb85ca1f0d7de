package dev.loci.govern.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityField;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.RelationType;
import dev.loci.govern.Relationship;
import dev.loci.spi.CommandContext;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The decisions that change entities: proposal (or reinforcement of the same entity), promotion,
 * rejection, invalidation, supersession, field updates and relationships. Every decision that
 * activates an entity goes through {@link ConflictDecisions} for its field slots. Decides against
 * the layer's current state; the engine runs decisions one at a time.
 */
public final class EntityDecisions {
  private static final Transitions<Entity, EntityStatus> T = Transitions.ENTITIES;
  private final GovernLayer layer;
  private final ConflictDecisions conflicts;

  /** Decisions over {@code layer}'s state. */
  public EntityDecisions(GovernLayer layer, ConflictDecisions conflicts) {
    this.layer = layer;
    this.conflicts = conflicts;
  }

  /**
   * A proposed entity: the same entity (type, name, values) already a candidate or active is
   * reinforced (its new sources added) instead of stored twice; otherwise a new candidate.
   */
  public Decision<EntityWritten> decidePropose(CommandContext ctx, Namespace ns, EntityDraft d) {
    Entity e = proposed(ctx, ns, d);
    return new Decision<>(
        List.of(GovernLayer.entityEvent(e)), Set.of(e.id()), new EntityWritten(e, List.of()));
  }

  /** The entity a proposal writes: the same one reinforced, or a new candidate. */
  Entity proposed(CommandContext ctx, Namespace ns, EntityDraft d) {
    Optional<Entity> same = same(ns, d);
    return same.isPresent()
        ? same.get().reinforced(d.sources(), d.subjectIds(), ctx.now())
        : fresh(ctx, ns, d, EntityStatus.CANDIDATE);
  }

  /** An entity a reviewer writes active at once, with conflict detection. */
  public Decision<EntityWritten> decideAddActive(
      CommandContext ctx, Namespace ns, EntityDraft d, String reviewer) {
    Optional<Entity> same = same(ns, d);
    Entity e;
    if (same.isEmpty()) {
      e = fresh(ctx, ns, d, EntityStatus.ACTIVE);
    } else if (same.get().status() == EntityStatus.CANDIDATE) {
      e = T.activated(same.get(), reviewer, ctx.now());
    } else {
      e = same.get().reinforced(d.sources(), d.subjectIds(), ctx.now());
    }
    return conflicts.entityActivated(ctx, ns, e, List.of());
  }

  /** Promotes a candidate entity to active, with conflict detection. */
  public Decision<EntityWritten> decidePromote(
      CommandContext ctx, Namespace ns, String id, String reviewer) {
    Entity e = T.promote(layer.requireEntity(ns, id), reviewer, ctx.now());
    return conflicts.entityActivated(ctx, ns, e, List.of());
  }

  /** Rejects a candidate, or invalidates a candidate or active entity, with a reason. */
  public Decision<Entity> decideInvalidate(
      CommandContext ctx,
      Namespace ns,
      String id,
      String reason,
      String reviewer,
      boolean candidatesOnly) {
    Transitions.requireReason(reason);
    Entity r =
        T.invalidate(layer.requireEntity(ns, id), reason, reviewer, candidatesOnly, ctx.now());
    return new Decision<>(List.of(GovernLayer.entityEvent(r)), Set.of(id), r);
  }

  /** Supersedes an active entity by another (promoting that one if it is a candidate). */
  public Decision<EntityWritten> decideSupersede(
      CommandContext ctx, Namespace ns, String id, String by, String reviewer) {
    T.requireOther(id, by);
    Entity old = layer.requireEntity(ns, id);
    T.require(old, EntityStatus.ACTIVE);
    Entity successor = T.successor(target(ns, by, "by"), reviewer, ctx.now());
    Event superseded = GovernLayer.entityEvent(old.supersededBy(by, reviewer, ctx.now()));
    return conflicts.entityActivated(ctx, ns, successor, List.of(superseded));
  }

  /**
   * Changes fields of a candidate or active entity: each changed field moves to its next version,
   * and an active entity's new values are checked for conflicts.
   */
  public Decision<EntityWritten> decideUpdate(
      CommandContext ctx, Namespace ns, String id, Map<String, String> fields, String reviewer) {
    if (fields.isEmpty()) {
      throw new InvalidRequestException("fields", "expected at least one field to change");
    }
    Entity e = layer.requireEntity(ns, id);
    T.require(e, EntityStatus.CANDIDATE, EntityStatus.ACTIVE);
    Entity next = e.withFields(fields, reviewer, ctx.now());
    if (next.status() == EntityStatus.ACTIVE) {
      return conflicts.entityActivated(ctx, ns, next, List.of());
    }
    return new Decision<>(
        List.of(GovernLayer.entityEvent(next)), Set.of(id), new EntityWritten(next, List.of()));
  }

  /**
   * Adds a typed relationship from entity {@code id} to {@code target}; the same active
   * relationship twice is added once.
   */
  public Decision<Entity> decideRelate(
      CommandContext ctx, Namespace ns, String id, RelationType type, String target, String by) {
    Entity e = layer.requireEntity(ns, id);
    T.require(e, EntityStatus.CANDIDATE, EntityStatus.ACTIVE);
    if (target.equals(id)) {
      throw new InvalidRequestException("target", "an entity cannot relate to itself");
    }
    Entity t = target(ns, target, "target");
    if (t.status() == EntityStatus.INVALID) {
      throw new InvalidRequestException(
          "target", "expected a target that is not invalid, found " + t.status().label());
    }
    boolean known =
        e.relationships().stream()
            .anyMatch(r -> r.active() && r.type() == type && r.target().equals(target));
    if (known) {
      return new Decision<>(List.of(), Set.of(id), e);
    }
    Entity r =
        e.withRelationship(
            new Relationship(type, target, by, ctx.now(), Optional.empty()), ctx.now());
    return new Decision<>(List.of(GovernLayer.entityEvent(r)), Set.of(id), r);
  }

  private Entity target(Namespace ns, String id, String field) {
    try {
      return layer.requireEntity(ns, id);
    } catch (NotFoundException e) {
      throw new NotFoundException(field, "no entity '" + id + "' in " + ns);
    }
  }

  private Optional<Entity> same(Namespace ns, EntityDraft d) {
    EntityShelf s = layer.shelf(ns).entities;
    return Optional.ofNullable(s.openFacts.get(EntityShelf.factKey(d.type(), d.name(), d.fields())))
        .map(s::newest);
  }

  static Entity fresh(CommandContext ctx, Namespace ns, EntityDraft d, EntityStatus status) {
    Instant now = ctx.now();
    Map<String, EntityField> fields = new LinkedHashMap<>();
    d.fields().forEach((k, v) -> fields.put(k, new EntityField(v, 1, now, d.provenance().actor())));
    return new Entity(
        ctx.newId(),
        ns,
        d.type(),
        d.name().strip(),
        fields,
        d.confidence(),
        status,
        0,
        d.provenance(),
        d.sources(),
        d.subjectIds(),
        List.of(),
        Optional.empty(),
        d.graduatedFrom(),
        Optional.empty(),
        1,
        now,
        now);
  }
}
