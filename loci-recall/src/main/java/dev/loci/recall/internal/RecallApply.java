package dev.loci.recall.internal;

import dev.loci.Namespace;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.internal.RecallEvents.EdgePut;
import dev.loci.recall.internal.RecallEvents.EdgeRemoved;
import dev.loci.recall.internal.RecallEvents.NodePut;
import dev.loci.recall.internal.RecallEvents.NodeRemoved;
import dev.loci.recall.internal.RecallGraph.Graph;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The recall layer's apply: checks a batch's events against the graph, then applies them in batch
 * order. Every event carries the version it creates, so applying checks it follows the record's
 * current version: a journal replayed with a batch skipped cannot silently reorder history.
 * Stateless.
 */
final class RecallApply {
  private RecallApply() {}

  /** Where the checked changes go: the graph, and the indexes that follow it. */
  interface Target {
    void putNode(Namespace ns, MemoryNode n, int version, Instant at);

    void removeNode(Namespace ns, String id, int version, Instant at);

    void putEdge(Namespace ns, MemoryEdge e, int version, Instant at);

    /**
     * {@link #putEdge(Namespace, MemoryEdge, int, Instant)} where the ordinals of the edge's nodes
     * are known (a snapshot records them); checked against the ids before they are used.
     */
    default void putEdge(
        Namespace ns, MemoryEdge e, int version, Instant at, int fromNode, int toNode) {
      putEdge(ns, e, version, at);
    }

    /** Makes room for {@code nodes} nodes and {@code edges} edges in {@code ns} (a restore). */
    default void reserve(Namespace ns, int nodes, int edges) {}

    /**
     * The id of the node {@code ns} first put {@code ordinal}-th (from 0), or null if unknown: a
     * restore shares it with the edges that name the node rather than copy it for each.
     */
    default String nodeId(Namespace ns, int ordinal) {
      return null;
    }

    void removeEdge(Namespace ns, MemoryEdge.Key k, int version, Instant at);
  }

  /**
   * Checks that the recall events of one committed batch apply to {@code graph} (each version
   * follows the record's current one, removals name live records, edges join live nodes, and no
   * removed node keeps a live edge) and returns the change that applies them to {@code target}.
   *
   * @throws IllegalStateException if they do not apply
   */
  static Runnable prepare(
      RecallGraph graph, JournalEntry entry, List<Event> events, Target target) {
    Namespace ns = entry.namespace();
    Instant at = entry.ts();
    Graph g = graph.find(ns);
    Map<String, Integer> nodeVersion = new HashMap<>();
    Map<String, Boolean> nodeLive = new HashMap<>();
    Map<MemoryEdge.Key, Integer> edgeVersion = new HashMap<>();
    Map<MemoryEdge.Key, Boolean> edgeLive = new HashMap<>();
    List<Runnable> steps = new ArrayList<>(events.size());
    for (Event e : events) {
      switch (e.type()) {
        case RecallEvents.NODE_PUT -> {
          NodePut p = RecallEvents.nodePut(e);
          String id = p.node().id();
          follows(
              p.version(),
              nodeVersion.getOrDefault(id, RecallGraph.headVersion(g, id)),
              "node " + id);
          nodeVersion.put(id, p.version());
          nodeLive.put(id, true);
          steps.add(() -> target.putNode(ns, p.node(), p.version(), at));
        }
        case RecallEvents.NODE_REMOVED -> {
          NodeRemoved r = RecallEvents.nodeRemoved(e);
          String id = r.id();
          follows(
              r.version(),
              nodeVersion.getOrDefault(id, RecallGraph.headVersion(g, id)),
              "node " + id);
          if (!nodeLive.getOrDefault(id, g != null && RecallGraph.liveNode(g, id))) {
            throw new IllegalStateException("node " + id + " is not live in " + ns);
          }
          nodeVersion.put(id, r.version());
          nodeLive.put(id, false);
          steps.add(() -> target.removeNode(ns, id, r.version(), at));
        }
        case RecallEvents.EDGE_PUT -> {
          EdgePut p = RecallEvents.edgePut(e);
          MemoryEdge.Key k = p.edge().key();
          follows(
              p.version(), edgeVersion.getOrDefault(k, RecallGraph.headVersion(g, k)), "edge " + k);
          for (String end : List.of(k.from(), k.to())) {
            if (!nodeLive.getOrDefault(end, g != null && RecallGraph.liveNode(g, end))) {
              throw new IllegalStateException("edge " + k + " joins " + end + ", not live");
            }
          }
          edgeVersion.put(k, p.version());
          edgeLive.put(k, true);
          steps.add(() -> target.putEdge(ns, p.edge(), p.version(), at));
        }
        case RecallEvents.EDGE_REMOVED -> {
          EdgeRemoved r = RecallEvents.edgeRemoved(e);
          MemoryEdge.Key k = r.key();
          follows(
              r.version(), edgeVersion.getOrDefault(k, RecallGraph.headVersion(g, k)), "edge " + k);
          if (!edgeLive.getOrDefault(
              k, g != null && g.edges.containsKey(k) && g.edges.get(k).live())) {
            throw new IllegalStateException("edge " + k + " is not live in " + ns);
          }
          edgeVersion.put(k, r.version());
          edgeLive.put(k, false);
          steps.add(() -> target.removeEdge(ns, k, r.version(), at));
        }
        default -> throw new IllegalStateException("unknown event type '" + e.type() + "'");
      }
    }
    // a node removed by this batch must not keep live edges
    nodeLive.forEach(
        (id, live) -> {
          if (!live && g != null) {
            for (MemoryEdge.Key k : RecallGraph.incident(g, id)) {
              if (edgeLive.getOrDefault(k, true)) {
                throw new IllegalStateException("node " + id + " removed with edge " + k + " live");
              }
            }
          }
        });
    return () -> steps.forEach(Runnable::run);
  }

  private static void follows(int version, int current, String what) {
    if (version != current + 1) {
      throw new IllegalStateException(
          what + " version " + version + " does not follow version " + current);
    }
  }
}
