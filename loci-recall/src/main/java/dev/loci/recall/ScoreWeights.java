package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The weights of the {@code weighted_graph} formula: {@code final = semantic * semantic_weight +
 * structural * structural_weight + anomaly * anomaly_weight + importance * importance_weight}. Each
 * is at least 0 and they need not sum to 1.
 *
 * <p>The lifecycle weights ({@code trust}, {@code recency}, {@code stability}, {@code usage}) weigh
 * the components a {@link dev.loci.recall.spi.ScoringStrategy} adds to every item's score (see
 * {@link LifecycleScoring}); they default to 0, which leaves scores as they were.
 *
 * @param semantic how much the node's own match with the query counts
 * @param structural how much the strongest weighted path from a seed counts
 * @param anomaly how much risk or novelty counts
 * @param importance how much the node's importance counts
 * @param trust how much the node's trust (confidence and governed status) counts
 * @param recency how much a recent write or use counts
 * @param stability how much the lifecycle stability counts
 * @param usage how much the number of useful uses counts
 */
public record ScoreWeights(
    double semantic,
    double structural,
    double anomaly,
    double importance,
    double trust,
    double recency,
    double stability,
    double usage) {
  /** Weights used when neither the request nor a domain pack gives any. */
  public static final ScoreWeights DEFAULT = new ScoreWeights(0.5, 0.3, 0.1, 0.1);

  /** The formula's four weights, with no lifecycle weights. */
  public ScoreWeights(double semantic, double structural, double anomaly, double importance) {
    this(semantic, structural, anomaly, importance, 0, 0, 0, 0);
  }

  /** The same formula weights with lifecycle weights {@code trust .. usage}. */
  public ScoreWeights withLifecycle(double trust, double recency, double stability, double usage) {
    return new ScoreWeights(
        semantic, structural, anomaly, importance, trust, recency, stability, usage);
  }

  /** Whether any lifecycle weight is above 0. */
  public boolean lifecycleAware() {
    return trust > 0 || recency > 0 || stability > 0 || usage > 0;
  }

  /** The weights of {@code map}, keyed as {@link #asMap()}. */
  public static ScoreWeights of(Map<String, Double> map) {
    return new ScoreWeights(
        map.get("semantic"),
        map.get("structural"),
        map.get("anomaly"),
        map.get("importance"),
        map.get("trust"),
        map.get("recency"),
        map.get("stability"),
        map.get("usage"));
  }

  /** Checks every weight is a finite number of at least 0. */
  public ScoreWeights {
    check("semantic", semantic);
    check("structural", structural);
    check("anomaly", anomaly);
    check("importance", importance);
    check("trust", trust);
    check("recency", recency);
    check("stability", stability);
    check("usage", usage);
  }

  private static void check(String name, double w) {
    if (!(w >= 0) || Double.isInfinite(w)) {
      throw new InvalidRequestException(
          "weights." + name, "expected a finite number of at least 0, found " + w);
    }
  }

  /**
   * Parses {@code semantic=0.5,structural=0.3}: the named weights replace those of {@code base}.
   *
   * @throws InvalidRequestException naming {@code weights} or the weight
   */
  public static ScoreWeights parse(String text, ScoreWeights base) {
    Map<String, Double> w = new LinkedHashMap<>(base.asMap());
    for (String part : text.split(",")) {
      String[] kv = part.split("=", -1);
      if (kv.length != 2 || !w.containsKey(kv[0].strip())) {
        throw new InvalidRequestException(
            "weights",
            "expected name=number pairs separated by commas, names among "
                + w.keySet()
                + ", found '"
                + part
                + "'");
      }
      try {
        w.put(kv[0].strip(), Double.parseDouble(kv[1].strip()));
      } catch (NumberFormatException e) {
        throw new InvalidRequestException(
            "weights." + kv[0].strip(), "expected a number, found '" + kv[1] + "'");
      }
    }
    return of(w);
  }

  /** The weights by name, in formula order. */
  public Map<String, Double> asMap() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("semantic", semantic);
    m.put("structural", structural);
    m.put("anomaly", anomaly);
    m.put("importance", importance);
    m.put("trust", trust);
    m.put("recency", recency);
    m.put("stability", stability);
    m.put("usage", usage);
    return m;
  }
}
