package dev.loci.govern;

import dev.loci.Namespace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One version of a typed engineering entity: a separate record from {@link Memory} with its own
 * lifecycle (the four statuses), per-field versions, typed relationships to other entities, and
 * provenance as a graph of sources.
 *
 * @param id the entity's id (UUID v7), the same across its versions
 * @param namespace where it lives
 * @param type what kind of engineering fact it is
 * @param name what it is called ("rated pressure", "cooling loop"); with the type, its identity
 * @param fields its fields by name, each with its own version
 * @param confidence 0 to 1; reinforcement raises it
 * @param status where it stands
 * @param reinforcements how many times the same entity was proposed again
 * @param provenance who or which rule proposed it, from which interaction and chunk
 * @param sources the provenance graph: the interactions, chunks, documents, results and memories it
 *     came from or is supported by
 * @param subjectIds the people it is about: those of the interactions and chunks it was extracted
 *     from (an engineering fact usually names none); erasing one of them erases its text
 * @param relationships its links to other entities, active and past
 * @param supersededBy the entity that replaced it, once superseded
 * @param graduatedFrom the memory it graduated from, if it did
 * @param reason why it was rejected or invalidated, or who promoted it
 * @param version 1 for the first version, one more per change
 * @param createdAt when it was first proposed
 * @param updatedAt when this version was written
 */
public record Entity(
    String id,
    Namespace namespace,
    EntityType type,
    String name,
    Map<String, EntityField> fields,
    double confidence,
    EntityStatus status,
    int reinforcements,
    Provenance provenance,
    List<SourceRef> sources,
    List<String> subjectIds,
    List<Relationship> relationships,
    Optional<String> supersededBy,
    Optional<String> graduatedFrom,
    Optional<String> reason,
    int version,
    Instant createdAt,
    Instant updatedAt) {
  /** Checks presence and ranges; copies the collections (fields sorted by name). */
  public Entity {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(provenance, "provenance");
    Objects.requireNonNull(supersededBy, "supersededBy");
    Objects.requireNonNull(graduatedFrom, "graduatedFrom");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    fields = java.util.Collections.unmodifiableMap(new TreeMap<>(fields));
    sources = List.copyOf(sources);
    subjectIds = List.copyOf(subjectIds);
    relationships = List.copyOf(relationships);
    if (!(confidence >= 0 && confidence <= 1)) {
      throw new IllegalArgumentException("confidence must be 0 to 1, found " + confidence);
    }
    if (version < 1 || reinforcements < 0) {
      throw new IllegalArgumentException("version must be 1 or more, reinforcements 0 or more");
    }
  }

  /** The fields' values by name. */
  public Map<String, String> values() {
    Map<String, String> out = new LinkedHashMap<>();
    fields.forEach((k, f) -> out.put(k, f.value()));
    return out;
  }

  /** The entity in one line, as a context pack shows it: {@code Parameter rated pressure: ...}. */
  public String text() {
    String label = type.label();
    String head = Character.toUpperCase(label.charAt(0)) + label.substring(1) + " " + name;
    if (fields.isEmpty()) {
      return head;
    }
    return head
        + ": "
        + fields.entrySet().stream()
            .map(e -> e.getKey() + " = " + e.getValue().value())
            .collect(Collectors.joining("; "));
  }

  /** The conflict slot of field {@code field}: entity type, normalized name, field. */
  public String slotKey(String field) {
    return "entity|" + type.label() + "|" + normalName(name) + "|" + field;
  }

  /**
   * The key by which trusted project state and memory slots name this entity's field {@code field}:
   * the name as a slug ({@code rated_pressure}) for field {@code value}, else slug and field
   * ({@code cooling_loop.medium}).
   */
  public String crossKey(String field) {
    String slug = normalName(name).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
    return field.equals("value") ? slug : slug + "." + field;
  }

  /** A name as compared for identity: trimmed, lower case, single spaces. */
  public static String normalName(String name) {
    return name.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
  }

  /** This entity in a new version with {@code status}, {@code reason} and time {@code at}. */
  public Entity withStatus(EntityStatus status, Optional<String> reason, Instant at) {
    return new Entity(
        id,
        namespace,
        type,
        name,
        fields,
        confidence,
        status,
        reinforcements,
        provenance,
        sources,
        subjectIds,
        relationships,
        supersededBy,
        graduatedFrom,
        reason,
        version + 1,
        createdAt,
        at);
  }

  /** This entity superseded by {@code successor}. */
  public Entity supersededBy(String successor, String decidedBy, Instant at) {
    return new Entity(
        id,
        namespace,
        type,
        name,
        fields,
        confidence,
        EntityStatus.SUPERSEDED,
        reinforcements,
        provenance,
        sources,
        subjectIds,
        relationships,
        Optional.of(successor),
        graduatedFrom,
        Optional.of(decidedBy),
        version + 1,
        createdAt,
        at);
  }

  /**
   * This entity seen once more: one more reinforcement, confidence raised toward 1, new sources and
   * the people they are about.
   */
  public Entity reinforced(List<SourceRef> more, List<String> moreSubjects, Instant at) {
    double raised = Math.min(1.0, confidence + (1.0 - confidence) * 0.2);
    List<SourceRef> all = new ArrayList<>(sources);
    more.stream().filter(s -> !all.contains(s)).forEach(all::add);
    List<String> people = new ArrayList<>(subjectIds);
    moreSubjects.stream().filter(s -> !people.contains(s)).forEach(people::add);
    return new Entity(
        id,
        namespace,
        type,
        name,
        fields,
        raised,
        status,
        reinforcements + 1,
        provenance,
        all,
        people,
        relationships,
        supersededBy,
        graduatedFrom,
        reason,
        version + 1,
        createdAt,
        at);
  }

  /**
   * This entity with {@code changes} applied: a field whose value changes (or is new) moves to its
   * next version; unchanged fields keep theirs.
   */
  public Entity withFields(Map<String, String> changes, String by, Instant at) {
    Map<String, EntityField> next = new TreeMap<>(fields);
    changes.forEach(
        (k, v) -> {
          EntityField old = next.get(k);
          if (old == null) {
            next.put(k, new EntityField(v, 1, at, by));
          } else if (!old.value().equals(v)) {
            next.put(k, new EntityField(v, old.version() + 1, at, by));
          }
        });
    return new Entity(
        id,
        namespace,
        type,
        name,
        next,
        confidence,
        status,
        reinforcements,
        provenance,
        sources,
        subjectIds,
        relationships,
        supersededBy,
        graduatedFrom,
        reason,
        version + 1,
        createdAt,
        at);
  }

  /** This entity with one more relationship. */
  public Entity withRelationship(Relationship r, Instant at) {
    List<Relationship> all = new ArrayList<>(relationships);
    all.add(r);
    return new Entity(
        id,
        namespace,
        type,
        name,
        fields,
        confidence,
        status,
        reinforcements,
        provenance,
        sources,
        subjectIds,
        all,
        supersededBy,
        graduatedFrom,
        reason,
        version + 1,
        createdAt,
        at);
  }
}
