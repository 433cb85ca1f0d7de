package dev.loci.govern;

import java.util.List;
import java.util.Objects;

/**
 * A memory as a write left it, and the conflicts that write opened or joined: a conflicting write
 * always succeeds, and says so in its result.
 *
 * @param memory the memory's new version
 * @param conflicts the open conflicts the write opened or joined
 */
public record Written(Memory memory, List<Conflict> conflicts) {
  /** Checks presence and copies the list. */
  public Written {
    Objects.requireNonNull(memory, "memory");
    conflicts = List.copyOf(conflicts);
  }
}
