package dev.loci.recall.internal;

import dev.loci.Namespace;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.MemoryPath;
import dev.loci.recall.PathStep;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.EmbeddingProvider;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs one recall against the projection: candidate generation (Lucene BM25, vector search, or both
 * fused: {@code hybrid} standardizes each list's scores to z-scores and adds them, weighted by the
 * lexical share, see {@link GraphAlgorithms#zScore}), then for the graph modes the seeds, the graph
 * algorithm of the mode, and the paths that explain each item.
 *
 * <p>The graph modes share one candidate step: the best {@value #POOL} lexical and embedding hits
 * fused as {@code hybrid} fuses them, the fused score rescaled to a semantic score in [0, 1]; the
 * {@code seeds} nodes with the highest semantic score (ties by id) are where the graph walk starts.
 * Must run under the engine's shared lock.
 *
 * <p>Per-query work follows what the query touches, not the namespace: {@code ppr} runs on the
 * subgraph of the live nodes within {@code max(hops, }{@value #PPR_MIN_HOPS}{@code )} positive
 * links of the seeds (a link leaving it does not count in its node's split, and a node left without
 * links restarts its mass at the seeds), and shows for each item its strongest path within the same
 * limit, which every node of the subgraph has.
 */
public final class Retriever {
  /** How {@code hybrid} fuses its two lists, for reports. */
  public static final String HYBRID_FUSION = "z-score (CombSUM of standardized scores)";

  /** How the graph modes score their candidates, for reports. */
  public static final String SEED_SCORE = "hybrid's z-score fusion, rescaled to [0, 1]";

  /** What a day or period named in the question does, for reports. */
  public static final String QUERY_TIME =
      "in a named period (by session_time): a 0/1 z-score list, half the rankings' weight";

  /** What a speaker named in the question does, for reports. */
  public static final String QUERY_SPEAKER =
      "said by a person the question names (by speaker): a 0/1 z-score list, half the rankings'"
          + " weight";

  /** How many hits of each flat ranking feed fusion and the graph modes. */
  public static final int POOL = 50;

  /** How many entries an activation snapshot keeps at most. */
  public static final int SNAPSHOT_SIZE = 100;

  /**
   * The fewest hops {@code ppr}'s subgraph reaches from the seeds, whatever the query's hop limit:
   * the walk needs room to spread. At 3 every LoCoMo ranking is the same as over the whole graph
   * (20 seeds, 1 hop), and in the 100,000-node benchmark (3 seeds, about 3 links per node) the
   * subgraph holds at most about 120 nodes.
   */
  static final int PPR_MIN_HOPS = 3;

  private static final double PPR_TOLERANCE = 1e-10;
  private static final int PPR_MAX_ITERATIONS = 1000;

  private final RecallLayer layer;
  private final Namespace ns;
  private final EmbeddingProvider provider;
  private final Optional<float[]> queryVector;
  private final RecallQuery q;
  private final ScoreWeights weights;
  private final Map<String, Optional<MemoryNode>> nodes = new HashMap<>();
  private final RecallContext context;
  private final List<dev.loci.recall.ActivationStep> trace = new ArrayList<>();

  private Retriever(
      RecallLayer layer,
      Namespace ns,
      EmbeddingProvider provider,
      Optional<float[]> queryVector,
      RecallQuery q,
      ScoreWeights weights,
      RecallContext context) {
    this.context = context;
    this.layer = layer;
    this.ns = ns;
    this.provider = provider;
    this.queryVector = queryVector;
    this.q = q;
    this.weights = weights;
  }

  /**
   * Runs {@code query} over {@code ns}; {@code weights} are those in force. {@code queryVector} is
   * the query embedded by {@code provider} (computed by the caller before taking the engine's
   * lock); every mode but {@code lexical} needs it.
   *
   * @throws IllegalArgumentException if the mode needs the query vector and it is absent
   */
  public static RecallResult recall(
      RecallLayer layer,
      Namespace ns,
      EmbeddingProvider provider,
      Optional<float[]> queryVector,
      RecallQuery query,
      ScoreWeights weights) {
    return recall(layer, ns, provider, queryVector, query, weights, RecallContext.NONE);
  }

  /**
   * Runs {@code query} as {@link #recall(RecallLayer, Namespace, EmbeddingProvider, Optional,
   * RecallQuery, ScoreWeights)} does, treating the nodes {@code context} hides as absent and, when
   * {@code weights} are lifecycle-aware, scoring items with {@code context}'s strategy.
   */
  public static RecallResult recall(
      RecallLayer layer,
      Namespace ns,
      EmbeddingProvider provider,
      Optional<float[]> queryVector,
      RecallQuery query,
      ScoreWeights weights,
      RecallContext context) {
    return new Retriever(layer, ns, provider, queryVector, query, weights, context).run();
  }

  /** The live node {@code id}, looked up once per recall. */
  private Optional<MemoryNode> node(String id) {
    return nodes.computeIfAbsent(
        id, k -> context.hidden().contains(k) ? Optional.empty() : layer.node(ns, k));
  }

  /** The graph as recall may walk it: without links into hidden nodes. */
  private GraphAlgorithms.Links links() {
    GraphAlgorithms.Links all = layer.links(ns);
    Set<String> hidden = context.hidden();
    if (hidden.isEmpty()) {
      return all;
    }
    return from -> all.from(from).stream().filter(l -> !hidden.contains(l.to())).toList();
  }

  /** {@code n} more hits than asked for, to make up for hidden ones dropped. */
  private int padded(int n) {
    return n + Math.min(context.hidden().size(), RecallQuery.MAX_K);
  }

  private RecallResult run() {
    return switch (q.mode()) {
      case LEXICAL -> flat(lexical(flatDepth()), "bm25");
      case EMBEDDING -> flat(embedding(flatDepth()), "cosine");
      case HYBRID -> hybrid();
      case STRUCTURE_ONLY -> structureOnly();
      case WEIGHTED_GRAPH -> weightedGraph();
      case ACTIVATION_SPREADING -> spreading();
      case PPR -> pageRank();
    };
  }

  // ---------------------------------------------------------------- flat modes

  private Map<String, Double> lexical(int n) {
    Map<String, Double> out = new LinkedHashMap<>();
    layer.searchText(ns, q.text(), padded(n), q.contextWeight(), q.lengthNorm()).stream()
        .filter(h -> !context.hidden().contains(h.id()))
        .limit(n)
        .forEach(h -> out.put(h.id(), h.score()));
    return out;
  }

  private Map<String, Double> embedding(int n) {
    Map<String, Double> out = new LinkedHashMap<>();
    float[] query =
        queryVector.orElseThrow(
            () -> new IllegalArgumentException("mode " + q.mode() + " needs the query vector"));
    layer.searchVectors(provider.modelId(), ns, query, padded(n)).stream()
        .filter(h -> !context.hidden().contains(h.id()))
        .limit(n)
        .forEach(h -> out.put(h.id(), h.score()));
    return out;
  }

  /** How deep a flat ranking goes: k, or the pool when a session cap may reorder it. */
  private int flatDepth() {
    return q.sessionCap() > 0 ? Math.max(q.k(), POOL) : q.k();
  }

  /** {@code ids} with the query's session cap applied (unchanged without one). */
  private <T> List<T> diversified(List<T> ranked, java.util.function.Function<T, String> id) {
    return SessionDiversity.rerank(
        ranked,
        t -> node(id.apply(t)).map(n -> n.attributes().get(RecallQuery.SESSION)),
        q.sessionCap());
  }

  private RecallResult flat(Map<String, Double> ranked, String component) {
    List<Map.Entry<String, Double>> order =
        diversified(List.copyOf(ranked.entrySet()), Map.Entry::getKey);
    List<RecallItem> items = new ArrayList<>();
    for (Map.Entry<String, Double> e : order.subList(0, Math.min(q.k(), order.size()))) {
      String id = e.getKey();
      double score = e.getValue();
      items.add(item(id, score, List.of(seedStep(id, score, Map.of(component, score)))));
    }
    return result(items, Map.of());
  }

  private RecallResult hybrid() {
    List<GraphAlgorithms.Fused> fused =
        diversified(fused(Math.max(q.k(), POOL)), GraphAlgorithms.Fused::id);
    List<RecallItem> items = new ArrayList<>();
    for (GraphAlgorithms.Fused f : fused.subList(0, Math.min(q.k(), fused.size()))) {
      Map<String, Double> parts = new LinkedHashMap<>();
      parts.put("z_lexical", f.parts().get(0));
      parts.put("z_embedding", f.parts().get(1));
      items.add(item(f.id(), f.score(), List.of(seedStep(f.id(), f.score(), parts))));
    }
    return result(items, Map.of());
  }

  // ---------------------------------------------------------------- candidates and seeds

  /**
   * The best {@code pool} lexical and embedding hits fused by z-score ({@link
   * GraphAlgorithms#zScore}), weighted by the query's lexical share, best first; a list with no
   * weight is not searched. What the question names besides its words (days and periods, speakers:
   * {@link QueryEvidence}) adds lists of its own, each with half the two rankings' weight.
   */
  private List<GraphAlgorithms.Fused> fused(int pool) {
    double share = q.lexicalShare();
    Map<String, Double> lexical = share > 0 ? lexical(pool) : Map.of();
    Map<String, Double> embedding = share < 1 ? embedding(pool) : Map.of();
    Set<String> ids = new LinkedHashSet<>(lexical.keySet());
    ids.addAll(embedding.keySet());
    List<Map<String, Double>> lists = new ArrayList<>(List.of(lexical, embedding));
    lists.addAll(QueryEvidence.lists(q, ids, this::node));
    double total = 1 + (lists.size() - 2) * QueryEvidence.WEIGHT;
    double[] weights = new double[lists.size()];
    weights[0] = share / total;
    weights[1] = (1 - share) / total;
    for (int i = 2; i < weights.length; i++) {
      weights[i] = QueryEvidence.WEIGHT / total;
    }
    return GraphAlgorithms.zScore(lists, weights);
  }

  /**
   * Semantic scores of the candidates: {@code hybrid}'s z-score fusion of the best {@value #POOL}
   * of each list, rescaled to [0, 1] (the best candidate 1, the worst 0, all 1 when they tie), so
   * the graph modes start from the same evidence {@code hybrid} ranks by, on the scale their edge
   * weights multiply.
   */
  private Map<String, Double> semantic() {
    List<GraphAlgorithms.Fused> fused = fused(POOL);
    Map<String, Double> out = new HashMap<>();
    if (fused.isEmpty()) {
      return out;
    }
    double max = fused.get(0).score();
    double min = fused.get(fused.size() - 1).score();
    for (GraphAlgorithms.Fused f : fused) {
      out.put(f.id(), max > min ? (f.score() - min) / (max - min) : 1.0);
    }
    return out;
  }

  private static Map<String, Double> seeds(Map<String, Double> semantic, int n) {
    Map<String, Double> seeds = new LinkedHashMap<>();
    semantic.entrySet().stream()
        .sorted(byScore())
        .limit(n)
        .forEach(e -> seeds.put(e.getKey(), e.getValue()));
    return seeds;
  }

  private static Comparator<Map.Entry<String, Double>> byScore() {
    return Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry::getKey);
  }

  // ---------------------------------------------------------------- graph modes

  private RecallResult structureOnly() {
    Map<String, Double> seeds = seeds(semantic(), q.seeds());
    Map<String, GraphAlgorithms.Reach> reach =
        GraphAlgorithms.breadthFirst(seeds, links(), q.hops());
    List<RecallItem> items = new ArrayList<>();
    for (Map.Entry<String, Double> e : top(scores(reach))) {
      GraphAlgorithms.Reach r = reach.get(e.getKey());
      double seedScore = seeds.get(r.seed());
      List<PathStep> steps = new ArrayList<>();
      steps.add(seedStep(r.seed(), seedScore, parts("seed_semantic", seedScore, "hops", 0.0)));
      for (int i = 0; i < r.hops().size(); i++) {
        GraphAlgorithms.Hop h = r.hops().get(i);
        Map<String, Double> c = new LinkedHashMap<>();
        c.put("seed_semantic", seedScore);
        c.put("hops", (double) (i + 1));
        steps.add(new PathStep(h.link().to(), h.link().edgeType(), h.strength(), c));
      }
      items.add(item(e.getKey(), e.getValue(), steps));
    }
    return result(items, Map.of());
  }

  private RecallResult weightedGraph() {
    Map<String, Double> semantic = semantic();
    Map<String, Double> seeds = seeds(semantic, q.seeds());
    Map<String, GraphAlgorithms.Reach> reach =
        GraphAlgorithms.strongestFromSeeds(seeds, links(), q.hops());
    Set<String> candidates = new LinkedHashSet<>(seeds.keySet());
    candidates.addAll(reach.keySet());
    Map<String, Double> finals = new HashMap<>();
    Map<String, Map<String, Double>> components = new HashMap<>();
    for (String id : candidates) {
      MemoryNode n = node(id).orElseThrow();
      double sem = semantic.getOrDefault(id, 0.0);
      GraphAlgorithms.Reach r = reach.get(id);
      double str = r == null ? 0 : r.strength();
      Map<String, Double> c = new LinkedHashMap<>();
      c.put("semantic", sem);
      c.put("structural", str);
      c.put("anomaly", n.anomaly());
      c.put("importance", n.importance());
      double score =
          sem * weights.semantic()
              + str * weights.structural()
              + n.anomaly() * weights.anomaly()
              + n.importance() * weights.importance();
      if (score > 0) {
        finals.put(id, score);
        components.put(id, c);
      }
    }
    List<RecallItem> items = new ArrayList<>();
    for (Map.Entry<String, Double> e : top(finals)) {
      String id = e.getKey();
      List<PathStep> steps = new ArrayList<>();
      GraphAlgorithms.Reach r = reach.get(id);
      if (seeds.containsKey(id) || r == null) {
        steps.add(seedStep(id, e.getValue(), components.get(id)));
      } else {
        steps.addAll(walk(r, seeds.get(r.seed())));
        steps.set(
            steps.size() - 1,
            withScore(steps.get(steps.size() - 1), e.getValue(), components.get(id)));
      }
      items.add(item(id, e.getValue(), steps));
    }
    return result(items, Map.of());
  }

  /** The steps of a strongest path: its seed, then each hop with its edge weight and strength. */
  private static List<PathStep> walk(GraphAlgorithms.Reach r, double seedScore) {
    List<PathStep> steps = new ArrayList<>();
    steps.add(seedStep(r.seed(), seedScore, Map.of("semantic", seedScore)));
    for (GraphAlgorithms.Hop h : r.hops()) {
      Map<String, Double> c = new LinkedHashMap<>();
      c.put("edge_weight", h.link().weight());
      c.put("path_strength", h.strength());
      steps.add(new PathStep(h.link().to(), h.link().edgeType(), h.strength(), c));
    }
    return steps;
  }

  private static PathStep withScore(PathStep s, double score, Map<String, Double> more) {
    Map<String, Double> c = new LinkedHashMap<>(s.components());
    c.putAll(more);
    return new PathStep(s.nodeId(), s.via(), score, c);
  }

  private RecallResult spreading() {
    Map<String, Double> seeds = seeds(semantic(), q.seeds());
    GraphAlgorithms.Spread spread =
        GraphAlgorithms.spread(
            seeds,
            links(),
            q.hops(),
            q.decay(),
            q.threshold(),
            step -> {
              if (trace.size() < RecallResult.TRACE_SIZE) {
                trace.add(step);
              }
            });
    List<RecallItem> items = new ArrayList<>();
    for (Map.Entry<String, Double> e : top(spread.activation())) {
      List<PathStep> back = new ArrayList<>();
      Set<String> seen = new LinkedHashSet<>();
      String at = e.getKey();
      while (!seeds.containsKey(at) && seen.add(at)) {
        GraphAlgorithms.Hop h = spread.strongestIn().get(at);
        Map<String, Double> c = new LinkedHashMap<>();
        c.put("received", h.strength());
        c.put("edge_weight", h.link().weight());
        c.put("decay", q.decay());
        c.put("activation", spread.activation().get(at));
        back.add(0, new PathStep(at, h.link().edgeType(), spread.activation().get(at), c));
        at = h.from();
      }
      back.add(0, seedStep(at, spread.activation().get(at), Map.of("activation", seeds.get(at))));
      items.add(item(e.getKey(), e.getValue(), back));
    }
    return result(items, snapshot(spread.activation()));
  }

  private RecallResult pageRank() {
    Map<String, Double> seeds = seeds(semantic(), q.seeds());
    GraphAlgorithms.Links links = links();
    int hops = Math.max(q.hops(), PPR_MIN_HOPS);
    // the subgraph within the hop limit, in the namespace's order: when it holds every node the
    // seeds reach, the ranks are those of the whole graph, to the last bit
    List<String> ids =
        layer.inPutOrder(
            ns, GraphAlgorithms.reachable(seeds.keySet(), links, hops, id -> node(id).isPresent()));
    GraphAlgorithms.PageRank pr =
        GraphAlgorithms.personalizedPageRank(
            ids, seeds, links, q.restart(), PPR_TOLERANCE, PPR_MAX_ITERATIONS);
    Map<String, Double> positive = new HashMap<>();
    pr.rank()
        .forEach(
            (id, v) -> {
              if (v > 0) {
                positive.put(id, v);
              }
            });
    Map<String, GraphAlgorithms.Reach> reach =
        GraphAlgorithms.strongestFromSeeds(seeds, links, hops);
    List<RecallItem> items = new ArrayList<>();
    for (Map.Entry<String, Double> e : top(positive)) {
      String id = e.getKey();
      GraphAlgorithms.Reach r = reach.get(id);
      List<PathStep> steps = new ArrayList<>();
      if (seeds.containsKey(id) || r == null) {
        steps.add(
            seedStep(
                id,
                e.getValue(),
                parts("ppr", e.getValue(), "semantic", seeds.getOrDefault(id, 0.0))));
      } else {
        steps.addAll(walk(r, seeds.get(r.seed())));
        steps.set(
            steps.size() - 1,
            withScore(steps.get(steps.size() - 1), e.getValue(), Map.of("ppr", e.getValue())));
      }
      items.add(item(id, e.getValue(), steps));
    }
    return result(items, snapshot(positive));
  }

  // ---------------------------------------------------------------- assembly

  private static Map<String, Double> scores(Map<String, GraphAlgorithms.Reach> reach) {
    Map<String, Double> out = new HashMap<>();
    reach.forEach((id, r) -> out.put(id, r.strength()));
    return out;
  }

  private List<Map.Entry<String, Double>> top(Map<String, Double> scores) {
    List<Map.Entry<String, Double>> ranked =
        scores.entrySet().stream()
            .filter(e -> node(e.getKey()).isPresent())
            .sorted(byScore())
            .toList();
    ranked = diversified(ranked, Map.Entry::getKey);
    return ranked.subList(0, Math.min(q.k(), ranked.size()));
  }

  private static Map<String, Double> snapshot(Map<String, Double> values) {
    Map<String, Double> out = new LinkedHashMap<>();
    values.entrySet().stream()
        .filter(e -> e.getValue() > 0)
        .sorted(byScore())
        .limit(SNAPSHOT_SIZE)
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  /** Named score components in the order given: name, value, name, value... */
  private static Map<String, Double> parts(Object... nameAndValue) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (int i = 0; i < nameAndValue.length; i += 2) {
      out.put((String) nameAndValue[i], (Double) nameAndValue[i + 1]);
    }
    return out;
  }

  private static PathStep seedStep(String id, double score, Map<String, Double> components) {
    return new PathStep(id, PathStep.SEED, score, components);
  }

  private RecallItem item(String id, double score, List<PathStep> steps) {
    MemoryNode node = node(id).orElseThrow();
    Set<EvidenceRef> evidence = new LinkedHashSet<>();
    node.sourceRef().ifPresent(evidence::add);
    for (int i = steps.size() - 1; i >= 0; i--) {
      node(steps.get(i).nodeId()).flatMap(MemoryNode::sourceRef).ifPresent(evidence::add);
    }
    MemoryPath path = new MemoryPath(q.text(), steps, List.copyOf(evidence), node.content(), score);
    return new RecallItem(node, score, path);
  }

  private RecallResult result(List<RecallItem> items, Map<String, Double> activation) {
    return new RecallResult(q.text(), q.mode(), weights, lifecycleScored(items), activation, trace);
  }

  /**
   * With lifecycle-aware weights, each item scored again by the strategy (its components added to
   * the last path step) and the items ranked by the new score, ties by their old order.
   */
  private List<RecallItem> lifecycleScored(List<RecallItem> items) {
    if (!weights.lifecycleAware()) {
      return retiredLast(items);
    }
    List<RecallItem> out = new ArrayList<>(items.size());
    for (RecallItem item : items) {
      Map<String, Double> c = context.scoring().components(context.candidate().apply(item.node()));
      double score = context.scoring().combine(q.mode(), item.score(), c, weights);
      List<PathStep> steps = new ArrayList<>(item.path().steps());
      PathStep last = steps.get(steps.size() - 1);
      Map<String, Double> parts = new LinkedHashMap<>(last.components());
      parts.put("base", item.score());
      parts.putAll(c);
      steps.set(steps.size() - 1, new PathStep(last.nodeId(), last.via(), score, parts));
      MemoryPath p = item.path();
      out.add(
          new RecallItem(
              item.node(),
              score,
              new MemoryPath(p.query(), steps, p.supportingEvidence(), p.finalAnswer(), score)));
    }
    out.sort(Comparator.comparingDouble(RecallItem::score).reversed());
    return retiredLast(out);
  }

  /**
   * The items the strategy calls {@linkplain dev.loci.recall.spi.ScoringStrategy#retired retired}
   * moved after all others, each group in its order; the list itself when none is.
   */
  private List<RecallItem> retiredLast(List<RecallItem> items) {
    List<RecallItem> current = new ArrayList<>(items.size());
    List<RecallItem> retired = new ArrayList<>();
    for (RecallItem item : items) {
      (context.scoring().retired(item.node()) ? retired : current).add(item);
    }
    if (retired.isEmpty()) {
      return items;
    }
    current.addAll(retired);
    return current;
  }
}
