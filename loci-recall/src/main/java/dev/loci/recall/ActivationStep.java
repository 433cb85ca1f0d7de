package dev.loci.recall;

import java.util.Objects;
import java.util.Optional;

/**
 * One step of an activation trace: a node activation reached (or tried to reach), at which hop,
 * through which edge type, with how much, and, where propagation stopped there, why.
 *
 * @param nodeId the node
 * @param hop 0 for a seed, else the hop that reached it
 * @param isSeed whether it is a seed
 * @param edgeType {@code seed} or the edge type followed into it
 * @param activation the activation it had (a seed) or was sent (a hop)
 * @param stopReason {@value #BELOW_THRESHOLD} (the pulse was under the threshold and dropped),
 *     {@value #HOP_LIMIT} (it was reached at the last hop and fired no further) or {@value
 *     #VISITED} (it had already fired, so it received nothing); empty where propagation went on
 */
public record ActivationStep(
    String nodeId,
    int hop,
    boolean isSeed,
    String edgeType,
    double activation,
    Optional<String> stopReason) {
  /** A pulse under the threshold, dropped. */
  public static final String BELOW_THRESHOLD = "below_threshold";

  /** A node reached at the last hop. */
  public static final String HOP_LIMIT = "hop_limit";

  /** A node that had already fired. */
  public static final String VISITED = "visited";

  /** Checks presence. */
  public ActivationStep {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(edgeType, "edgeType");
    Objects.requireNonNull(stopReason, "stopReason");
  }
}
