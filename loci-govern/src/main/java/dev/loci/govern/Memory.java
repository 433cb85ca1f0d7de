package dev.loci.govern;

import dev.loci.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One version of a governed memory.
 *
 * @param id the memory's id (UUID v7), the same across its versions
 * @param namespace where it lives
 * @param type one of the six types
 * @param content the fact, in words
 * @param confidence 0 to 1; reinforcement raises it
 * @param status where it stands
 * @param slot what the memory is about, for conflicts: two active memories of one type, subjects
 *     and slot that say different things conflict (for example {@code coffee} for a preference)
 * @param subjectIds the data subjects the memory is about
 * @param reinforcements how many times the same fact was seen again
 * @param provenance who or what proposed it, from what
 * @param supersededBy the memory that replaced it, once superseded; the entity it became, once
 *     graduated (the forward pointer)
 * @param reason why it was rejected or invalidated, or by whom it was decided
 * @param version 1 for the first version, one more for each change
 * @param createdAt when it was first proposed
 * @param updatedAt when this version was written
 */
public record Memory(
    String id,
    Namespace namespace,
    MemoryType type,
    String content,
    double confidence,
    MemoryStatus status,
    Optional<String> slot,
    List<String> subjectIds,
    int reinforcements,
    Provenance provenance,
    Optional<String> supersededBy,
    Optional<String> reason,
    int version,
    Instant createdAt,
    Instant updatedAt) {
  /** Checks presence and ranges, and copies the subjects. */
  public Memory {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(slot, "slot");
    Objects.requireNonNull(provenance, "provenance");
    Objects.requireNonNull(supersededBy, "supersededBy");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    subjectIds = List.copyOf(subjectIds);
    if (!(confidence >= 0 && confidence <= 1)) {
      throw new IllegalArgumentException("confidence must be 0 to 1, found " + confidence);
    }
    if (version < 1 || reinforcements < 0) {
      throw new IllegalArgumentException("version must be 1 or more, reinforcements 0 or more");
    }
  }

  /** The conflict slot this memory claims: type, sorted subjects and slot; empty without a slot. */
  public Optional<String> slotKey() {
    return slot.map(
        s ->
            type.label() + "|" + String.join(",", subjectIds.stream().sorted().toList()) + "|" + s);
  }

  /** This memory in a new version with {@code status}, {@code reason} and time {@code at}. */
  public Memory withStatus(MemoryStatus status, Optional<String> reason, Instant at) {
    return new Memory(
        id,
        namespace,
        type,
        content,
        confidence,
        status,
        slot,
        subjectIds,
        reinforcements,
        provenance,
        supersededBy,
        reason,
        version + 1,
        createdAt,
        at);
  }

  /** This memory superseded by {@code successor} at {@code at}. */
  public Memory supersededBy(String successor, String decidedBy, Instant at) {
    return new Memory(
        id,
        namespace,
        type,
        content,
        confidence,
        MemoryStatus.SUPERSEDED,
        slot,
        subjectIds,
        reinforcements,
        provenance,
        Optional.of(successor),
        Optional.of(decidedBy),
        version + 1,
        createdAt,
        at);
  }

  /**
   * This memory frozen behind entity {@code entity}: status {@code graduated} with a forward
   * pointer; its content, confidence and provenance stay as they were, as history.
   */
  public Memory graduatedTo(String entity, String reason, Instant at) {
    return new Memory(
        id,
        namespace,
        type,
        content,
        confidence,
        MemoryStatus.GRADUATED,
        slot,
        subjectIds,
        reinforcements,
        provenance,
        Optional.of(entity),
        Optional.of(reason),
        version + 1,
        createdAt,
        at);
  }

  /** The entity it graduated into, once graduated. */
  public Optional<String> graduatedTo() {
    return status == MemoryStatus.GRADUATED ? supersededBy : Optional.empty();
  }

  /** This memory seen once more: one more reinforcement, confidence raised toward 1. */
  public Memory reinforced(Instant at) {
    double raised = Math.min(1.0, confidence + (1.0 - confidence) * 0.2);
    return new Memory(
        id,
        namespace,
        type,
        content,
        raised,
        status,
        slot,
        subjectIds,
        reinforcements + 1,
        provenance,
        supersededBy,
        reason,
        version + 1,
        createdAt,
        at);
  }
}
