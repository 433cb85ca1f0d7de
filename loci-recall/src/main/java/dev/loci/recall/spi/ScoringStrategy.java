package dev.loci.recall.spi;

import dev.loci.recall.MemoryNode;
import dev.loci.recall.MemoryState;
import dev.loci.recall.RecallMode;
import dev.loci.recall.ScoreWeights;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * How recall adjusts the score a mode gave an item with what the mode does not see: trust, recency,
 * lifecycle stability, usage. Recall calls it for every item it returns when the weights in force
 * are {@linkplain ScoreWeights#lifecycleAware() lifecycle-aware}, adds the components to the last
 * step of the item's path (so {@code --explain} shows them) and ranks by the combined score.
 * Implementations must be pure and thread-safe.
 */
public interface ScoringStrategy {
  /**
   * What the strategy may look at for one item.
   *
   * @param node the node
   * @param lifecycle its lifecycle read at {@code now}
   * @param lastChanged when the node was last written
   * @param halfLife its namespace's half-life
   * @param now the instant of the recall
   */
  record Candidate(
      MemoryNode node, MemoryState lifecycle, Instant lastChanged, Duration halfLife, Instant now) {
    /** Checks presence. */
    public Candidate {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(lifecycle, "lifecycle");
      Objects.requireNonNull(lastChanged, "lastChanged");
      Objects.requireNonNull(halfLife, "halfLife");
      Objects.requireNonNull(now, "now");
    }
  }

  /** The strategy's name, shown in results. */
  String name();

  /** The named components of {@code c}'s standing, each in [0, 1], in a stable order. */
  Map<String, Double> components(Candidate c);

  /**
   * The item's final score from the mode's {@code base} score and the components, under {@code
   * weights}.
   */
  double combine(
      RecallMode mode, double base, Map<String, Double> components, ScoreWeights weights);

  /**
   * Whether {@code node} is retired: a record its own store has replaced or withdrawn (a governed
   * record superseded, invalidated or graduated). Recall ranks retired items after every other item
   * under any weights, the default ones included, and keeps the order within each group; so a
   * retired record never outranks its current successor. By default nothing is retired and rankings
   * are untouched.
   */
  default boolean retired(MemoryNode node) {
    return false;
  }
}
