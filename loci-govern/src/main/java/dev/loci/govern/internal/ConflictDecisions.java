package dev.loci.govern.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.govern.Conflict;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityField;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.StateEntry;
import dev.loci.govern.Written;
import dev.loci.spi.CommandContext;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Conflict detection and the reviewer's decisions on conflicts: flag, never block. A decision that
 * activates a record checks the slot it claims against the other active records and trusted state
 * of its namespace and opens or joins a conflict in the same batch; the sweep finds what write-time
 * detection missed; only a reviewer resolves or dismisses. Decides against the layer's current
 * state; the engine runs decisions one at a time.
 */
public final class ConflictDecisions {
  private final GovernLayer layer;

  /** Decisions over {@code layer}'s state. */
  public ConflictDecisions(GovernLayer layer) {
    this.layer = layer;
  }

  /** Closes an open conflict by keeping {@code winner} and superseding the other memories. */
  public Decision<Conflict> decideResolve(
      CommandContext ctx, Namespace ns, String conflictId, String winner, String reviewer) {
    Conflict c = requireOpen(ns, conflictId);
    if (!c.members().contains(winner)) {
      throw new InvalidRequestException(
          "winner",
          "expected one of the conflict's members " + c.members() + ", found '" + winner + "'");
    }
    List<Event> events = new ArrayList<>();
    Set<String> keys = new HashSet<>(Set.of(conflictId));
    for (String member : c.members()) {
      if (member.equals(winner)) {
        continue;
      }
      if (member.startsWith(Conflict.STATE)) {
        // the reviewer chose a record over trusted state: the state takes the winner's value
        String key = member.substring(Conflict.STATE.length());
        StateEntry e = new StateEntry(key, winningValue(ns, winner, key), reviewer, ctx.now());
        events.add(new Event(GovernLayer.STATE_SET, GovernWire.state(e)));
        continue;
      }
      if (member.startsWith(Conflict.ENTITY)) {
        Entity e = layer.requireEntity(ns, member.substring(Conflict.ENTITY.length()));
        if (e.status() == EntityStatus.ACTIVE) {
          events.add(GovernLayer.entityEvent(e.supersededBy(bare(winner), reviewer, ctx.now())));
          keys.add(e.id());
        }
        continue;
      }
      Memory m = layer.require(ns, member);
      if (m.status() == MemoryStatus.ACTIVE) {
        events.add(GovernLayer.memoryEvent(m.supersededBy(bare(winner), reviewer, ctx.now())));
        keys.add(member);
      }
    }
    Conflict closed = c.closed(Conflict.Status.RESOLVED, Optional.of(winner), reviewer, ctx.now());
    events.add(GovernLayer.conflictEvent(closed));
    return new Decision<>(events, keys, closed);
  }

  /** The value a state key takes when {@code winner} wins over it. */
  private String winningValue(Namespace ns, String winner, String key) {
    if (winner.startsWith(Conflict.ENTITY)) {
      Entity e = layer.requireEntity(ns, bare(winner));
      return e.fields().keySet().stream()
          .filter(f -> e.crossKey(f).equals(key))
          .findFirst()
          .map(f -> e.fields().get(f).value())
          .orElse(e.text());
    }
    return layer.require(ns, winner).content();
  }

  /** A member's record id, without its kind prefix. */
  static String bare(String member) {
    return member.startsWith(Conflict.ENTITY) ? member.substring(Conflict.ENTITY.length()) : member;
  }

  /** Closes an open conflict as no real conflict. */
  public Decision<Conflict> decideDismiss(
      CommandContext ctx, Namespace ns, String conflictId, String reviewer) {
    Conflict closed =
        requireOpen(ns, conflictId)
            .closed(Conflict.Status.DISMISSED, Optional.empty(), reviewer, ctx.now());
    return new Decision<>(List.of(GovernLayer.conflictEvent(closed)), Set.of(conflictId), closed);
  }

