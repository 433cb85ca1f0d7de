package dev.loci.recall.internal;

import dev.loci.recall.EvidenceRef;
import dev.loci.recall.MemoryEdge;
import java.util.Optional;

/**
 * An edge's versions, holding its head's fields itself and making the {@link MemoryEdge} when asked
 * for it: a graph holds about three edges per node, and a record object per edge beside its chain
 * cost a quarter of a node's heap. The graph's own reads (its tables, links and keys) take the
 * fields without making the record.
 *
 * <p>The ids are the strings the edge's nodes hold and the type the namespace's shared string (see
 * {@link RecallGraph#putEdge}), so an edge adds no strings of its own.
 *
 * <p>Not thread-safe: changed with the engine's exclusive access, read with its shared access.
 */
final class EdgeChain extends Chain<MemoryEdge> {
  private String from;
  private String to;
  private String type;
  private double weight;
  private double confidence;
  private Optional<EvidenceRef> sourceRef;
  private boolean bidirectional;

  EdgeChain(int ordinal) {
    super(ordinal);
  }

  /** The newest version's edge, made on each call. */
  @Override
  MemoryEdge value() {
    return isEmpty()
        ? null
        : new MemoryEdge(from, to, type, weight, confidence, bidirectional, sourceRef);
  }

  @Override
  void hold(MemoryEdge e) {
    from = e.from();
    to = e.to();
    type = e.edgeType();
    weight = e.weight();
    confidence = e.confidence();
    bidirectional = e.bidirectional();
    sourceRef = e.sourceRef();
  }

  /**
   * Holds {@code from}, {@code type} and {@code to} in place of the equal strings of the edge's
   * newest version: the ones its nodes and namespace hold.
   */
  void share(String from, String type, String to) {
    this.from = from;
    this.type = type;
    this.to = to;
  }

  /** The id of the node the edge starts at. */
  String from() {
    return from;
  }

  /** The id of the node the edge ends at. */
  String to() {
    return to;
  }

  /** The edge's type. */
  String type() {
    return type;
  }

  /** The newest version's weight. */
  double weight() {
    return weight;
  }

  /** The newest version's confidence. */
  double confidence() {
    return confidence;
  }

  /** Whether the newest version may be followed from {@code to} to {@code from}. */
  boolean bidirectional() {
    return bidirectional;
  }

  /** The newest version's source. */
  Optional<EvidenceRef> sourceRef() {
    return sourceRef;
  }

  /** The edge's key, made on each call. */
  MemoryEdge.Key key() {
    return new MemoryEdge.Key(from, type, to);
  }
}
