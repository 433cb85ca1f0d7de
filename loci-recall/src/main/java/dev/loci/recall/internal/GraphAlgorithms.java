package dev.loci.recall.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The ranking algorithms of recall, over any graph given as {@link Links}. Pure functions:
 * deterministic for the same input (ties are broken by node id), no state, thread-safe.
 *
 * <p>Design. Every graph mode starts from seeds, each with a semantic score in [0, 1]:
 *
 * <ul>
 *   <li><b>Reciprocal rank fusion</b>: {@code sum over rankings of 1 / (k + rank)}, ranks from 1.
 *   <li><b>Strongest paths</b> (weighted_graph): for each seed, the path of at most {@code hops}
 *       edges that maximizes {@code seed score * product of edge weights}, by a hop-bounded
 *       Bellman-Ford over products (weights are at most 1, so a cycle never improves a path and
 *       every stored path is simple). Paths are stored whole, so the path shown is exactly the one
 *       scored.
 *   <li><b>Breadth-first</b> (structure_only): hop distance from each seed, weights ignored; score
 *       {@code seed score / (1 + hops)}.
 *   <li><b>Activation spreading</b>: seeds start with their score; in each hop every node reached
 *       in the previous hop fires once, sending {@code its pulse * edge weight * decay} along each
 *       link to nodes that have not fired yet; a contribution under the threshold is dropped.
 *       Activation is the sum of what a node received (plus its seed score). It stops after {@code
 *       hops} hops or when nothing new fires. Nodes that have fired do not receive again, so no
 *       activation echoes back to where it came from.
 *   <li><b>Personalized PageRank</b>: power iteration of {@code pi = a * r + (1 - a) * (P^T pi +
 *       dangling * r)}, where {@code r} is the seeds' scores normalized to sum 1, {@code P} moves
 *       from a node to its links in proportion to their weights, and the mass of nodes without
 *       links restarts at {@code r}; until the L1 change is below the tolerance. Over the nodes it
 *       is given, with their links to nodes it is not given ignored; recall gives it the subgraph
 *       within a hop limit of the seeds ({@link #reachable}), which yields the whole graph's ranks
 *       (to the last bit, in the same node order) whenever that subgraph holds every node the seeds
 *       reach, since a node the seeds cannot reach never holds any mass.
 * </ul>
 */
public final class GraphAlgorithms {
  private GraphAlgorithms() {}

  /** One traversable link out of a node. */
  public record Link(String to, String edgeType, double weight) {}

  /** The graph as the algorithms see it: the links out of each node, in a stable order. */
  @FunctionalInterface
  public interface Links {
    /** The links recall may follow out of {@code node}; empty for none or an unknown node. */
    List<Link> from(String node);
  }

  /** One hop of a path: the link followed into a node and the path strength there. */
  public record Hop(String from, Link link, double strength) {}

  /** The best way found to a node: its strength and the hops from the seed. */
  public record Reach(String seed, double strength, List<Hop> hops) {}

  /** A fused ranking entry: the total and each ranking's contribution. */
  public record Fused(String id, double score, List<Double> parts) {
    /** Copies the parts. */
    public Fused {
      parts = List.copyOf(parts);
    }
  }

  // ---------------------------------------------------------------- rank fusion

  /**
   * Reciprocal rank fusion: each id's score is {@code sum of 1 / (k + rank)} over the rankings it
   * appears in, rank 1 being the best. Ordered by score, then id.
   */
  public static List<Fused> rrf(List<List<String>> rankings, int k) {
    double[] ones = new double[rankings.size()];
    java.util.Arrays.fill(ones, 1);
    return rrf(rankings, ones, k);
  }

  /**
   * Weighted reciprocal rank fusion: each id's score is {@code sum of weight / (k + rank)} over the
   * rankings it appears in; a ranking of weight 0 adds nothing and no ids. Ordered by score, then
   * id.
   */
  public static List<Fused> rrf(List<List<String>> rankings, double[] weights, int k) {
    if (weights.length != rankings.size()) {
      throw new IllegalArgumentException(
          "expected " + rankings.size() + " weights, found " + weights.length);
    }
    Map<String, double[]> parts = new HashMap<>();
    for (int r = 0; r < rankings.size(); r++) {
      List<String> ranking = rankings.get(r);
      if (weights[r] == 0) {
        continue;
      }
      for (int i = 0; i < ranking.size(); i++) {
        parts.computeIfAbsent(ranking.get(i), x -> new double[rankings.size()])[r] =
            weights[r] / (k + i + 1);
      }
    }
    List<Fused> out = new ArrayList<>();
    parts.forEach(
        (id, p) -> {
          double s = 0;
          List<Double> list = new ArrayList<>(p.length);
          for (double x : p) {
            s += x;
            list.add(x);
          }
          out.add(new Fused(id, s, list));
        });
    out.sort(Comparator.comparingDouble(Fused::score).reversed().thenComparing(Fused::id));
    return out;
  }

  /**
   * Z-score fusion (CombSUM over standardized scores): each ranking's scores are turned into
   * z-scores against that ranking's own mean and standard deviation (a ranking whose scores are all
   * equal gives 0), an id missing from a ranking gets that ranking's lowest z-score (it scored at
   * most that much there), and an id's score is {@code sum of weight * z} over the rankings. A
   * ranking of weight 0 adds nothing and no ids. Ordered by score, then id. Unlike {@link #rrf}, it
   * keeps how far a hit stands out in its own list, and it needs no constant: the standardization
   * puts an unbounded BM25 list and a narrow band of cosines on one scale per query.
   */
  public static List<Fused> zScore(List<Map<String, Double>> scored, double[] weights) {
    if (weights.length != scored.size()) {
      throw new IllegalArgumentException(
          "expected " + scored.size() + " weights, found " + weights.length);
    }
    int n = scored.size();
    List<Map<String, Double>> z = new ArrayList<>(n);
    double[] floor = new double[n];
    java.util.Set<String> ids = new java.util.TreeSet<>();
    for (int r = 0; r < n; r++) {
      Map<String, Double> list = weights[r] == 0 ? Map.of() : scored.get(r);
      double mean = list.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
      double var =
          list.values().stream().mapToDouble(v -> (v - mean) * (v - mean)).average().orElse(0);
      double sd = Math.sqrt(var);
      Map<String, Double> zr = new HashMap<>();
      list.forEach((id, v) -> zr.put(id, sd > 0 ? (v - mean) / sd : 0.0));
      floor[r] = zr.values().stream().mapToDouble(Double::doubleValue).min().orElse(0);
      z.add(zr);
      ids.addAll(zr.keySet());
    }
    List<Fused> out = new ArrayList<>(ids.size());
    for (String id : ids) {
      double s = 0;
      List<Double> parts = new ArrayList<>(n);
      for (int r = 0; r < n; r++) {
        double p = weights[r] == 0 ? 0 : weights[r] * z.get(r).getOrDefault(id, floor[r]);
        s += p;
        parts.add(p);
      }
      out.add(new Fused(id, s, parts));
    }
    out.sort(Comparator.comparingDouble(Fused::score).reversed().thenComparing(Fused::id));
    return out;
  }

  // ---------------------------------------------------------------- strongest paths

  /**
   * The strongest path of at most {@code hops} edges from {@code seed} (starting at {@code
   * seedScore}) to every node it reaches, the seed itself excluded.
   */
  public static Map<String, Reach> strongestPaths(
      String seed, double seedScore, Links g, int hops) {
    Map<String, Reach> best = new HashMap<>();
    best.put(seed, new Reach(seed, seedScore, List.of()));
    Map<String, Reach> frontier = Map.of(seed, best.get(seed));
    for (int h = 0; h < hops && !frontier.isEmpty(); h++) {
      Map<String, Reach> next = new TreeMap<>();
      for (String u : new java.util.TreeSet<>(frontier.keySet())) {
        Reach ru = frontier.get(u);
        for (Link l : g.from(u)) {
          if (l.to().equals(seed)) {
            continue;
          }
          double s = ru.strength() * l.weight();
          Reach current = best.get(l.to());
          if (s > 0 && (current == null || s > current.strength())) {
            List<Hop> path = new ArrayList<>(ru.hops());
            path.add(new Hop(u, l, s));
            Reach r = new Reach(seed, s, List.copyOf(path));
            best.put(l.to(), r);
            next.put(l.to(), r);
          }
        }
      }
      frontier = next;
    }
    best.remove(seed);
    return best;
  }

  /**
   * For every node reached from some seed by at most {@code hops} edges, its strongest path from a
   * seed other than itself (see {@link #strongestPaths}); seeds in {@code seeds} iteration order.
   */
  public static Map<String, Reach> strongestFromSeeds(
      Map<String, Double> seeds, Links g, int hops) {
    Map<String, Reach> out = new HashMap<>();
    seeds.forEach(
        (seed, score) ->
            strongestPaths(seed, score, g, hops)
                .forEach(
                    (node, reach) -> {
                      Reach cur = out.get(node);
                      if (cur == null || reach.strength() > cur.strength()) {
                        out.put(node, reach);
                      }
                    }));
    return out;
  }

  // ---------------------------------------------------------------- breadth-first

  /**
   * The unweighted score of every node within {@code hops} edges of a seed: the best over seeds of
   * {@code seed score / (1 + hop distance)}, with the breadth-first path that gives it (each {@link
   * Hop#strength()} is the score at that depth). Seeds score themselves at distance 0.
   */
  public static Map<String, Reach> breadthFirst(Map<String, Double> seeds, Links g, int hops) {
    Map<String, Reach> out = new HashMap<>();
    for (Map.Entry<String, Double> s : seeds.entrySet()) {
      Map<String, List<Hop>> paths = new HashMap<>();
      paths.put(s.getKey(), List.of());
      ArrayDeque<String> queue = new ArrayDeque<>(List.of(s.getKey()));
      while (!queue.isEmpty()) {
        String u = queue.poll();
        List<Hop> pu = paths.get(u);
        double score = s.getValue() / (1 + pu.size());
        Reach cur = out.get(u);
        if (cur == null || score > cur.strength()) {
          out.put(u, new Reach(s.getKey(), score, pu));
        }
        if (pu.size() == hops) {
          continue;
        }
        for (Link l : g.from(u)) {
          if (!paths.containsKey(l.to())) {
            List<Hop> p = new ArrayList<>(pu);
            p.add(new Hop(u, l, s.getValue() / (2 + pu.size())));
            paths.put(l.to(), List.copyOf(p));
            queue.add(l.to());
          }
        }
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- activation spreading

  /**
   * The outcome of spreading: each node's activation and the strongest contribution it received
   * (absent for seeds), which chained back give its path.
   */
  public record Spread(Map<String, Double> activation, Map<String, Hop> strongestIn) {}

  /** Spreads activation from {@code seeds}; see the class comment for the rules. */
  public static Spread spread(
      Map<String, Double> seeds, Links g, int hops, double decay, double threshold) {
    return spread(seeds, g, hops, decay, threshold, step -> {});
  }

  /**
   * Spreads activation from {@code seeds} as {@link #spread(Map, Links, int, double, double)} does,
   * telling {@code trace} every step in the order it happens: each seed (hop 0), each pulse sent
   * along a link (stopped {@code visited} when its target had fired, {@code below_threshold} when
   * it was dropped), and each node of the last hop's frontier ({@code hop_limit}).
   */
  public static Spread spread(
      Map<String, Double> seeds,
      Links g,
      int hops,
      double decay,
      double threshold,
      java.util.function.Consumer<dev.loci.recall.ActivationStep> trace) {
    Map<String, Double> activation = new TreeMap<>(seeds);
    Map<String, Hop> strongestIn = new HashMap<>();
    Set<String> fired = new HashSet<>();
    Map<String, Double> frontier = new TreeMap<>(seeds);
    frontier.forEach((id, a) -> trace.accept(step(id, 0, "seed", a, null)));
    int h = 0;
    for (; h < hops && !frontier.isEmpty(); h++) {
      fired.addAll(frontier.keySet());
      Map<String, Double> incoming = new TreeMap<>();
      for (Map.Entry<String, Double> u : frontier.entrySet()) {
        for (Link l : g.from(u.getKey())) {
          double c = u.getValue() * l.weight() * decay;
          if (fired.contains(l.to())) {
            trace.accept(step(l.to(), h + 1, l.edgeType(), c, "visited"));
            continue;
          }
          if (c < threshold || c <= 0) {
            trace.accept(step(l.to(), h + 1, l.edgeType(), c, "below_threshold"));
            continue;
          }
          trace.accept(step(l.to(), h + 1, l.edgeType(), c, null));
          incoming.merge(l.to(), c, Double::sum);
          Hop best = strongestIn.get(l.to());
          if (best == null || c > best.strength()) {
            strongestIn.put(l.to(), new Hop(u.getKey(), l, c));
          }
        }
      }
      incoming.forEach((v, c) -> activation.merge(v, c, Double::sum));
      frontier = incoming;
    }
    if (h == hops) {
      for (String v : frontier.keySet()) {
        trace.accept(
            step(v, h, strongestIn.get(v).link().edgeType(), activation.get(v), "hop_limit"));
      }
    }
    return new Spread(activation, strongestIn);
  }

  private static dev.loci.recall.ActivationStep step(
      String id, int hop, String edgeType, double activation, String stop) {
    return new dev.loci.recall.ActivationStep(
        id, hop, hop == 0, edgeType, activation, java.util.Optional.ofNullable(stop));
  }

  // ---------------------------------------------------------------- reachability

  /**
   * The nodes {@code include} accepts that are reached from {@code from} by at most {@code hops}
   * links of positive weight, every step landing on a node {@code include} accepts; the nodes of
   * {@code from} it accepts are included. In breadth-first order. Costs the size of what it
   * reaches, not of the graph.
   */
  public static Set<String> reachable(
      Collection<String> from, Links g, int hops, Predicate<String> include) {
    Set<String> seen = new LinkedHashSet<>();
    List<String> frontier = new ArrayList<>();
    for (String s : from) {
      if (include.test(s) && seen.add(s)) {
        frontier.add(s);
      }
    }
    for (int h = 0; h < hops && !frontier.isEmpty(); h++) {
      List<String> next = new ArrayList<>();
      for (String u : frontier) {
        for (Link l : g.from(u)) {
          if (l.weight() > 0 && !seen.contains(l.to()) && include.test(l.to())) {
            seen.add(l.to());
            next.add(l.to());
          }
        }
      }
      frontier = next;
    }
    return seen;
  }

  // ---------------------------------------------------------------- personalized PageRank

  /** PageRank values and how the iteration ended. */
  public record PageRank(Map<String, Double> rank, int iterations, boolean converged) {}

  /**
   * Personalized PageRank over {@code nodes} from {@code seeds}; see the class comment. Links to
   * nodes outside {@code nodes} are ignored.
   *
   * @param restart the restart probability {@code a}, in (0, 1)
   * @param tolerance the L1 change at which the iteration stops
   * @param maxIterations the most iterations run
   */
  public static PageRank personalizedPageRank(
      List<String> nodes,
      Map<String, Double> seeds,
      Links g,
      double restart,
      double tolerance,
      int maxIterations) {
    Map<String, Integer> index = new LinkedHashMap<>();
    for (String n : nodes) {
      index.putIfAbsent(n, index.size());
    }
    int n = index.size();
    double[] r = new double[n];
    double total = 0;
    for (Map.Entry<String, Double> s : seeds.entrySet()) {
      Integer i = index.get(s.getKey());
      if (i != null && s.getValue() > 0) {
        r[i] += s.getValue();
        total += s.getValue();
      }
    }
    if (total == 0) {
      return new PageRank(Map.of(), 0, true);
    }
    for (int i = 0; i < n; i++) {
      r[i] /= total;
    }
    int[][] to = new int[n][];
    double[][] share = new double[n][];
    for (Map.Entry<String, Integer> e : index.entrySet()) {
      List<Link> links = new ArrayList<>();
      double sum = 0;
      for (Link l : g.from(e.getKey())) {
        if (index.containsKey(l.to()) && l.weight() > 0) {
          links.add(l);
          sum += l.weight();
        }
      }
      int u = e.getValue();
      to[u] = new int[links.size()];
      share[u] = new double[links.size()];
      for (int j = 0; j < links.size(); j++) {
        to[u][j] = index.get(links.get(j).to());
        share[u][j] = links.get(j).weight() / sum;
      }
    }
    double[] pi = r.clone();
    int it = 0;
    boolean converged = false;
    while (it < maxIterations && !converged) {
      double[] next = new double[n];
      double dangling = 0;
      for (int u = 0; u < n; u++) {
        if (to[u].length == 0) {
          dangling += pi[u];
          continue;
        }
        for (int j = 0; j < to[u].length; j++) {
          next[to[u][j]] += (1 - restart) * pi[u] * share[u][j];
        }
      }
      double delta = 0;
      for (int i = 0; i < n; i++) {
        next[i] += (restart + (1 - restart) * dangling) * r[i];
        delta += Math.abs(next[i] - pi[i]);
      }
      pi = next;
      it++;
      converged = delta < tolerance;
    }
    Map<String, Double> rank = new LinkedHashMap<>();
    for (Map.Entry<String, Integer> e : index.entrySet()) {
      rank.put(e.getKey(), pi[e.getValue()]);
    }
    return new PageRank(rank, it, converged);
  }
}
