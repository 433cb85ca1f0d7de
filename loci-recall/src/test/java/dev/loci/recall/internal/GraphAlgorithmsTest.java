package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loci.recall.internal.GraphAlgorithms.Link;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The recall algorithms on tiny graphs, against values computed by hand. */
class GraphAlgorithmsTest {
  private static final Offset<Double> EXACT = within(1e-12);

  /** A graph built from {@code from, to, weight} triples, links in insertion order. */
  private static GraphAlgorithms.Links graph(Object... triples) {
    Map<String, List<Link>> out = new HashMap<>();
    for (int i = 0; i < triples.length; i += 3) {
      out.computeIfAbsent((String) triples[i], k -> new ArrayList<>())
          .add(new Link((String) triples[i + 1], "rel", (Double) triples[i + 2]));
    }
    return node -> out.getOrDefault(node, List.of());
  }

  private static Map<String, Double> seeds(Object... idAndScore) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (int i = 0; i < idAndScore.length; i += 2) {
      out.put((String) idAndScore[i], (Double) idAndScore[i + 1]);
    }
    return out;
  }

  @Test
  void rrf_sumsOneOverKPlusRank_andOrdersByScoreThenId() {
    List<GraphAlgorithms.Fused> fused =
        GraphAlgorithms.rrf(List.of(List.of("a", "b", "c"), List.of("b", "c", "d")), 60);

    assertThat(fused).extracting(GraphAlgorithms.Fused::id).containsExactly("b", "c", "a", "d");
    assertThat(fused.get(0).score()).isCloseTo(1.0 / 62 + 1.0 / 61, EXACT);
    assertThat(fused.get(1).score()).isCloseTo(1.0 / 63 + 1.0 / 62, EXACT);
    assertThat(fused.get(2).score()).isCloseTo(1.0 / 61, EXACT);
    assertThat(fused.get(2).parts()).containsExactly(1.0 / 61, 0.0);
    assertThat(fused.get(3).score()).isCloseTo(1.0 / 63, EXACT);
  }

  @Test
  void rrf_weighted_scalesEachRankingAndAZeroWeightAddsNoIds() {
    List<GraphAlgorithms.Fused> fused =
        GraphAlgorithms.rrf(
            List.of(List.of("a", "b"), List.of("b", "c")), new double[] {1.5, 0.5}, 60);
    List<GraphAlgorithms.Fused> lexicalOnly =
        GraphAlgorithms.rrf(List.of(List.of("a", "b"), List.of("b", "c")), new double[] {2, 0}, 60);

    assertThat(fused).extracting(GraphAlgorithms.Fused::id).containsExactly("b", "a", "c");
    assertThat(fused.get(0).score()).isCloseTo(1.5 / 62 + 0.5 / 61, EXACT);
    assertThat(fused.get(1).score()).isCloseTo(1.5 / 61, EXACT);
    assertThat(fused.get(2).score()).isCloseTo(0.5 / 62, EXACT);
    assertThat(lexicalOnly).extracting(GraphAlgorithms.Fused::id).containsExactly("a", "b");
  }

  @Test
  void rrf_tiesAreBrokenById() {
    List<GraphAlgorithms.Fused> fused =
        GraphAlgorithms.rrf(List.of(List.of("y"), List.of("x")), 60);

    assertThat(fused).extracting(GraphAlgorithms.Fused::id).containsExactly("x", "y");
  }

  @Test
  void zScore_standardizesEachList_missingIdsGetTheListsLowest() {
    // lexical 4, 2, 0: mean 2, sd sqrt(8/3); embedding 0.9, 0.7: mean 0.8, sd 0.1
    List<GraphAlgorithms.Fused> fused =
        GraphAlgorithms.zScore(
            List.of(seeds("a", 4.0, "b", 2.0, "c", 0.0), seeds("b", 0.9, "d", 0.7)),
            new double[] {0.5, 0.5});
    double sd = Math.sqrt(8.0 / 3);

    // c (lowest lexical, no embedding) and d (no lexical, lowest embedding) tie: ordered by id
    assertThat(fused).extracting(GraphAlgorithms.Fused::id).containsExactly("b", "a", "c", "d");
    assertThat(fused.get(0).parts().get(0)).isCloseTo(0.0, EXACT);
    assertThat(fused.get(0).parts().get(1)).isCloseTo(0.5, within(1e-9));
    assertThat(fused.get(1).score()).isCloseTo(0.5 * 2 / sd - 0.5, within(1e-9));
    assertThat(fused.get(3).parts().get(0)).isCloseTo(0.5 * -2 / sd, within(1e-9));
    assertThat(fused.get(2).score()).isCloseTo(0.5 * -2 / sd - 0.5, within(1e-9));
    assertThat(fused.get(3).score()).isCloseTo(fused.get(2).score(), within(1e-9));
  }

  @Test
  void zScore_aHitStandingOutInOneList_beatsOneMerelyHighInBoth() {
    // lexical: a stands far above the rest; embedding: a narrow band where b leads a by a hair
    Map<String, Double> lexical = seeds("a", 30.0, "b", 5.0, "c", 4.0, "d", 3.0);
    Map<String, Double> embedding = seeds("b", 0.80, "c", 0.79, "a", 0.78, "d", 0.50);
    List<GraphAlgorithms.Fused> z =
        GraphAlgorithms.zScore(List.of(lexical, embedding), new double[] {0.5, 0.5});
    List<GraphAlgorithms.Fused> rrf =
        GraphAlgorithms.rrf(
            List.of(List.copyOf(lexical.keySet()), List.copyOf(embedding.keySet())), 60);

    assertThat(z.get(0).id()).isEqualTo("a");
    // reciprocal rank fusion sees only the ranks: second in one list and first in the other wins
    assertThat(rrf.get(0).id()).isEqualTo("b");
  }

  @Test
  void zScore_zeroWeightAddsNoIds_equalScoresGiveZero() {
    List<GraphAlgorithms.Fused> lexicalOnly =
        GraphAlgorithms.zScore(
            List.of(seeds("a", 1.0, "b", 1.0), seeds("c", 0.9)), new double[] {1, 0});

    assertThat(lexicalOnly).extracting(GraphAlgorithms.Fused::id).containsExactly("a", "b");
    assertThat(lexicalOnly).allSatisfy(f -> assertThat(f.score()).isCloseTo(0.0, EXACT));
  }

  @Test
  void strongestPaths_preferTheLargerProductOverFewerHops() {
    GraphAlgorithms.Links g = graph("s", "a", 0.5, "s", "b", 0.9, "b", "a", 0.8);

    Map<String, GraphAlgorithms.Reach> two = GraphAlgorithms.strongestPaths("s", 1.0, g, 2);
    assertThat(two.get("a").strength()).isCloseTo(0.72, EXACT);
    assertThat(two.get("a").hops()).extracting(GraphAlgorithms.Hop::from).containsExactly("s", "b");
    assertThat(two).doesNotContainKey("s");

    Map<String, GraphAlgorithms.Reach> one = GraphAlgorithms.strongestPaths("s", 1.0, g, 1);
    assertThat(one.get("a").strength()).isCloseTo(0.5, EXACT);
    assertThat(one.get("a").hops()).hasSize(1);
  }

  @Test
  void strongestFromSeeds_scalesBySeedScore_andNeverCountsASeedsOwnLoop() {
    GraphAlgorithms.Links g = graph("s", "t", 0.5, "t", "s", 1.0, "t", "x", 1.0);

    Map<String, GraphAlgorithms.Reach> r =
        GraphAlgorithms.strongestFromSeeds(seeds("s", 0.8, "t", 0.4), g, 2);

    assertThat(r.get("t").strength()).isCloseTo(0.4, EXACT); // 0.8 * 0.5 from s
    assertThat(r.get("t").seed()).isEqualTo("s");
    assertThat(r.get("s").strength()).isCloseTo(0.4, EXACT); // 0.4 * 1.0 from t, not s->t->s
    assertThat(r.get("s").seed()).isEqualTo("t");
    assertThat(r.get("x").strength()).isCloseTo(0.4, EXACT); // max(0.8*0.5*1, 0.4*1)
  }

  @Test
  void breadthFirst_ignoresWeights_scoreIsSeedOverOnePlusHops() {
    GraphAlgorithms.Links g = graph("s", "a", 0.01, "a", "b", 0.01);

    Map<String, GraphAlgorithms.Reach> r = GraphAlgorithms.breadthFirst(seeds("s", 0.9), g, 2);

    assertThat(r.get("s").strength()).isCloseTo(0.9, EXACT);
    assertThat(r.get("a").strength()).isCloseTo(0.45, EXACT);
    assertThat(r.get("b").strength()).isCloseTo(0.3, EXACT);
    assertThat(r.get("b").hops()).extracting(h -> h.link().to()).containsExactly("a", "b");
    assertThat(GraphAlgorithms.breadthFirst(seeds("s", 0.9), g, 1)).doesNotContainKey("b");
  }

  @Test
  void spread_decaysPerHop_sumsContributions_andRemembersTheStrongest() {
    GraphAlgorithms.Links g = graph("s", "a", 0.8, "s", "b", 0.5, "a", "c", 0.5, "b", "c", 1.0);

    GraphAlgorithms.Spread spread = GraphAlgorithms.spread(seeds("s", 1.0), g, 3, 0.5, 0.1);

    // hop 1: a = 1 * 0.8 * 0.5, b = 1 * 0.5 * 0.5; hop 2: c = 0.4*0.5*0.5 + 0.25*1*0.5
    assertThat(spread.activation().get("s")).isCloseTo(1.0, EXACT);
    assertThat(spread.activation().get("a")).isCloseTo(0.4, EXACT);
    assertThat(spread.activation().get("b")).isCloseTo(0.25, EXACT);
    assertThat(spread.activation().get("c")).isCloseTo(0.225, EXACT);
    assertThat(spread.strongestIn().get("c").from()).isEqualTo("b");
    assertThat(spread.strongestIn().get("c").strength()).isCloseTo(0.125, EXACT);
  }

  @Test
  void spread_dropsContributionsUnderTheThreshold_andStopsAtTheHopLimit() {
    GraphAlgorithms.Links g = graph("s", "a", 0.8, "s", "b", 0.5, "a", "c", 0.5, "b", "c", 1.0);

    // a -> c brings 0.1, under 0.11
    assertThat(GraphAlgorithms.spread(seeds("s", 1.0), g, 3, 0.5, 0.11).activation().get("c"))
        .isCloseTo(0.125, EXACT);
    assertThat(GraphAlgorithms.spread(seeds("s", 1.0), g, 1, 0.5, 0.0).activation())
        .containsOnlyKeys("s", "a", "b");
  }

  @Test
  void spread_neverEchoesBackIntoANodeThatFired() {
    GraphAlgorithms.Links g = graph("s", "a", 1.0, "a", "s", 1.0);

    GraphAlgorithms.Spread spread = GraphAlgorithms.spread(seeds("s", 1.0), g, 5, 0.5, 0.0);

    assertThat(spread.activation()).containsEntry("s", 1.0).containsEntry("a", 0.5);
  }

  @Test
  void ppr_convergesToTheClosedFormOnATriangle() {
    // a -> b; b -> a and b -> c (equal weights); c -> a; restart 0.15 at a:
    // y = d x, z = d y / 2, x = 0.15 + d (y / 2 + z), d = 0.85
    GraphAlgorithms.Links g = graph("b", "a", 1.0, "b", "c", 1.0, "a", "b", 1.0, "c", "a", 1.0);

    GraphAlgorithms.PageRank pr =
        GraphAlgorithms.personalizedPageRank(
            List.of("a", "b", "c"), seeds("a", 0.7), g, 0.15, 1e-13, 10_000);

    assertThat(pr.converged()).isTrue();
    assertThat(pr.iterations()).isGreaterThan(10);
    assertThat(pr.rank().get("a")).isCloseTo(0.4522328999434707, within(1e-10));
    assertThat(pr.rank().get("b")).isCloseTo(0.3843979649519501, within(1e-10));
    assertThat(pr.rank().get("c")).isCloseTo(0.1633691351045788, within(1e-10));
    assertThat(pr.rank().values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(1.0, within(1e-10));
  }

  @Test
  void ppr_restartsTheMassOfNodesWithoutLinksAtTheSeeds() {
    // a -> b, b has no links: x = 0.15 + 0.85 y, y = 0.85 x
    GraphAlgorithms.PageRank pr =
        GraphAlgorithms.personalizedPageRank(
            List.of("a", "b"), seeds("a", 1.0), graph("a", "b", 1.0), 0.15, 1e-13, 10_000);

    assertThat(pr.rank().get("a")).isCloseTo(0.5405405405405403, within(1e-10));
    assertThat(pr.rank().get("b")).isCloseTo(0.45945945945945926, within(1e-10));
  }

  @Test
  void ppr_splitsByEdgeWeight_andStopsAtTheIterationCap() {
    GraphAlgorithms.Links g = graph("s", "a", 0.75, "s", "b", 0.25);

    GraphAlgorithms.PageRank one =
        GraphAlgorithms.personalizedPageRank(
            List.of("s", "a", "b"), seeds("s", 1.0), g, 0.5, 1e-13, 1);

    // one step from r = (1, 0, 0): a gets 0.5 * 0.75, b 0.5 * 0.25, s the restart 0.5
    assertThat(one.converged()).isFalse();
    assertThat(one.iterations()).isEqualTo(1);
    assertThat(one.rank().get("s")).isCloseTo(0.5, EXACT);
    assertThat(one.rank().get("a")).isCloseTo(0.375, EXACT);
    assertThat(one.rank().get("b")).isCloseTo(0.125, EXACT);
  }

  @Test
  void reachable_stopsAtTheHopLimit_andSkipsZeroWeightLinksAndExcludedNodes() {
    GraphAlgorithms.Links g =
        graph("s", "a", 1.0, "a", "b", 0.5, "b", "c", 1.0, "s", "z", 0.0, "a", "x", 1.0);

    assertThat(GraphAlgorithms.reachable(List.of("s"), g, 2, id -> !id.equals("x")))
        .containsExactly("s", "a", "b");
    assertThat(GraphAlgorithms.reachable(List.of("s", "x"), g, 10, id -> !id.equals("x")))
        .containsExactly("s", "a", "b", "c");
    assertThat(GraphAlgorithms.reachable(List.of("s"), g, 10, id -> true))
        .containsExactly("s", "a", "b", "x", "c");
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void ppr_overTheSubgraphWithinTheHopLimit_whenItHoldsAllTheSeedsReach_equalsTheGlobalPpr(
      long seed) {
    // two halves joined only from the second to the first, zero weights, nodes without links
    SplittableRandom r = new SplittableRandom(seed);
    int n = 200;
    Map<String, List<Link>> links = new HashMap<>();
    List<String> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      all.add("n" + i);
      int half = i < n / 2 ? 0 : n / 2;
      for (int e = r.nextInt(4); e > 0; e--) {
        int to = r.nextInt(10) == 0 ? r.nextInt(n / 2) : half + r.nextInt(n / 2);
        double w = r.nextInt(8) == 0 ? 0 : r.nextDouble();
        links.computeIfAbsent("n" + i, k -> new ArrayList<>()).add(new Link("n" + to, "rel", w));
      }
    }
    GraphAlgorithms.Links g = node -> links.getOrDefault(node, List.of());
    Map<String, Double> seeds = seeds("n" + r.nextInt(n / 2), 0.9, "n" + r.nextInt(n / 2), 0.4);

    GraphAlgorithms.PageRank global =
        GraphAlgorithms.personalizedPageRank(all, seeds, g, 0.15, 1e-10, 1000);
    Set<String> reached = GraphAlgorithms.reachable(seeds.keySet(), g, n, id -> true);
    List<String> local = all.stream().filter(reached::contains).toList();
    GraphAlgorithms.PageRank restricted =
        GraphAlgorithms.personalizedPageRank(local, seeds, g, 0.15, 1e-10, 1000);

    assertThat(reached).hasSizeLessThan(n);
    assertThat(restricted.iterations()).isEqualTo(global.iterations());
    global
        .rank()
        .forEach(
            (id, v) -> {
              if (reached.contains(id)) {
                assertThat(restricted.rank().get(id)).as(id).isEqualTo(v);
              } else {
                assertThat(v).as(id).isZero();
              }
            });
  }
}
