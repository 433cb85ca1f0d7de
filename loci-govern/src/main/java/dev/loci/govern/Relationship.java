package dev.loci.govern;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed link from one entity to another, with its own lifecycle: it is active until removed or
 * superseded, and stays as history after.
 *
 * @param type how the source relates to the target
 * @param target the target entity's id
 * @param addedBy who added it
 * @param addedAt when
 * @param removedAt when it stopped holding, if it did
 */
public record Relationship(
    RelationType type,
    String target,
    String addedBy,
    Instant addedAt,
    Optional<Instant> removedAt) {
  /** Checks presence. */
  public Relationship {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(addedBy, "addedBy");
    Objects.requireNonNull(addedAt, "addedAt");
    Objects.requireNonNull(removedAt, "removedAt");
  }

  /** Whether the relationship still holds. */
  public boolean active() {
    return removedAt.isEmpty();
  }
}
