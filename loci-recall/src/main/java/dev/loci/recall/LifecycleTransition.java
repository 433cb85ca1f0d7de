package dev.loci.recall;

import java.time.Instant;
import java.util.Objects;

/**
 * One recorded change of a memory's lifecycle state, with why it happened.
 *
 * @param nodeId the memory
 * @param from the state before
 * @param to the state after
 * @param reason why, in words (for example {@code stability 0.18 below 0.20 after 41 days})
 * @param at when it was recorded
 */
public record LifecycleTransition(
    String nodeId, LifecycleState from, LifecycleState to, String reason, Instant at) {
  /** Checks presence. */
  public LifecycleTransition {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(at, "at");
  }
}
