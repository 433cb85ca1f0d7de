package dev.loci.recall.internal;

import dev.loci.recall.MemoryNode;
import dev.loci.recall.spi.ScoringStrategy;
import java.util.Set;
import java.util.function.Function;

/**
 * What the palace tells one recall: the memories it must not return (archived ones), and how to
 * score items with their lifecycle. Built under the engine's shared lock, used within it.
 *
 * @param hidden node ids recall treats as absent
 * @param scoring the scoring strategy applied when the weights are lifecycle-aware
 * @param candidate what the strategy sees of a node
 */
public record RecallContext(
    Set<String> hidden,
    ScoringStrategy scoring,
    Function<MemoryNode, ScoringStrategy.Candidate> candidate) {
  /** No palace: nothing hidden, no lifecycle scoring. */
  public static final RecallContext NONE =
      new RecallContext(
          Set.of(),
          dev.loci.recall.LifecycleScoring.INSTANCE,
          n -> {
            throw new IllegalStateException("no lifecycle without the palace layer");
          });
}
