package dev.loci.govern;

import java.util.Optional;

/**
 * One item of the unified review queue: a memory candidate or an entity candidate, with the source
 * it is grouped by and the rule that fired.
 *
 * @param memory the memory, for a memory candidate
 * @param entity the entity, for an entity candidate
 */
public record Candidate(Optional<Memory> memory, Optional<Entity> entity) {
  /** Checks that exactly one is present. */
  public Candidate {
    if (memory.isPresent() == entity.isPresent()) {
      throw new IllegalArgumentException("a candidate is a memory or an entity, exactly one");
    }
  }

  /** A memory candidate. */
  public static Candidate of(Memory m) {
    return new Candidate(Optional.of(m), Optional.empty());
  }

  /** An entity candidate. */
  public static Candidate of(Entity e) {
    return new Candidate(Optional.empty(), Optional.of(e));
  }

  /** {@code memory} or {@code entity}. */
  public String kind() {
    return memory.isPresent() ? "memory" : "entity";
  }

  /** The record's id. */
  public String id() {
    return memory.map(Memory::id).orElseGet(() -> entity.orElseThrow().id());
  }

  /** Its provenance. */
  public Provenance provenance() {
    return memory.map(Memory::provenance).orElseGet(() -> entity.orElseThrow().provenance());
  }

  /** When it was proposed. */
  public java.time.Instant createdAt() {
    return memory.map(Memory::createdAt).orElseGet(() -> entity.orElseThrow().createdAt());
  }

  /**
   * What the queue groups it by: {@code interaction:<id>}, {@code chunk:<id>}, or {@code
   * actor:<who>} for a direct proposal.
   */
  public String source() {
    Provenance p = provenance();
    return p.sourceInteraction()
        .map(s -> "interaction:" + s)
        .or(() -> p.sourceChunk().map(s -> "chunk:" + s))
        .orElse("actor:" + p.actor());
  }

  /** The rule that fired, or {@code manual} for a direct proposal. */
  public String rule() {
    return provenance().rule().orElse("manual");
  }
}
