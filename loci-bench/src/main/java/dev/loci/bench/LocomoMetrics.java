package dev.loci.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The retrieval metrics of the LoCoMo benchmark, for one ranked list against a set of gold ids.
 * Relevance is binary. Pure functions.
 */
final class LocomoMetrics {
  /** The cut-off of nDCG. */
  static final int NDCG_K = 10;

  private LocomoMetrics() {}

  /** 1 if at least one gold id is among the first {@code k} ranked, else 0. */
  static double recallAny(List<String> ranked, Set<String> gold, int k) {
    return found(ranked, gold, k) > 0 ? 1 : 0;
  }

  /** 1 if every gold id is among the first {@code k} ranked, else 0. */
  static double recallAll(List<String> ranked, Set<String> gold, int k) {
    return found(ranked, gold, k) == gold.size() ? 1 : 0;
  }

  /** The share of the gold ids among the first {@code k} ranked. */
  static double recall(List<String> ranked, Set<String> gold, int k) {
    return (double) found(ranked, gold, k) / gold.size();
  }

  /**
   * Normalized discounted cumulative gain at {@code k}: the sum of {@code 1 / log2(rank + 1)} over
   * the gold ids among the first {@code k}, divided by the same sum for a ranking that puts every
   * gold id first.
   */
  static double ndcg(List<String> ranked, Set<String> gold, int k) {
    double dcg = 0;
    for (int i = 0; i < Math.min(k, ranked.size()); i++) {
      if (gold.contains(ranked.get(i))) {
        dcg += 1 / log2(i + 2);
      }
    }
    double ideal = 0;
    for (int i = 0; i < Math.min(k, gold.size()); i++) {
      ideal += 1 / log2(i + 2);
    }
    return dcg / ideal;
  }

  /** The reciprocal of the rank of the first gold id in the list, 0 if none is there. */
  static double reciprocalRank(List<String> ranked, Set<String> gold) {
    for (int i = 0; i < ranked.size(); i++) {
      if (gold.contains(ranked.get(i))) {
        return 1.0 / (i + 1);
      }
    }
    return 0;
  }

  /**
   * The session-level view of a turn ranking: the session of each turn ({@code D3} for {@code
   * D3:12}), in the order first reached, each once. A session counts as retrieved at k when any of
   * its turns is among the first k turns, so the cut-off applies to turns, not to sessions: use
   * {@link #sessionsWithin}.
   */
  static List<String> sessions(Collection<String> turns) {
    Set<String> out = new LinkedHashSet<>();
    turns.forEach(t -> out.add(LocomoData.sessionOf(t)));
    return new ArrayList<>(out);
  }

  /**
   * The sessions reached by the first {@code k} turns of {@code ranked}, in order, padded to keep
   * the session-level lists comparable: this is the list the session metrics at {@code k} see.
   */
  static List<String> sessionsWithin(List<String> ranked, int k) {
    return sessions(ranked.subList(0, Math.min(k, ranked.size())));
  }

  private static int found(List<String> ranked, Set<String> gold, int k) {
    int n = 0;
    for (int i = 0; i < Math.min(k, ranked.size()); i++) {
      if (gold.contains(ranked.get(i))) {
        n++;
      }
    }
    return n;
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }
}
