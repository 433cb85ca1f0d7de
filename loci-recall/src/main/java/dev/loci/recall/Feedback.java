package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.util.List;
import java.util.Objects;

/**
 * A caller's word on what recall gave it: the memories it used, the route through them that worked,
 * and whether they were useful. Useful memories are reinforced; memories marked not useful lose
 * half their stability; a useful route of two or more steps is stored as a {@link RouteMemory}.
 *
 * @param nodeIds the memories used, at most {@value #MAX_IDS}
 * @param route the ordered way through memories that worked, empty for none
 * @param useful whether they helped
 */
public record Feedback(List<String> nodeIds, List<String> route, boolean useful) {
  /** The most ids one feedback may name. */
  public static final int MAX_IDS = 1000;

  /** Checks and copies; the exception names the offending field. */
  public Feedback {
    nodeIds = List.copyOf(Objects.requireNonNull(nodeIds, "nodeIds"));
    route = List.copyOf(Objects.requireNonNull(route, "route"));
    if (nodeIds.isEmpty() && route.isEmpty()) {
      throw new InvalidRequestException(
          "node_ids", "expected at least one node id in node_ids or route, found none");
    }
    if (nodeIds.size() > MAX_IDS) {
      throw new InvalidRequestException(
          "node_ids", "expected at most " + MAX_IDS + " ids, found " + nodeIds.size());
    }
    if (route.size() > 64) {
      throw new InvalidRequestException(
          "route", "expected at most 64 steps, found " + route.size());
    }
    if (route.size() == 1) {
      throw new InvalidRequestException(
          "route", "expected at least two steps (a way from one memory to another), found one");
    }
    for (int i = 1; i < route.size(); i++) {
      if (route.get(i).equals(route.get(i - 1))) {
        throw new InvalidRequestException(
            "route[" + i + "]", "expected a different memory than the step before it");
      }
    }
  }
}
