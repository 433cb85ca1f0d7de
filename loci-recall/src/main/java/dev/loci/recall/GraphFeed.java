package dev.loci.recall;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.internal.RecallLayer;
import dev.loci.spi.CommandContext;
import dev.loci.spi.ContentRedaction;
import dev.loci.spi.Decision;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * How another layer puts its records onto the recall graph in the same journal batch as the write
 * that changed them: its command decides its own events, then asks the feed for the node and edge
 * events of the records it wrote, and appends both as one batch. A recall right after the write
 * finds the node, and replaying the journal rebuilds the same graph, because the node events are in
 * the batch that made the record.
 *
 * <p>{@link #decide} runs inside a command's decision (with the engine's shared access) and must
 * not be called elsewhere. Nodes are redacted as {@link RecallMemory#putNode} redacts them; a node
 * equal to the live one writes nothing; an edge whose ends are neither live nor written in the same
 * call is left out (a pointer to a record that has no node). Vectors are computed by the next
 * recall, as for any node put without embedding. Thread-safe.
 */
public final class GraphFeed {
  private final RecallLayer layer;
  private final dev.loci.Redaction redaction;

  private GraphFeed(RecallLayer layer, dev.loci.Redaction redaction) {
    this.layer = layer;
    this.redaction = redaction;
  }

  /** The feed of an open instance, if it was opened with the recall layer. */
  public static Optional<GraphFeed> of(Loci loci) {
    Objects.requireNonNull(loci, "loci");
    try {
      return Optional.of(new GraphFeed(loci.layer(RecallLayer.class), loci.redaction()));
    } catch (IllegalStateException e) {
      return Optional.empty(); // an instance without recall: no graph to feed
    }
  }

  /**
   * The decision that puts {@code nodes} and {@code edges} into {@code ns}'s graph, to append to
   * the calling command's own events; its keys must join the command's keys.
   */
  public Decision<Integer> decide(
      CommandContext ctx, Namespace ns, List<MemoryNode> nodes, List<MemoryEdge> edges) {
    Objects.requireNonNull(ctx, "ctx");
    Optional<UnaryOperator<String>> r = redaction.redactor(ns, ContentRedaction.NODE);
    List<MemoryNode> put = new ArrayList<>(nodes.size());
    Set<String> ids = new HashSet<>();
    for (MemoryNode n : nodes) {
      if (ids.add(n.id())) {
        put.add(Ingester.redacted(r, n));
      }
    }
    List<MemoryEdge> linked = new ArrayList<>(edges.size());
    Set<MemoryEdge.Key> seen = new HashSet<>();
    for (MemoryEdge e : edges) {
      if (live(ns, ids, e.from()) && live(ns, ids, e.to()) && seen.add(e.key())) {
        linked.add(e);
      }
    }
    Decision<RecallLayer.Written> d =
        layer.decideWrite(ns, ctx.now(), put, linked, List.of(), List.of(), Optional.empty());
    return new Decision<>(d.events(), d.keys(), d.result().written());
  }

  private boolean live(Namespace ns, Set<String> written, String id) {
    return written.contains(id) || layer.node(ns, id).isPresent();
  }
}
