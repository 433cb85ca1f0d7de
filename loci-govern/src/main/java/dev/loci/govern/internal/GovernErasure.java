package dev.loci.govern.internal;

import dev.loci.govern.Conflict;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityField;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityWire;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Interaction;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryStatus;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.SubjectMention;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What erasure does to governed memory: an erased memory keeps its id, type, confidence,
 * provenance, version chain and times, and loses its content, slot, subjects and reason, and is
 * invalid in every version; a conflict with an erased member keeps its members and loses the slot
 * key (which names subjects) and, if open, is dismissed by the erasure. The journal scrub and the
 * in-memory erase both go through {@link #erased(Memory)} and {@link #erased(Conflict)}, so replay
 * and a live erase agree. A captured interaction that names subjects loses its text, speaker and
 * subjects; the memory candidates extracted from it name the same subjects and go with them.
 */
final class GovernErasure {
  /** The content an erased memory keeps. */
  static final String ERASED_CONTENT = "[erased]";

  private GovernErasure() {}

  static List<SubjectMention> mentions(Event e) {
    if (e.type().equals(GovernLayer.INTERACTION)) {
      Interaction i =
          e.decoded()
              .map(Interaction.class::cast)
              .orElseGet(() -> EntityWire.interaction(e.data()));
      return i.subjectIds().isEmpty()
          ? List.of()
          : List.of(new SubjectMention("interaction", i.id(), 1, i.subjectIds(), Optional.empty()));
    }
    if (e.type().equals(GovernLayer.ENTITY)) {
      Entity x = e.decoded().map(Entity.class::cast).orElseGet(() -> EntityWire.entity(e.data()));
      return x.subjectIds().isEmpty()
          ? List.of()
          : List.of(
              new SubjectMention("entity", x.id(), x.version(), x.subjectIds(), Optional.empty()));
    }
    if (!e.type().equals(GovernLayer.MEMORY)) {
      return List.of();
    }
    Memory m = e.decoded().map(Memory.class::cast).orElseGet(() -> GovernWire.memory(e.data()));
    return List.of(
        new SubjectMention("memory", m.id(), m.version(), m.subjectIds(), Optional.empty()));
  }

  static Event scrub(JournalEntry entry, Event e, Set<String> keys) {
    Event out = e;
    if (e.type().equals(GovernLayer.MEMORY)) {
      Memory m = GovernWire.memory(e.data());
      if (keys.contains(SubjectMention.key(entry.namespace(), m.id()))) {
        out = new Event(e.type(), GovernWire.memory(erased(m)));
      }
    } else if (e.type().equals(GovernLayer.ENTITY)) {
      Entity x = EntityWire.entity(e.data());
      if (keys.contains(SubjectMention.key(entry.namespace(), x.id()))) {
        out = new Event(e.type(), EntityWire.entity(erased(x)));
      }
    } else if (e.type().equals(GovernLayer.INTERACTION)) {
      Interaction i = EntityWire.interaction(e.data());
      if (keys.contains(SubjectMention.key(entry.namespace(), i.id()))) {
        out = new Event(e.type(), EntityWire.interaction(erased(i)));
      }
    } else if (e.type().equals(GovernLayer.CONFLICT)) {
      Conflict c = GovernWire.conflict(e.data());
      if (touches(c, keys)) {
        out = new Event(e.type(), GovernWire.conflict(erased(c)));
      }
    }
    return out.json().equals(e.json()) ? e : out;
  }

  static boolean touches(Conflict c, Set<String> keys) {
    return c.members().stream()
        .anyMatch(id -> keys.contains(SubjectMention.key(c.namespace(), id)));
  }

  static Memory erased(Memory m) {
    return new Memory(
        m.id(),
        m.namespace(),
        m.type(),
        ERASED_CONTENT,
        m.confidence(),
        MemoryStatus.INVALID,
        Optional.empty(),
        List.of(),
        m.reinforcements(),
        m.provenance(),
        m.supersededBy(),
        Optional.empty(),
        m.version(),
        m.createdAt(),
        m.updatedAt());
  }

  /**
   * An entity without its name, field values, subjects, reason and document sources (a file name
   * can name the person), invalid in every version; id, type, field names and versions, other
   * sources, relationships and times kept.
   */
  static Entity erased(Entity x) {
    Map<String, EntityField> fields = new LinkedHashMap<>();
    x.fields()
        .forEach(
            (k, f) ->
                fields.put(
                    k, new EntityField(ERASED_CONTENT, f.version(), f.updatedAt(), f.updatedBy())));
    return new Entity(
        x.id(),
        x.namespace(),
        x.type(),
        ERASED_CONTENT,
        fields,
        x.confidence(),
        EntityStatus.INVALID,
        x.reinforcements(),
        x.provenance(),
        x.sources().stream().filter(r -> !r.kind().equals("document")).toList(),
        List.of(),
        x.relationships(),
        x.supersededBy(),
        x.graduatedFrom(),
        Optional.empty(),
        x.version(),
        x.createdAt(),
        x.updatedAt());
  }

  /** An interaction without its text, speaker (a name) and subjects; id and times kept. */
  static Interaction erased(Interaction i) {
    return new Interaction(
        i.id(),
        i.namespace(),
        ERASED_CONTENT,
        ERASED_CONTENT,
        i.said(),
        i.capturedBy(),
        i.capturedAt(),
        List.of());
  }

  static Conflict erased(Conflict c) {
    boolean open = c.status() == Conflict.Status.OPEN;
    return new Conflict(
        c.id(),
        c.namespace(),
        "erased:" + c.id(),
        c.members(),
        open ? Conflict.Status.DISMISSED : c.status(),
        c.winner(),
        open ? Optional.of("erasure") : c.decidedBy(),
        c.openedAt(),
        open ? Optional.of(c.openedAt()) : c.closedAt());
  }
}
