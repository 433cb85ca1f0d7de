package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed relationship between two nodes of one namespace. An edge is identified by its {@link
 * #key()}: the two ends and the type; putting an edge with the same key replaces its weight,
 * confidence and direction as a new version.
 *
 * <p>Recall follows an edge from {@code from} to {@code to}, and also backwards when it is {@code
 * bidirectional}.
 *
 * @param from the id of the node it starts at
 * @param to the id of the node it ends at, not {@code from}
 * @param edgeType lower snake_case, for example {@code references} or {@code next_turn}
 * @param weight how strongly it carries relevance, in [0, 1]
 * @param confidence how sure its source is, in [0, 1]
 * @param bidirectional whether recall may follow it from {@code to} to {@code from}
 * @param sourceRef where it came from
 */
public record MemoryEdge(
    String from,
    String to,
    String edgeType,
    double weight,
    double confidence,
    boolean bidirectional,
    Optional<EvidenceRef> sourceRef) {

  /** Validates every field; the exception names the offending one. */
  public MemoryEdge {
    MemoryNode.checkId("from", from);
    MemoryNode.checkId("to", to);
    if (from.equals(to)) {
      throw new InvalidRequestException("to", "expected another node than from, found " + to);
    }
    MemoryNode.checkType("edge_type", edgeType);
    MemoryNode.unit("weight", weight);
    MemoryNode.unit("confidence", confidence);
    Objects.requireNonNull(sourceRef, "source_ref");
  }

  /** A directed edge with confidence 1 and no source. */
  public static MemoryEdge of(String from, String to, String edgeType, double weight) {
    return new MemoryEdge(from, to, edgeType, weight, 1, false, Optional.empty());
  }

  /** The same edge, followed in both directions. */
  public MemoryEdge bothWays() {
    return new MemoryEdge(from, to, edgeType, weight, confidence, true, sourceRef);
  }

  /** The same edge with a source. */
  public MemoryEdge withSource(EvidenceRef ref) {
    return new MemoryEdge(from, to, edgeType, weight, confidence, bidirectional, Optional.of(ref));
  }

  /** The identity of the edge: {@code from}, {@code edge_type} and {@code to}. */
  public Key key() {
    return new Key(from, edgeType, to);
  }

  /**
   * What identifies an edge within a namespace.
   *
   * @param from the start node's id
   * @param edgeType the edge type
   * @param to the end node's id
   */
  public record Key(String from, String edgeType, String to) {
    /** Checks presence. */
    public Key {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(edgeType, "edge_type");
      Objects.requireNonNull(to, "to");
    }

    @Override
    public String toString() {
      return from + " -" + edgeType + "-> " + to;
    }
  }
}
