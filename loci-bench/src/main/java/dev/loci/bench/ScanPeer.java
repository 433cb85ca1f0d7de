package dev.loci.bench;

import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.PathwayVec;
import dev.loci.pathway.ScoredTrace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The pathway benchmark's baseline: the same head traces in a plain {@code List}, queried by
 * scanning all of it. {@code query_by_vec} computes {@link PathwayVec#cosine} for every trace,
 * sorts all of them by score (ties by uid) and takes the first {@code k}; {@code query_for_hotswap}
 * keeps the traces of the pathway and sorts them in the spec's order. What a straightforward
 * implementation without an index would do, and exact by construction, so it is also the reference
 * the benchmark checks Loci's answers against.
 *
 * <p>Not thread-safe: fill it, then query it from one thread.
 */
final class ScanPeer {
  /** Score descending, then uid ascending: the order of spec section 6.2's {@code query_by_vec}. */
  static final Comparator<ScoredTrace> BY_SCORE =
      Comparator.comparingDouble(ScoredTrace::score)
          .reversed()
          .thenComparing(s -> s.trace().traceUid());

  /**
   * Success rate, then replay count, both descending, then newest first and uid ascending: the
   * order of spec section 6.2's {@code query_for_hotswap}.
   */
  static final Comparator<PathwayTrace> HOTSWAP_ORDER =
      Comparator.comparingDouble(ScanPeer::successRate)
          .thenComparingInt(PathwayTrace::replayCount)
          .thenComparing(PathwayTrace::createdAt)
          .reversed()
          .thenComparing(PathwayTrace::traceUid);

  private final List<PathwayTrace> heads;

  ScanPeer(int expected) {
    heads = new ArrayList<>(expected);
  }

  void add(PathwayTrace head) {
    heads.add(head);
  }

  int size() {
    return heads.size();
  }

  /** Head number {@code i}, in the order added. */
  PathwayTrace get(int i) {
    return heads.get(i);
  }

  /** The {@code k} heads most similar to {@code query}, best first. */
  List<ScoredTrace> similar(PathwayVec query, int k) {
    ScoredTrace[] all = new ScoredTrace[heads.size()];
    for (int i = 0; i < all.length; i++) {
      PathwayTrace t = heads.get(i);
      all[i] = new ScoredTrace(t, t.pathwayVec().cosine(query));
    }
    Arrays.sort(all, BY_SCORE);
    return List.of(Arrays.copyOf(all, Math.min(k, all.length)));
  }

  /** The first {@code k} heads of pathway {@code pathwayId} in hot-swap order. */
  List<PathwayTrace> hotswap(String pathwayId, int k) {
    List<PathwayTrace> hits = new ArrayList<>();
    for (PathwayTrace t : heads) {
      if (t.pathwayId().equals(pathwayId)) {
        hits.add(t);
      }
    }
    hits.sort(HOTSWAP_ORDER);
    return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
  }

  private static double successRate(PathwayTrace t) {
    return t.replayCount() == 0 ? 0.0 : (double) t.replaysSucceeded() / t.replayCount();
  }
}
