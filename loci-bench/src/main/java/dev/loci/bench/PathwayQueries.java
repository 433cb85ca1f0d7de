package dev.loci.bench;

import dev.loci.NamespaceScope;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.PathwayVec;
import dev.loci.pathway.ScoredTrace;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * The query half of {@link PathwayBenchmark}: {@code query_for_hotswap} and {@code query_by_vec}
 * timed on Loci and on the exact scan from one random sequence, every answer checked against the
 * scan's.
 */
final class PathwayQueries {
  private PathwayQueries() {}

  private record HotswapInput(
      String taskClass, String filePath, Optional<String> signalClass, String pathwayId) {}

  /** The queries of one size, against Loci and the exact scan, from one random sequence. */
  record Queries(
      PathwayMemory memory,
      NamespaceScope scope,
      BenchPathways data,
      ScanPeer peer,
      SplittableRandom random,
      PrintStream log,
      int size) {
    /** Times {@code count} {@code query_for_hotswap}s on each side; fails on any difference. */
    PathwayBenchmark.QueryResult hotswap(int count) {
      int k = PathwayMemory.HOTSWAP_K;
      List<HotswapInput> inputs = new ArrayList<>(count + PathwayBenchmark.QUERY_WARMUP);
      for (int j = 0; j < count + PathwayBenchmark.QUERY_WARMUP; j++) {
        PathwayTrace t =
            random.nextInt(10) < 9
                ? peer.get(random.nextInt(peer.size()))
                : data.draft(PathwayBenchmark.FRESH + size + j).build();
        inputs.add(new HotswapInput(t.taskClass(), t.filePath(), t.signalClass(), t.pathwayId()));
      }
      Timed<List<PathwayTrace>> loci =
          time(
              inputs.size(),
              j -> {
                HotswapInput in = inputs.get(j);
                return memory.queryForHotswap(
                    scope, in.taskClass(), in.filePath(), in.signalClass(), k);
              });
      Timed<List<PathwayTrace>> scan =
          time(inputs.size(), j -> peer.hotswap(inputs.get(j).pathwayId(), k));
      for (int j = 0; j < inputs.size(); j++) {
        List<String> a = uids(loci.results().get(j));
        List<String> b = uids(scan.results().get(j));
        if (!a.equals(b)) {
          throw new IllegalStateException(
              "query_for_hotswap differs from the exact scan at query "
                  + j
                  + " "
                  + inputs.get(j)
                  + ": Loci "
                  + a
                  + ", scan "
                  + b);
        }
      }
      PathwayBenchmark.QueryResult r =
          new PathwayBenchmark.QueryResult(k, loci.latency(), scan.latency(), count, 1.0, 0);
      logQuery(log, size, "query_for_hotswap", r);
      return r;
    }

    /** Times {@code count} {@code query_by_vec}s on each side; fails on any difference. */
    PathwayBenchmark.QueryResult byVec(int count) {
      int k = PathwayMemory.SIMILAR_K;
      List<PathwayVec> inputs = new ArrayList<>(count + PathwayBenchmark.QUERY_WARMUP);
      List<float[]> arrays = new ArrayList<>(count + PathwayBenchmark.QUERY_WARMUP);
      for (int j = 0; j < count + PathwayBenchmark.QUERY_WARMUP; j++) {
        PathwayVec v =
            j % 2 == 0
                ? peer.get(random.nextInt(peer.size())).pathwayVec()
                : data.draft(PathwayBenchmark.FRESH + size + j).build().pathwayVec();
        inputs.add(v);
        arrays.add(v.values());
      }
      Timed<List<ScoredTrace>> loci =
          time(inputs.size(), j -> memory.queryByVec(scope, arrays.get(j), k, false));
      Timed<List<ScoredTrace>> scan = time(inputs.size(), j -> peer.similar(inputs.get(j), k));
      int sameOrder = 0;
      double recall = 0;
      double maxTieGap = 0;
      for (int j = PathwayBenchmark.QUERY_WARMUP; j < inputs.size(); j++) {
        List<ScoredTrace> a = loci.results().get(j);
        List<ScoredTrace> b = scan.results().get(j);
        TopKCheck c = checkTopK(j, inputs.get(j), a, b);
        recall += c.recall();
        maxTieGap = Math.max(maxTieGap, c.maxTieGap());
        sameOrder += uidsOf(a).equals(uidsOf(b)) ? 1 : 0;
      }
      PathwayBenchmark.QueryResult r =
          new PathwayBenchmark.QueryResult(
              k, loci.latency(), scan.latency(), sameOrder, recall / count, maxTieGap);
      logQuery(log, size, "query_by_vec", r);
      return r;
    }
  }

