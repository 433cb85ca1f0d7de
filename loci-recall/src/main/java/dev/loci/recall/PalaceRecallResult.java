package dev.loci.recall;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A recall seen through the palace: the recall's items, paths, activation snapshot and trace, and
 * the memories behind the items with their type, space and lifecycle, the stored routes whose start
 * the recall returned, and what {@code reinforce=true} recorded.
 *
 * @param result the recall
 * @param retrievedMemories the palace memory of each item, in rank order (read after reinforcing)
 * @param routes the routes replayed: stored routes that start at a returned memory
 * @param reinforced what reinforcing the returned memories recorded, if asked
 */
public record PalaceRecallResult(
    RecallResult result,
    List<PalaceMemory> retrievedMemories,
    List<RouteMemory> routes,
    Optional<FeedbackReport> reinforced) {
  /** Checks presence and copies. */
  public PalaceRecallResult {
    Objects.requireNonNull(result, "result");
    retrievedMemories = List.copyOf(retrievedMemories);
    routes = List.copyOf(routes);
    Objects.requireNonNull(reinforced, "reinforced");
  }
}
