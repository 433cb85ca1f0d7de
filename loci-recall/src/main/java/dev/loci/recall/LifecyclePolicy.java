package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.time.Duration;
import java.util.Objects;

/**
 * How fast a namespace's memories fade: the half-life of an episodic memory never reinforced. Route
 * memories last twice as long, semantic ones four times, and each useful reinforcement lengthens a
 * memory's half-life by one more of its base (spaced repetition). Set per namespace as a journal
 * event, so replay decays with the same clock.
 *
 * @param halfLife the base half-life, at least one second
 */
public record LifecyclePolicy(Duration halfLife) {
  /** The half-life of a namespace nobody configured: 30 days. */
  public static final LifecyclePolicy DEFAULT = new LifecyclePolicy(Duration.ofDays(30));

  /** Checks the half-life. */
  public LifecyclePolicy {
    Objects.requireNonNull(halfLife, "halfLife");
    if (halfLife.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new InvalidRequestException(
          "half_life", "expected at least one second, found " + halfLife);
    }
  }
}