  /**
   * Checks Loci's answer {@code got} against the exact scan's {@code exact} for {@code query}: as
   * long, no uid twice, Loci's scores the exact cosines of its traces, and at every position the
   * exact cosine of Loci's trace equal to the scan's there (within {@link
   * #PathwayBenchmark.SCORE_TOLERANCE}).
   *
   * @throws IllegalStateException describing the first difference
   */
  static TopKCheck checkTopK(
      int queryIndex, PathwayVec query, List<ScoredTrace> got, List<ScoredTrace> exact) {
    String where = "query_by_vec query " + queryIndex + " " + query + ": ";
    if (got.size() != exact.size()) {
      throw new IllegalStateException(
          where + "Loci returned " + got.size() + " traces, the exact scan " + exact.size());
    }
    Set<String> seen = new HashSet<>();
    int inTopK = 0;
    double maxTieGap = 0;
    double last = exact.isEmpty() ? 0 : exact.get(exact.size() - 1).score();
    for (int i = 0; i < got.size(); i++) {
      ScoredTrace g = got.get(i);
      ScoredTrace e = exact.get(i);
      String uid = g.trace().traceUid();
      if (!seen.add(uid)) {
        throw new IllegalStateException(where + "Loci returned " + uid + " twice");
      }
      double cosine = g.trace().pathwayVec().cosine(query);
      if (Math.abs(g.score() - cosine) > PathwayBenchmark.SCORE_TOLERANCE) {
        throw new IllegalStateException(
            where + "Loci scored " + uid + " " + g.score() + ", its exact cosine is " + cosine);
      }
      if (Math.abs(cosine - e.score()) > PathwayBenchmark.SCORE_TOLERANCE) {
        throw new IllegalStateException(
            where
                + "at position "
                + i
                + " Loci has "
                + uid
                + " (cosine "
                + cosine
                + "), the exact scan "
                + e.trace().traceUid()
                + " (cosine "
                + e.score()
                + "); Loci "
                + uidsOf(got)
                + ", scan "
                + uidsOf(exact));
      }
      inTopK += cosine >= last - PathwayBenchmark.SCORE_TOLERANCE ? 1 : 0;
      if (!uid.equals(e.trace().traceUid())) {
        maxTieGap = Math.max(maxTieGap, Math.abs(cosine - e.score()));
      }
    }
    return new TopKCheck(got.isEmpty() ? 1.0 : (double) inTopK / got.size(), maxTieGap);
  }

  /**
   * What {@link #checkTopK} found in an answer that passed.
   *
   * @param recall the share of the answer that belongs in the exact top k, counting ties with the
   *     last
   * @param maxTieGap the largest exact-cosine difference at a position whose uids differ
   */
  record TopKCheck(double recall, double maxTieGap) {}

  private static void logQuery(
      PrintStream log, int size, String what, PathwayBenchmark.QueryResult r) {
    log.printf(
        Locale.ROOT,
        "%,d traces: %s k=%d over %,d queries: Loci %s, exact scan %s; scan/Loci %.1fx;"
            + " recall %.3f, same order %,d, largest tie gap %.1e%n",
        size,
        what,
        r.k(),
        r.loci().queries(),
        r.loci().detail(),
        r.scan().detail(),
        r.ratio(),
        r.recall(),
        r.sameOrder(),
        r.maxTieGap());
  }

  /**
   * Answers and latencies of queries; the first {@link #PathwayBenchmark.QUERY_WARMUP} answers are
   * not timed.
   */
  private record Timed<R>(List<R> results, Latency latency) {}

  private static <R> Timed<R> time(int count, IntFunction<R> query) {
    List<R> results = new ArrayList<>(count);
    long[] nanos = new long[count - PathwayBenchmark.QUERY_WARMUP];
    for (int j = 0; j < count; j++) {
      long t0 = System.nanoTime();
      R r = query.apply(j);
      long t1 = System.nanoTime();
      results.add(r);
      if (j >= PathwayBenchmark.QUERY_WARMUP) {
        nanos[j - PathwayBenchmark.QUERY_WARMUP] = t1 - t0;
      }
    }
    return new Timed<>(results, Latency.of(nanos));
  }

  private static List<String> uids(List<PathwayTrace> traces) {
    return traces.stream().map(PathwayTrace::traceUid).toList();
  }

  private static List<String> uidsOf(List<ScoredTrace> traces) {
    return traces.stream().map(s -> s.trace().traceUid()).toList();
  }
}
