package dev.loci.recall;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a lifecycle sweep recorded.
 *
 * @param at the instant the sweep judged decay at
 * @param examined how many memories it looked at
 * @param transitions the state changes time had caused, each now a journal event
 */
public record SweepReport(Instant at, int examined, List<LifecycleTransition> transitions) {
  /** Copies. */
  public SweepReport {
    Objects.requireNonNull(at, "at");
    transitions = List.copyOf(transitions);
  }
}