  /**
   * Opens a conflict for every slot of {@code ns} whose active memories (and trusted state)
   * disagree and that has no open conflict yet: the sweep that catches what write-time detection
   * did not see (memories activated before a slot was set, imports).
   */
  public Decision<List<Conflict>> decideSweep(CommandContext ctx, Namespace ns) {
    Shelf shelf = layer.shelf(ns);
    Map<String, List<Memory>> bySlot = new LinkedHashMap<>();
    shelf.activeBySlot.forEach((k, ids) -> bySlot.put(k, ids.stream().map(shelf::newest).toList()));
    List<Event> events = new ArrayList<>();
    List<Conflict> opened = new ArrayList<>();
    for (List<Memory> group : bySlot.values()) {
      Memory first = group.get(0);
      List<String> members = disagreeing(ns, first, group);
      if (!members.isEmpty() && openConflict(ns, first.slotKey().get()).isEmpty()) {
        List<String> all = new ArrayList<>(members);
        all.add(0, first.id());
        Conflict c =
            withAll(Conflict.opened(ctx.newId(), ns, first.slotKey().get(), ctx.now()), all);
        events.add(GovernLayer.conflictEvent(c));
        opened.add(c);
      }
    }
    EntityShelf es = shelf.entities;
    for (Map.Entry<String, Set<String>> slot : es.activeBySlot.entrySet()) {
      List<Entity> group = slot.getValue().stream().map(es::newest).toList();
      String field = slot.getKey().substring(slot.getKey().lastIndexOf('|') + 1);
      Entity first = group.get(0);
      List<String> members = disagreeing(ns, first, field, group);
      if (!members.isEmpty() && openConflict(ns, slot.getKey()).isEmpty()) {
        List<String> all = new ArrayList<>(members);
        all.add(0, Conflict.ENTITY + first.id());
        Conflict c = withAll(Conflict.opened(ctx.newId(), ns, slot.getKey(), ctx.now()), all);
        events.add(GovernLayer.conflictEvent(c));
        opened.add(c);
      }
    }
    return new Decision<>(events, Set.of("conflicts"), opened);
  }

  /**
   * The batch that writes entity {@code e} active (and {@code alsoWritten} beside it), with the
   * conflicts its field slots open or join: other active entities of the same type and name whose
   * field says otherwise, and across layers trusted state and active memories that name the field
   * by its cross-layer key ({@link Entity#crossKey}).
   */
  Decision<EntityWritten> entityActivated(
      CommandContext ctx, Namespace ns, Entity e, List<Event> alsoWritten) {
    List<Event> events = new ArrayList<>(alsoWritten);
    Set<String> keys = new HashSet<>(Set.of(e.id()));
    List<Entity> versions = layer.shelf(ns).entities.entities.get(e.id());
    if (versions == null || versions.get(versions.size() - 1).version() < e.version()) {
      events.add(GovernLayer.entityEvent(e)); // an already active successor is not written again
    }
    List<Conflict> conflicts = new ArrayList<>();
    EntityShelf es = layer.shelf(ns).entities;
    for (String field : e.fields().keySet()) {
      List<Entity> sameSlot = new ArrayList<>();
      for (String id : es.activeBySlot.getOrDefault(e.slotKey(field), Set.of())) {
        if (!id.equals(e.id())) {
          sameSlot.add(es.newest(id));
        }
      }
      List<String> members = disagreeing(ns, e, field, sameSlot);
      if (!members.isEmpty()) {
        Conflict c =
            withAll(openOrNew(ctx, ns, e.slotKey(field)), members).with(Conflict.ENTITY + e.id());
        events.add(GovernLayer.conflictEvent(c));
        keys.add(c.id());
        conflicts.add(c);
      }
    }
    return new Decision<>(events, keys, new EntityWritten(e, conflicts));
  }

  /**
   * The members that disagree with field {@code field} of {@code e}: entities of {@code group}
   * whose value differs, trusted state under its cross-layer key, and active memories whose slot is
   * that key and whose content does not hold the value.
   */
  private List<String> disagreeing(Namespace ns, Entity e, String field, List<Entity> group) {
    String value = e.fields().get(field).value();
    List<String> out = new ArrayList<>();
    for (Entity other : group) {
      EntityField f = other.fields().get(field);
      if (!other.id().equals(e.id())
          && f != null
          && !Shelf.normal(f.value()).equals(Shelf.normal(value))) {
        out.add(Conflict.ENTITY + other.id());
      }
    }
    Shelf shelf = layer.shelf(ns);
    String cross = e.crossKey(field);
    StateEntry st = shelf.state.get(cross);
    if (st != null && !agrees(st.value(), value)) {
      out.add(Conflict.STATE + st.key());
    }
    shelf.activeBySlot.forEach(
        (slotKey, ids) -> {
          if (slotKey.endsWith("|" + cross)) {
            for (String id : ids) {
              if (!agrees(shelf.newest(id).content(), value)) {
                out.add(id);
              }
            }
          }
        });
    return out;
  }

  /** Whether two values from different layers say the same: one holds the other, normalized. */
  static boolean agrees(String a, String b) {
    String na = Shelf.normal(a);
    String nb = Shelf.normal(b);
    return na.contains(nb) || nb.contains(na);
  }

