package dev.loci.govern;

import dev.loci.recall.LifecycleScoring;
import dev.loci.recall.RecallMode;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.ScoringStrategy;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recall scoring that respects governed status: the lifecycle scoring (trust from confidence and
 * status, recency, stability, usage), plus for a governed node ({@code governed} attribute) a
 * {@code current} component that is 1 for an active or candidate record and 0 for a superseded,
 * invalid or graduated one, whose combined score is then 0. So a superseded or invalid record never
 * outranks its active successor, whatever its words. Nodes that are not governed score exactly as
 * under {@link LifecycleScoring}. Stateless, thread-safe.
 */
public final class GovernedScoring implements ScoringStrategy {
  /** The one instance. */
  public static final GovernedScoring INSTANCE = new GovernedScoring();

  private GovernedScoring() {}

  @Override
  public String name() {
    return "governed";
  }

  @Override
  public Map<String, Double> components(Candidate c) {
    Map<String, Double> out = new LinkedHashMap<>(LifecycleScoring.INSTANCE.components(c));
    if ("true".equals(c.node().attributes().get(GovernedRecall.GOVERNED))) {
      String status = c.node().attributes().getOrDefault(GovernedRecall.RECORD_STATUS, "");
      out.put("current", status.equals("active") || status.equals("candidate") ? 1.0 : 0.0);
    }
    return out;
  }

  @Override
  public double combine(
      RecallMode mode, double base, Map<String, Double> components, ScoreWeights weights) {
    double score = LifecycleScoring.INSTANCE.combine(mode, base, components, weights);
    return components.getOrDefault("current", 1.0) == 0.0 ? 0.0 : score;
  }

  /**
   * A governed node whose record is superseded, invalid or graduated: recall ranks it after every
   * current item under any weights, so by default too it never outranks its active successor.
   */
  @Override
  public boolean retired(dev.loci.recall.MemoryNode node) {
    if (!"true".equals(node.attributes().get(GovernedRecall.GOVERNED))) {
      return false;
    }
    String status = node.attributes().getOrDefault(GovernedRecall.RECORD_STATUS, "");
    return !status.equals("active") && !status.equals("candidate");
  }
}
