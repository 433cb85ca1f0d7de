package dev.loci.govern;

import java.util.List;
import java.util.Objects;

/**
 * An entity as a write left it, and the conflicts the write opened or joined.
 *
 * @param entity the entity's new version
 * @param conflicts the open conflicts the write opened or joined
 */
public record EntityWritten(Entity entity, List<Conflict> conflicts) {
  /** Checks presence and copies the list. */
  public EntityWritten {
    Objects.requireNonNull(entity, "entity");
    conflicts = List.copyOf(conflicts);
  }
}