  /**
   * The conflict event, if any, that setting trusted state {@code key} to {@code value} opens or
   * joins: active memories whose slot is the key and that say otherwise.
   */
  Optional<Event> stateConflict(CommandContext ctx, Namespace ns, String key, String value) {
    List<String> against = new ArrayList<>();
    Shelf shelf = layer.shelf(ns);
    shelf.activeBySlot.forEach(
        (slotKey, ids) -> {
          if (slotKey.endsWith("|" + key)) {
            for (String id : ids) {
              Memory m = shelf.newest(id);
              if (!Shelf.normal(m.content()).equals(Shelf.normal(value))) {
                against.add(m.id());
              }
            }
          }
        });
    EntityShelf es = shelf.entities;
    for (String id : es.activeByCross.getOrDefault(key, Set.of())) {
      Entity en = es.newest(id);
      en.fields()
          .forEach(
              (f, v) -> {
                if (en.crossKey(f).equals(key) && !agrees(value, v.value())) {
                  against.add(Conflict.ENTITY + id);
                }
              });
    }
    if (against.isEmpty()) {
      return Optional.empty();
    }
    Conflict c = withAll(openOrNew(ctx, ns, "state|" + key).with("state:" + key), against);
    return Optional.of(GovernLayer.conflictEvent(c));
  }

  /**
   * The batch that writes {@code m} active (and {@code alsoWritten} beside it), with the conflict
   * its slot opens or joins.
   */
  Decision<Written> activated(
      CommandContext ctx, Namespace ns, Memory m, List<Memory> alsoWritten) {
    List<Event> events = new ArrayList<>();
    Set<String> keys = new HashSet<>(Set.of(m.id()));
    for (Memory other : alsoWritten) {
      events.add(GovernLayer.memoryEvent(other));
      keys.add(other.id());
    }
    if (isNew(ns, m)) { // an already active successor is checked, not written again
      events.add(GovernLayer.memoryEvent(m));
    }
    List<Conflict> conflicts = new ArrayList<>();
    if (m.slotKey().isPresent()) {
      Shelf shelf = layer.shelf(ns);
      List<Memory> sameSlot = new ArrayList<>();
      for (String id : shelf.activeBySlot.getOrDefault(m.slotKey().get(), Set.of())) {
        boolean replaced = alsoWritten.stream().anyMatch(a -> a.id().equals(id));
        if (!replaced && !id.equals(m.id())) {
          sameSlot.add(shelf.newest(id));
        }
      }
      List<String> members = disagreeing(ns, m, sameSlot);
      if (!members.isEmpty()) {
        String slotKey = m.slotKey().get();
        Conflict c = withAll(openOrNew(ctx, ns, slotKey), members).with(m.id());
        events.add(GovernLayer.conflictEvent(c));
        keys.add(c.id());
        conflicts.add(c);
      }
    }
    return new Decision<>(events, keys, new Written(m, conflicts));
  }

  /** Whether {@code m} is a version the layer does not hold yet. */
  private boolean isNew(Namespace ns, Memory m) {
    List<Memory> versions = layer.shelf(ns).memories.get(m.id());
    return versions == null || versions.get(versions.size() - 1).version() < m.version();
  }

  /** The members of {@code group} and trusted state that disagree with {@code m}. */
  private List<String> disagreeing(Namespace ns, Memory m, List<Memory> group) {
    List<String> out = new ArrayList<>();
    for (Memory other : group) {
      if (!other.id().equals(m.id())
          && !Shelf.normal(other.content()).equals(Shelf.normal(m.content()))) {
        out.add(other.id());
      }
    }
    if (m.slot().isPresent()) {
      StateEntry e = layer.shelf(ns).state.get(m.slot().get());
      if (e != null && !Shelf.normal(e.value()).equals(Shelf.normal(m.content()))) {
        out.add("state:" + e.key());
      }
      EntityShelf es = layer.shelf(ns).entities;
      for (String id : es.activeByCross.getOrDefault(m.slot().get(), Set.of())) {
        Entity en = es.newest(id);
        for (String f : en.fields().keySet()) {
          if (en.crossKey(f).equals(m.slot().get())
              && !agrees(m.content(), en.fields().get(f).value())) {
            out.add(Conflict.ENTITY + id);
          }
        }
      }
    }
    return out;
  }

  /** The open conflict over {@code slotKey}, or a new one with no members yet. */
  private Conflict openOrNew(CommandContext ctx, Namespace ns, String slotKey) {
    return openConflict(ns, slotKey)
        .orElseGet(() -> Conflict.opened(ctx.newId(), ns, slotKey, ctx.now()));
  }

  private static Conflict withAll(Conflict c, List<String> members) {
    for (String m : members) {
      c = c.with(m);
    }
    return c;
  }

  private Optional<Conflict> openConflict(Namespace ns, String slotKey) {
    Shelf s = layer.shelf(ns);
    return Optional.ofNullable(s.openBySlot.get(slotKey)).map(s.conflicts::get);
  }

  private Conflict requireOpen(Namespace ns, String conflictId) {
    Conflict c = layer.shelf(ns).conflicts.get(conflictId);
    if (c == null) {
      throw new NotFoundException("id", "no conflict '" + conflictId + "' in " + ns);
    }
    if (c.status() != Conflict.Status.OPEN) {
      throw new InvalidRequestException(
          "status", "expected an open conflict, found " + c.status().label());
    }
    return c;
  }
}
