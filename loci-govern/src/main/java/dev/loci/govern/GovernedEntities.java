package dev.loci.govern;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.govern.internal.ConflictDecisions;
import dev.loci.govern.internal.EntityDecisions;
import dev.loci.govern.internal.GovernLayer;
import dev.loci.spi.CommandExecutor;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Typed engineering entities: the canonical home of requirements, constraints, decisions, facts,
 * parameters and subsystems, a record type of its own beside {@link GovernedMemory}'s memories,
 * sharing its review queue, conflicts and trust order.
 *
 * <p>Proposals ({@link #propose}) and relationships ({@link #relate}) need no {@link Reviewer};
 * every act that makes an entity trusted or untrusted does. Every write is one journal batch; a
 * rejected write throws and changes nothing. Thread-safe; returned records are immutable.
 */
public final class GovernedEntities {
  private final CommandExecutor engine;
  private final GovernLayer layer;
  private final EntityDecisions entities;
  private final String actor;

  private GovernedEntities(CommandExecutor engine, GovernLayer layer, String actor) {
    this.engine = engine;
    this.layer = layer;
    this.entities = new EntityDecisions(layer, new ConflictDecisions(layer));
    this.actor = actor;
  }

  /**
   * The entities of an open instance. If the instance has the recall layer, every write also puts
   * the recall nodes of the records it changed in the same journal batch ({@link GovernedRecall}).
   *
   * @throws IllegalStateException if the instance was opened without the governed layer
   */
  public static GovernedEntities of(Loci loci) {
    return new GovernedEntities(RecallFeed.of(loci), loci.layer(GovernLayer.class), loci.actor());
  }

  /** The same entities, recording {@code actor} as the author of writes in the journal. */
  public GovernedEntities as(String actor) {
    Objects.requireNonNull(actor, "actor");
    if (actor.isBlank()) {
      throw new IllegalArgumentException("actor must not be blank");
    }
    return new GovernedEntities(engine, layer, actor);
  }

  /**
   * Proposes an entity: a new candidate, or the same entity (type, name, values) reinforced with
   * the new sources.
   */
  public EntityWritten propose(Namespace ns, EntityDraft draft) {
    Objects.requireNonNull(draft, "draft");
    return engine.execute(ns, actor, ctx -> entities.decidePropose(ctx, ns, draft));
  }

  /** Writes an entity active at once, as a reviewer may; conflicts it opens are in the result. */
  public EntityWritten add(Namespace ns, EntityDraft draft, Reviewer reviewer) {
    Objects.requireNonNull(draft, "draft");
    String holder = holder(reviewer);
    return engine.execute(ns, actor, ctx -> entities.decideAddActive(ctx, ns, draft, holder));
  }

  /**
   * Promotes a candidate entity; conflicts its fields open are in the result.
   *
   * @throws dev.loci.InvalidRequestException naming {@code status} unless it is a candidate
   */
  public EntityWritten promote(Namespace ns, String id, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(ns, actor, ctx -> entities.decidePromote(ctx, ns, id, holder));
  }

  /** Rejects a candidate entity with a reason; it stays as history. */
  public Entity reject(Namespace ns, String id, String reason, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(
        ns, actor, ctx -> entities.decideInvalidate(ctx, ns, id, reason, holder, true));
  }

  /** Invalidates a candidate or active entity with a reason; it stays as history. */
  public Entity invalidate(Namespace ns, String id, String reason, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(
        ns, actor, ctx -> entities.decideInvalidate(ctx, ns, id, reason, holder, false));
  }

  /** Supersedes active entity {@code id} by entity {@code by} (promoted if a candidate). */
  public EntityWritten supersede(Namespace ns, String id, String by, Reviewer reviewer) {
    String holder = holder(reviewer);
    return engine.execute(ns, actor, ctx -> entities.decideSupersede(ctx, ns, id, by, holder));
  }

  /**
   * Changes fields of a candidate or active entity, as a reviewer: each changed field moves to its
   * next version; an active entity's new values are checked for conflicts.
   */
  public EntityWritten update(
      Namespace ns, String id, Map<String, String> fields, Reviewer reviewer) {
    String holder = holder(reviewer);
    EntityDraft checked =
        EntityDraft.of(EntityType.FACT, "fields", fields, holder); // validates names and values
    return engine.execute(
        ns, actor, ctx -> entities.decideUpdate(ctx, ns, id, checked.fields(), holder));
  }

  /**
   * Adds a typed relationship from entity {@code id} to entity {@code target}.
   *
   * @throws dev.loci.NotFoundException naming {@code id} or {@code target}
   */
  public Entity relate(Namespace ns, String id, RelationType type, String target) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(target, "target");
    return engine.execute(
        ns, actor, ctx -> entities.decideRelate(ctx, ns, id, type, target, actor));
  }

  /**
   * The newest version of entity {@code id}.
   *
   * @throws dev.loci.NotFoundException naming {@code id}
   */
  public Entity get(Namespace ns, String id) {
    return engine.read(() -> layer.requireEntity(ns, id));
  }

  /** Every version of entity {@code id}, newest first. */
  public List<Entity> history(Namespace ns, String id) {
    return engine.read(() -> layer.entityHistory(ns, id));
  }

  /** The entities of {@code ns} of a type and status if given, in the order first proposed. */
  public List<Entity> list(Namespace ns, Optional<EntityType> type, Optional<EntityStatus> status) {
    return engine.read(
        () ->
            layer.entities(ns).stream()
                .filter(e -> type.isEmpty() || e.type() == type.get())
                .filter(e -> status.isEmpty() || e.status() == status.get())
                .toList());
  }

  private static String holder(Reviewer reviewer) {
    return Objects.requireNonNull(reviewer, "this act requires a reviewer").holder();
  }
}
