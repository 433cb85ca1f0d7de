package dev.loci.recall.internal;

import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.spi.ScoringStrategy;
import java.util.Optional;
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

  /**
   * What the palace tells a recall of {@code ns}: its archived memories are hidden, and lifecycle
   * scoring reads each item's state at the clock's instant ({@code palace} empty: nothing is
   * hidden, but the strategy still says what is retired). Call under the engine's lock.
   */
  public static RecallContext of(
      RecallLayer layer,
      Optional<PalaceLayer> palace,
      ScoringStrategy scoring,
      java.time.Clock clock,
      Namespace ns,
      dev.loci.recall.ScoreWeights weights) {
    if (palace.isEmpty()) {
      return new RecallContext(Set.of(), scoring, RecallContext.NONE.candidate());
    }
    PalaceLayer p = palace.get();
    if (!weights.lifecycleAware()) {
      return new RecallContext(p.archived(ns), scoring, RecallContext.NONE.candidate());
    }
    PalaceView view = new PalaceView(layer, p);
    java.time.Instant now = clock.instant();
    java.time.Duration halfLife = p.halfLife(ns);
    return new RecallContext(
        p.archived(ns),
        scoring,
        n ->
            new ScoringStrategy.Candidate(
                n,
                view.state(ns, n, now),
                layer.nodeHistory(ns, n.id()).get(0).at(),
                halfLife,
                now));
  }
}
