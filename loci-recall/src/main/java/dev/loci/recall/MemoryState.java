package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The lifecycle of one palace memory as read at one instant: its recorded state, how often it was
 * reinforced, its stability then (decayed from the last change by the namespace's half-life, so it
 * moves with time without any write), and when it was last used.
 *
 * @param state the state the journal records (a sweep records what time changed)
 * @param reinforcementCount how many useful uses were recorded
 * @param stabilityScore the stability at the instant of reading, in [0, 1]
 * @param lastAccess when it was last reinforced or marked not useful, if ever
 */
public record MemoryState(
    LifecycleState state,
    long reinforcementCount,
    double stabilityScore,
    Optional<Instant> lastAccess) {
  /** Validates; the exception names the offending field. */
  public MemoryState {
    Objects.requireNonNull(state, "state");
    if (reinforcementCount < 0) {
      throw new InvalidRequestException(
          "reinforcement_count", "expected 0 or more, found " + reinforcementCount);
    }
    if (!(stabilityScore >= 0 && stabilityScore <= 1)) {
      throw new InvalidRequestException(
          "stability_score", "expected a number in [0, 1], found " + stabilityScore);
    }
    Objects.requireNonNull(lastAccess, "lastAccess");
  }
}
