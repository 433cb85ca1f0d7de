package dev.loci.recall;

import dev.loci.recall.spi.ScoringStrategy;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The default {@link ScoringStrategy}: adds trust, recency, stability and usage to the seed's
 * formula.
 *
 * <ul>
 *   <li>{@code trust}: the node's confidence times its governed status ({@code status} attribute:
 *       {@code trusted} or {@code promoted} 1, {@code candidate} 0.6, {@code rejected} or {@code
 *       superseded} 0.1, none 0.8);
 *   <li>{@code recency}: {@code 2^(-age / half-life)}, age since the later of its last write and
 *       its last use;
 *   <li>{@code stability}: the lifecycle stability read at recall time;
 *   <li>{@code usage}: {@code n / (n + 3)} for n useful uses.
 * </ul>
 *
 * <p>In {@code weighted_graph}, whose score is the seed's weighted sum, each component times its
 * weight is added to the sum. The other modes' scores are on their own scales (BM25, cosine, RRF,
 * activation, PageRank), so there the score is multiplied by {@code 1 + sum of weight * component}:
 * the order among items the components do not separate stays the mode's. Stateless.
 */
public final class LifecycleScoring implements ScoringStrategy {
  /** The one instance. */
  public static final LifecycleScoring INSTANCE = new LifecycleScoring();

  private LifecycleScoring() {}

  @Override
  public String name() {
    return "lifecycle";
  }

  @Override
  public Map<String, Double> components(Candidate c) {
    Map<String, Double> out = new LinkedHashMap<>();
    out.put("trust", c.node().confidence() * status(c.node().attributes().get("status")));
    java.time.Instant touched = c.lastChanged();
    if (c.lifecycle().lastAccess().isPresent()
        && c.lifecycle().lastAccess().get().isAfter(touched)) {
      touched = c.lifecycle().lastAccess().get();
    }
    double age = Math.max(0, c.now().toEpochMilli() - touched.toEpochMilli());
    out.put("recency", Math.pow(2, -age / Math.max(1, c.halfLife().toMillis())));
    out.put("stability", c.lifecycle().stabilityScore());
    long n = c.lifecycle().reinforcementCount();
    out.put("usage", n / (n + 3.0));
    return out;
  }

  private static double status(String status) {
    if (status == null) {
      return 0.8;
    }
    return switch (status) {
      case "trusted", "promoted" -> 1;
      case "candidate" -> 0.6;
      case "rejected", "superseded" -> 0.1;
      default -> 0.8;
    };
  }

  @Override
  public double combine(
      RecallMode mode, double base, Map<String, Double> components, ScoreWeights w) {
    double added =
        w.trust() * components.getOrDefault("trust", 0.0)
            + w.recency() * components.getOrDefault("recency", 0.0)
            + w.stability() * components.getOrDefault("stability", 0.0)
            + w.usage() * components.getOrDefault("usage", 0.0);
    return mode == RecallMode.WEIGHTED_GRAPH ? base + added : base * (1 + added);
  }
}
