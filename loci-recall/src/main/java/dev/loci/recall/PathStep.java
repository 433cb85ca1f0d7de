package dev.loci.recall;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a {@link MemoryPath}: the node reached, how (the edge type it came through, or {@code
 * seed} for where the path starts), its score at this step, and the named components that make up
 * that score (for example {@code bm25}, {@code edge_weight}, {@code structural}).
 *
 * @param nodeId the node reached
 * @param via {@value #SEED} or the type of the edge followed
 * @param score the score at this step
 * @param components the named parts of the score, in a stable order
 */
public record PathStep(String nodeId, String via, double score, Map<String, Double> components) {
  /** The {@code via} of the first step of a path. */
  public static final String SEED = "seed";

  /** Checks presence and copies the components, keeping their order. */
  public PathStep {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(via, "via");
    components = Collections.unmodifiableMap(new LinkedHashMap<>(components));
  }
}
