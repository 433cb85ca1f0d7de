package dev.loci.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LocomoMetricsTest {
  private static final List<String> RANKED = List.of("a", "x", "b", "y", "c");
  private static final Set<String> GOLD = Set.of("a", "b", "c", "d");

  @Test
  void recall_threeOfFourGoldInTopFive_matchesHandComputedValues() {
    assertThat(LocomoMetrics.recallAny(RANKED, GOLD, 1)).isEqualTo(1.0);
    assertThat(LocomoMetrics.recallAny(List.of("x", "a"), GOLD, 1)).isEqualTo(0.0);
    assertThat(LocomoMetrics.recallAll(RANKED, GOLD, 5)).isEqualTo(0.0);
    assertThat(LocomoMetrics.recallAll(RANKED, Set.of("a", "b"), 3)).isEqualTo(1.0);
    assertThat(LocomoMetrics.recallAll(RANKED, Set.of("a", "b"), 2)).isEqualTo(0.0);
    assertThat(LocomoMetrics.recall(RANKED, GOLD, 5)).isEqualTo(0.75);
    assertThat(LocomoMetrics.recall(RANKED, GOLD, 2)).isEqualTo(0.25);
    assertThat(LocomoMetrics.recall(RANKED, GOLD, 50)).isEqualTo(0.75);
  }

  @Test
  void ndcg_goldAtRanksOneThreeFive_isDcgOverIdealDcg() {
    // dcg = 1/log2(2) + 1/log2(4) + 1/log2(6); ideal = sum of 1/log2(i + 1) for i = 1..4
    assertThat(LocomoMetrics.ndcg(RANKED, GOLD, 10)).isCloseTo(0.7365896932, within(1e-9));
    assertThat(LocomoMetrics.ndcg(List.of("a", "b"), Set.of("a", "b"), 10)).isEqualTo(1.0);
    assertThat(LocomoMetrics.ndcg(List.of("x", "a"), Set.of("a"), 1)).isEqualTo(0.0);
  }

  @Test
  void reciprocalRank_firstGoldAtThree_isAThird() {
    assertThat(LocomoMetrics.reciprocalRank(List.of("x", "y", "b", "a"), Set.of("a", "b")))
        .isEqualTo(1.0 / 3);
    assertThat(LocomoMetrics.reciprocalRank(List.of("x"), Set.of("a"))).isEqualTo(0.0);
  }

  @Test
  void sessionLevel_aSessionCountsWhenAnyOfItsTurnsIsInTheTopK() {
    LocomoData.Question q = new LocomoData.Question("1-1", 1, "q", List.of("D2:5", "D3:1"));
    LocomoBenchmark.Asked asked =
        new LocomoBenchmark.Asked(
            q, 1, Map.of("s", List.of("D1:1", "D1:2", "D3:4", "D2:7", "D3:1")));

    Map<String, Double> turn = LocomoBenchmark.scores(asked, "s", "turn", List.of(3, 4, 5));
    Map<String, Double> session = LocomoBenchmark.scores(asked, "s", "session", List.of(3, 4));

    assertThat(turn)
        .containsEntry("recall_any@4", 0.0)
        .containsEntry("recall_any@5", 1.0)
        .containsEntry("recall_all@5", 0.0)
        .containsEntry("recall@5", 0.5)
        .containsEntry("mrr", 0.2);
    // the first 3 turns reach D1 and D3; the first 4 reach D2 as well
    assertThat(session)
        .containsEntry("recall_any@3", 1.0)
        .containsEntry("recall_all@3", 0.0)
        .containsEntry("recall@3", 0.5)
        .containsEntry("recall_all@4", 1.0)
        .containsEntry("recall@4", 1.0)
        .containsEntry("mrr", 0.5);
    // sessions in order D1, D3, D2: dcg = 1/log2(3) + 1/log2(4), ideal = 1 + 1/log2(3)
    assertThat(session.get("ndcg@10")).isCloseTo(0.6934264036, within(1e-9));
    assertThat(LocomoMetrics.sessionsWithin(asked.ranked().get("s"), 4))
        .containsExactly("D1", "D3", "D2");
  }
}
