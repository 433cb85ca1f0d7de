package dev.loci.recall;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one recall returned, whatever the mode: the ranked items, best first, and for {@link
 * RecallMode#ACTIVATION_SPREADING} and {@link RecallMode#PPR} the activation snapshot (every node
 * the mode gave a value, highest first); empty for the other modes.
 *
 * @param query the query text
 * @param mode the mode used
 * @param weights the weights in force (used by {@code weighted_graph})
 * @param items at most {@code k} items, best first
 * @param activation node id to activation or PageRank value, highest first
 * @param activationTrace for {@code activation_spreading}, every step of the propagation in the
 *     order it happened (at most {@value #TRACE_SIZE}), with where and why it stopped; else empty
 */
public record RecallResult(
    String query,
    RecallMode mode,
    ScoreWeights weights,
    List<RecallItem> items,
    Map<String, Double> activation,
    List<ActivationStep> activationTrace) {
  /** How many steps an activation trace keeps at most. */
  public static final int TRACE_SIZE = 2000;

  /** A result without an activation trace. */
  public RecallResult(
      String query,
      RecallMode mode,
      ScoreWeights weights,
      List<RecallItem> items,
      Map<String, Double> activation) {
    this(query, mode, weights, items, activation, List.of());
  }

  /** Checks presence and copies the collections, keeping their order. */
  public RecallResult {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(weights, "weights");
    items = List.copyOf(items);
    activation = Collections.unmodifiableMap(new LinkedHashMap<>(activation));
    activationTrace = List.copyOf(activationTrace);
  }

  /** The ids of the recalled nodes, best first. */
  public List<String> ids() {
    return items.stream().map(i -> i.node().id()).toList();
  }
}
