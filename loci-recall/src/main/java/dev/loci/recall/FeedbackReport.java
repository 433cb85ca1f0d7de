package dev.loci.recall;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a feedback changed.
 *
 * @param used the memories whose use was recorded, in the order named
 * @param transitions the state changes it caused
 * @param route the route stored or reinforced, if the feedback named one and it was useful
 */
public record FeedbackReport(
    List<String> used, List<LifecycleTransition> transitions, Optional<String> route) {
  /** Copies. */
  public FeedbackReport {
    used = List.copyOf(used);
    transitions = List.copyOf(transitions);
    Objects.requireNonNull(route, "route");
  }
}
