package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The weights of the {@code weighted_graph} formula: {@code final = semantic * semantic_weight +
 * structural * structural_weight + anomaly * anomaly_weight + importance * importance_weight}. Each
 * is at least 0 and they need not sum to 1.
 *
 * @param semantic how much the node's own match with the query counts
 * @param structural how much the strongest weighted path from a seed counts
 * @param anomaly how much risk or novelty counts
 * @param importance how much the node's importance counts
 */
public record ScoreWeights(double semantic, double structural, double anomaly, double importance) {
  /** Weights used when neither the request nor a domain pack gives any. */
  public static final ScoreWeights DEFAULT = new ScoreWeights(0.5, 0.3, 0.1, 0.1);

  /** Checks every weight is a finite number of at least 0. */
  public ScoreWeights {
    check("semantic", semantic);
    check("structural", structural);
    check("anomaly", anomaly);
    check("importance", importance);
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
    return new ScoreWeights(
        w.get("semantic"), w.get("structural"), w.get("anomaly"), w.get("importance"));
  }

  /** The weights by name, in formula order. */
  public Map<String, Double> asMap() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("semantic", semantic);
    m.put("structural", structural);
    m.put("anomaly", anomaly);
    m.put("importance", importance);
    return m;
  }
}
