package dev.loci.recall.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecordVersion;
import dev.loci.recall.internal.RecallGraph.Graph;
import dev.loci.recall.internal.RecallLayer.Sync;
import dev.loci.recall.internal.RecallLayer.Written;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The decision of a recall write: which node and edge events a put, a removal or a file's sync
 * makes, checked against the graph. Runs inside a command's decision. Stateless.
 */
final class RecallDecisions {
  private RecallDecisions() {}

  /**
   * Decides putting nodes and edges (unchanged ones are skipped, changed ones get the next
   * version), then removing nodes (with the live edges touching them) and edges, then what {@code
   * sync} says is gone from its file.
   *
   * @throws NotFoundException naming {@code id} or {@code edge} when a removal names a record that
   *     is not live
   * @throws InvalidRequestException naming {@code from} or {@code to} when an edge's end is not a
   *     live node, or {@code nodes} when a node id repeats
   */
  static Decision<Written> decideWrite(
      RecallGraph graph,
      Namespace ns,
      Instant now,
      List<MemoryNode> nodes,
      List<MemoryEdge> edges,
      List<String> removeNodes,
      List<MemoryEdge.Key> removeEdges,
      Optional<Sync> sync) {
    Graph g = graph.find(ns);
    List<Event> events = new ArrayList<>();
    Set<String> keys = new HashSet<>();
    Map<String, RecordVersion<MemoryNode>> nodeOut = new LinkedHashMap<>();
    Map<MemoryEdge.Key, RecordVersion<MemoryEdge>> edgeOut = new LinkedHashMap<>();
    int written = 0;
    int removed = 0;
    for (MemoryNode n : nodes) {
      if (!keys.add("n:" + n.id())) {
        throw new InvalidRequestException("nodes", "node '" + n.id() + "' appears twice");
      }
      Chain<MemoryNode> c = g == null ? null : g.nodes.get(n.id());
      if (c != null && c.live() && c.head().value().equals(n)) {
        nodeOut.put(n.id(), c.head());
        continue;
      }
      int version = c == null ? 1 : c.head().version() + 1;
      events.add(RecallEvents.nodePut(n, version));
      nodeOut.put(n.id(), new RecordVersion<>(n, version, now, false));
      written++;
    }
    Set<String> removing = new HashSet<>(removeNodes);
    Set<MemoryEdge.Key> edgeKeys = new HashSet<>();
    for (MemoryEdge e : edges) {
      MemoryEdge.Key key = e.key();
      if (!edgeKeys.add(key)) {
        throw new InvalidRequestException("edges", "edge " + key + " appears twice");
      }
      keys.add("e:" + key);
      checkEnd(g, nodeOut, removing, "from", e.from());
      checkEnd(g, nodeOut, removing, "to", e.to());
      Chain<MemoryEdge> c = g == null ? null : g.edges.get(key);
      if (c != null && c.live() && c.head().value().equals(e)) {
        edgeOut.put(key, c.head());
        continue;
      }
      int version = c == null ? 1 : c.head().version() + 1;
      events.add(RecallEvents.edgePut(e, version));
      edgeOut.put(key, new RecordVersion<>(e, version, now, false));
      written++;
    }
    Set<String> nodesGone = new LinkedHashSet<>(removeNodes);
    Set<MemoryEdge.Key> edgesGone = new LinkedHashSet<>(removeEdges);
    for (String id : removeNodes) {
      if (g == null || !g.nodes.containsKey(id) || !g.nodes.get(id).live()) {
        throw new NotFoundException("id", "no node '" + id + "' in " + ns);
      }
    }
    for (MemoryEdge.Key k : removeEdges) {
      if (g == null || !g.edges.containsKey(k) || !g.edges.get(k).live()) {
        throw new NotFoundException("edge", "no edge " + k + " in " + ns);
      }
    }
    if (sync.isPresent() && g != null) {
      Sync s = sync.get();
      g.nodes.forEachChain(
          c -> {
            if (c.live()
                && fromFile(c.value().sourceRef(), s.path())
                && !s.nodeIds().contains(c.value().id())) {
              nodesGone.add(c.value().id());
            }
          });
      g.edges.forEachChain(
          c -> {
            if (c.live() && fromFile(c.sourceRef(), s.path()) && !s.edgeKeys().contains(c.key())) {
              edgesGone.add(c.key());
            }
          });
    }
    if (g != null) {
      for (String id : nodesGone) {
        for (MemoryEdge.Key k : RecallGraph.keyOrder(RecallGraph.incident(g, id))) {
          edgesGone.add(k);
        }
      }
      for (MemoryEdge.Key k : edgesGone) {
        if (edgeKeys.contains(k)) {
          continue;
        }
        Chain<MemoryEdge> c = g.edges.get(k);
        int version = c.head().version() + 1;
        keys.add("e:" + k);
        events.add(RecallEvents.edgeRemoved(k, version));
        edgeOut.put(k, new RecordVersion<>(c.head().value(), version, now, true));
        removed++;
      }
      for (String id : nodesGone) {
        Chain<MemoryNode> c = g.nodes.get(id);
        int version = c.head().version() + 1;
        keys.add("n:" + id);
        events.add(RecallEvents.nodeRemoved(id, version));
        nodeOut.put(id, new RecordVersion<>(c.head().value(), version, now, true));
        removed++;
      }
    }
    return new Decision<>(events, keys, new Written(written, removed, nodeOut, edgeOut));
  }

  private static boolean fromFile(Optional<dev.loci.recall.EvidenceRef> ref, String path) {
    return ref.isPresent() && ref.get().path().equals(path);
  }

  private static void checkEnd(
      Graph g,
      Map<String, RecordVersion<MemoryNode>> putting,
      Set<String> removing,
      String field,
      String id) {
    boolean live =
        putting.containsKey(id) || g != null && g.nodes.containsKey(id) && g.nodes.get(id).live();
    if (!live || removing.contains(id)) {
      throw new InvalidRequestException(field, "no live node '" + id + "' for the edge to join");
    }
  }
}
