package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How recall finds and ranks nodes. The flat modes rank nodes by their text alone; the graph modes
 * start from the best flat candidates (the seeds) and follow edges.
 */
public enum RecallMode {
  /** BM25 over the node text (Apache Lucene). */
  LEXICAL,
  /** Cosine similarity of embeddings, exact scan. */
  EMBEDDING,
  /** Reciprocal rank fusion (k = 60) of the lexical and embedding rankings. */
  HYBRID,
  /** Breadth-first expansion from the seeds, ignoring every weight. */
  STRUCTURE_ONLY,
  /** semantic * w1 + structural * w2 + anomaly * w3 + importance * w4 over the expanded seeds. */
  WEIGHTED_GRAPH,
  /** Activation flowing from the seeds along weighted edges, decaying per hop. */
  ACTIVATION_SPREADING,
  /**
   * Personalized PageRank from the seeds over the weighted subgraph within {@code max(hops, 3)}
   * edges of them.
   */
  PPR;

  /** Whether the mode follows edges from seeds. */
  public boolean usesGraph() {
    return ordinal() >= STRUCTURE_ONLY.ordinal();
  }

  /** The wire name, for example {@code weighted_graph}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a wire name.
   *
   * @throws InvalidRequestException naming {@code mode} if there is no such mode
   */
  public static RecallMode parse(String text) {
    for (RecallMode m : values()) {
      if (m.wireName().equals(text)) {
        return m;
      }
    }
    throw new InvalidRequestException(
        "mode",
        "expected one of "
            + Arrays.stream(values()).map(RecallMode::wireName).collect(Collectors.joining(", "))
            + ", found '"
            + text
            + "'");
  }
}
