package dev.loci.recall.internal;

import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.StaleVersionException;
import dev.loci.recall.GraphStats;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecordVersion;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The memory graph the recall layer projects: per namespace, every node and edge with all its
 * versions (a removal is a version too, holding the last value) and the live edges touching each
 * node; and the queries over it.
 *
 * <p>Not thread-safe by itself: changed with the engine's exclusive access, read with its shared
 * access (see {@link dev.loci.spi.Layer}).
 */
final class RecallGraph {
  /** The records of one namespace. */
  static final class Graph {
    final NodeTable nodes = new NodeTable();
    final EdgeTable edges = new EdgeTable();
    private final Map<String, String> edgeTypes = new HashMap<>(); // one string per edge type
    volatile GraphAlgorithms.Links links; // built on first recall, dropped when an edge changes
    volatile Set<String> packs; // built on first recall, dropped when the set of packs changes
    // live nodes per pack, kept up to date by every node change once built (null: build on the next
    // read); built under this graph's monitor by a reader, changed with exclusive access
    Map<String, Integer> packCounts;

    /**
     * Counts {@code n}'s pack {@code delta} more times, dropping the set when a pack comes or goes.
     */
    void countPack(MemoryNode n, int delta) {
      if (packCounts == null) {
        return;
      }
      String pack = n.attributes().getOrDefault("pack", "");
      int now = packCounts.getOrDefault(pack, 0) + delta;
      if (now <= 0) {
        packCounts.remove(pack);
        packs = null;
      } else if (packCounts.put(pack, now) == null) {
        packs = null;
      }
    }

    /** Forgets the pack counts (an erasure rewrote attributes): rebuilt on the next read. */
    void recountPacks() {
      packCounts = null;
      packs = null;
    }

    /** How many nodes are live. */
    int liveCount() {
      int n = 0;
      for (int i = 0; i < nodes.size(); i++) {
        if (nodes.at(i).live()) {
          n++;
        }
      }
      return n;
    }

    /** The live nodes and their head versions, read in place. */
    ShardSet.LiveNodes live() {
      return new ShardSet.LiveNodes() {
        @Override
        public void forEach(java.util.function.BiConsumer<String, Integer> action) {
          nodes.forEachChain(
              c -> {
                if (c.live()) {
                  action.accept(c.value().id(), c.version());
                }
              });
        }

        @Override
        public Integer version(String id) {
          NodeChain c = nodes.get(id);
          return c != null && c.live() ? c.version() : null;
        }
      };
    }

    /** {@code type}, or the equal string an earlier edge of this namespace holds. */
    String edgeType(String type) {
      String known = edgeTypes.putIfAbsent(type, type);
      return known != null ? known : type;
    }
  }

  private final Map<Namespace, Graph> graphs = new HashMap<>();

  // ---------------------------------------------------------------- changes

  /** The records of {@code ns}, made empty on first use. */
  Graph graph(Namespace ns) {
    return graphs.computeIfAbsent(ns, k -> new Graph());
  }

  void putNode(Namespace ns, MemoryNode n, int version, Instant at) {
    Graph g = graph(ns);
    NodeChain c = g.nodes.get(n.id());
    if (c == null) {
      c = new NodeChain(g.nodes.size());
      c.add(n, version, at, false);
      g.nodes.append(c);
    } else {
      if (c.live()) {
        g.countPack(c.value(), -1);
      }
      c.add(n, version, at, false);
    }
    g.countPack(n, 1);
  }

  /** Makes room for {@code nodes} nodes and {@code edges} edges in {@code ns}. */
  void reserve(Namespace ns, int nodes, int edges) {
    Graph g = graph(ns);
    g.nodes.presize(nodes);
    g.edges.presize(edges);
  }

  /** The id of the node {@code ns} first put {@code ordinal}-th (from 0), or null. */
  String nodeId(Namespace ns, int ordinal) {
    Graph g = graphs.get(ns);
    return g == null || ordinal < 0 || ordinal >= g.nodes.size()
        ? null
        : g.nodes.at(ordinal).value().id();
  }

  void removeNode(Namespace ns, String id, int version, Instant at) {
    Graph g = graph(ns);
    Chain<MemoryNode> c = g.nodes.get(id);
    g.countPack(c.value(), -1);
    c.remove(version, at);
  }

  /**
   * Puts a version of edge {@code put}, holding the id strings its nodes hold and a shared type
   * string, so that a node's id is one string however many edges name it (edges arrive with their
   * own copies).
   *
   * @throws IllegalStateException if the namespace never held one of its nodes
   */
  void putEdge(Namespace ns, MemoryEdge put, int version, Instant at) {
    putEdge(ns, put, version, at, -1, -1);
  }

  /**
   * {@link #putEdge(Namespace, MemoryEdge, int, Instant)} where the ordinals of the edge's nodes
   * may be known ({@code fromNode} and {@code toNode}, -1 if not): a node at its ordinal is taken
   * without looking its id up when its id is the edge's.
   */
  void putEdge(Namespace ns, MemoryEdge put, int version, Instant at, int fromNode, int toNode) {
    Graph g = graph(ns);
    NodeChain from = endOf(g, put.from(), fromNode, put);
    NodeChain to = endOf(g, put.to(), toNode, put);
    String type = g.edgeType(put.edgeType());
    String fromId = from.value().id();
    String toId = to.value().id();
    EdgeChain c = g.edges.get(fromId, type, toId);
    if (c == null) {
      c = new EdgeChain(g.edges.size());
      c.add(put, version, at, false);
      c.share(fromId, type, toId);
      g.edges.append(c);
    } else {
      c.add(put, version, at, false);
      c.share(fromId, type, toId);
    }
    from.link(c.ordinal);
    to.link(c.ordinal);
    g.links = null;
  }

  private static NodeChain endOf(Graph g, String id, int ordinal, MemoryEdge e) {
    if (ordinal >= 0 && ordinal < g.nodes.size()) {
      NodeChain c = g.nodes.at(ordinal);
      if (c.value().id().equals(id)) {
        return c;
      }
    }
    NodeChain c = g.nodes.get(id);
    if (c == null) {
      throw new IllegalStateException("edge " + e.key() + " joins node '" + id + "', never put");
    }
    return c;
  }

  void removeEdge(Namespace ns, MemoryEdge.Key k, int version, Instant at) {
    Graph g = graph(ns);
    Chain<MemoryEdge> c = g.edges.get(k);
    c.remove(version, at);
    unlink(g, k.from(), c.ordinal);
    unlink(g, k.to(), c.ordinal);
    g.links = null;
  }

  private static void unlink(Graph g, String id, int edge) {
    NodeChain n = g.nodes.get(id);
    if (n != null) {
      n.unlink(edge);
    }
  }

  // ---------------------------------------------------------------- versions

  /** The live edges touching node {@code id} of {@code g}, in no order. */
  static Collection<MemoryEdge.Key> incident(Graph g, String id) {
    NodeChain n = g.nodes.get(id);
    if (n == null || n.linkCount() == 0) {
      return List.of();
    }
    List<MemoryEdge.Key> out = new ArrayList<>(n.linkCount());
    n.forEachLink(p -> out.add(g.edges.at(p).key()));
    return out;
  }

  static int headVersion(Graph g, String id) {
    Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
    return c == null ? 0 : c.version();
  }

  static int headVersion(Graph g, MemoryEdge.Key k) {
    Chain<MemoryEdge> c = g == null ? null : g.edges.get(k);
    return c == null ? 0 : c.version();
  }

  static boolean liveNode(Graph g, String id) {
    Chain<MemoryNode> c = g.nodes.get(id);
    return c != null && c.live();
  }

  /**
   * Checks that node {@code id} is live at {@code expected}. Called inside a command's decision, so
   * the check and the write it guards see the same state.
   *
   * @throws StaleVersionException naming {@code id} if it is at another version, removed or absent
   */
  public void expectNode(Namespace ns, String id, int expected) {
    Graph g = graphs.get(ns);
    expect(g == null ? null : g.nodes.get(id), expected, "id: node '" + id + "'", id);
  }

  /**
   * Checks that edge {@code key} is live at {@code expected}; see {@link #expectNode}.
   *
   * @throws StaleVersionException naming {@code edge} if it is at another version, removed or
   *     absent
   */
  public void expectEdge(Namespace ns, MemoryEdge.Key key, int expected) {
    Graph g = graphs.get(ns);
    expect(g == null ? null : g.edges.get(key), expected, "edge: edge " + key, key.toString());
  }

  private static void expect(Chain<?> c, int expected, String what, String uid) {
    String actual =
        c == null ? "none" : c.live() ? Integer.toString(c.version()) : "none (removed)";
    if (!actual.equals(Integer.toString(expected))) {
      throw new StaleVersionException(
          what + " is at version " + actual + ", not the expected " + expected + "; read it again",
          uid,
          Integer.toString(expected),
          actual);
    }
  }

  // ---------------------------------------------------------------- queries

  /** The live node {@code id}. */
  public Optional<MemoryNode> node(Namespace ns, String id) {
    Graph g = graphs.get(ns);
    Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
    return c != null && c.live() ? Optional.of(c.value()) : Optional.empty();
  }

  /** When node {@code id} was first put, if {@code ns} ever held it. */
  public Optional<Instant> firstPut(Namespace ns, String id) {
    Graph g = graphs.get(ns);
    Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
    return c == null ? Optional.empty() : Optional.of(c.first().at());
  }

  /** The records of {@code ns}, if it holds any. */
  Graph find(Namespace ns) {
    return graphs.get(ns);
  }

  /** Every namespace that holds records (a live view). */
  Set<Namespace> namespaceSet() {
    return graphs.keySet();
  }

  /** Runs {@code action} over every namespace's records. */
  void forEach(java.util.function.BiConsumer<Namespace, Graph> action) {
    graphs.forEach(action);
  }

  /** Forgets every record. */
  void clear() {
    graphs.clear();
  }

  /** The head version of node {@code id}, if {@code ns} ever held it (removed or not). */
  Optional<RecordVersion<MemoryNode>> nodeHead(Namespace ns, String id) {
    Graph g = graphs.get(ns);
    Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
    return c == null ? Optional.empty() : Optional.of(c.head());
  }

  /** Every namespace that holds records, sorted. */
  public List<Namespace> namespaces() {
    return graphs.keySet().stream().sorted().toList();
  }

  /**
   * Every version of node {@code id}, newest first, including its removals.
   *
   * @throws NotFoundException naming {@code id} if the namespace never held it
   */
  public List<RecordVersion<MemoryNode>> nodeHistory(Namespace ns, String id) {
    Graph g = graphs.get(ns);
    return newestFirst(
        g == null ? null : g.nodes.get(id),
        () -> new NotFoundException("id", "no node '" + id + "' in " + ns));
  }

  /**
   * Every version of edge {@code key}, newest first, including its removals.
   *
   * @throws NotFoundException naming {@code edge} if the namespace never held it
   */
  public List<RecordVersion<MemoryEdge>> edgeHistory(Namespace ns, MemoryEdge.Key key) {
    Graph g = graphs.get(ns);
    return newestFirst(
        g == null ? null : g.edges.get(key),
        () -> new NotFoundException("edge", "no edge " + key + " in " + ns));
  }

  private static <T> List<RecordVersion<T>> newestFirst(
      Chain<T> c, java.util.function.Supplier<NotFoundException> missing) {
    if (c == null) {
      throw missing.get();
    }
    List<RecordVersion<T>> out = new ArrayList<>(c.versions());
    java.util.Collections.reverse(out);
    return List.copyOf(out);
  }

  /** The live edges that start or end at node {@code id}, ordered by key. */
  public List<MemoryEdge> edgesOf(Namespace ns, String id) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return List.of();
    }
    NodeChain n = g.nodes.get(id);
    if (n == null) {
      return List.of();
    }
    List<MemoryEdge> out = new ArrayList<>(n.linkCount());
    n.forEachLink(p -> out.add(g.edges.at(p).value()));
    out.sort(EDGE_ORDER);
    return out;
  }

  /** The live nodes of {@code ns}, in the order they were first put. */
  public List<MemoryNode> nodes(Namespace ns) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return List.of();
    }
    List<MemoryNode> out = new ArrayList<>(g.nodes.size());
    g.nodes.forEachChain(
        c -> {
          if (c.live()) {
            out.add(c.value());
          }
        });
    return out;
  }

  /**
   * The live versions of the nodes of {@code ns} first put after node {@code after} (from the first
   * when empty), in the order they were first put, at most {@code limit}.
   *
   * @return empty when {@code after} names no node {@code ns} ever held
   */
  public Optional<List<RecordVersion<MemoryNode>>> nodesAfter(
      Namespace ns, Optional<String> after, int limit) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return after.isPresent() ? Optional.empty() : Optional.of(List.of());
    }
    int start = 0;
    if (after.isPresent()) {
      NodeChain a = g.nodes.get(after.get());
      if (a == null) {
        return Optional.empty();
      }
      start = a.ordinal + 1;
    }
    List<RecordVersion<MemoryNode>> out = new ArrayList<>(Math.min(limit, g.nodes.size()));
    for (int i = start; i < g.nodes.size() && out.size() < limit; i++) {
      NodeChain c = g.nodes.at(i);
      if (c.live()) {
        out.add(c.head());
      }
    }
    return Optional.of(out);
  }

  /** How many live nodes and edges {@code ns} holds, in total and by type (sorted by type). */
  public GraphStats stats(Namespace ns) {
    Graph g = graphs.get(ns);
    Map<String, Integer> nodeTypes = new java.util.TreeMap<>();
    Map<String, Integer> edgeTypes = new java.util.TreeMap<>();
    int nodes = 0;
    int edges = 0;
    int removedNodes = 0;
    int removedEdges = 0;
    if (g != null) {
      for (int i = 0; i < g.nodes.size(); i++) {
        Chain<MemoryNode> c = g.nodes.at(i);
        if (c.live()) {
          nodes++;
          nodeTypes.merge(c.value().type(), 1, Integer::sum);
        } else {
          removedNodes++;
        }
      }
      for (int i = 0; i < g.edges.size(); i++) {
        EdgeChain c = g.edges.at(i);
        if (c.live()) {
          edges++;
          edgeTypes.merge(c.type(), 1, Integer::sum);
        } else {
          removedEdges++;
        }
      }
    }
    return new GraphStats(ns, nodes, edges, removedNodes, removedEdges, nodeTypes, edgeTypes);
  }

  /** How many live edges {@code ns} holds. */
  public int edgeCount(Namespace ns) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return 0;
    }
    int n = 0;
    for (int i = 0; i < g.edges.size(); i++) {
      if (g.edges.at(i).live()) {
        n++;
      }
    }
    return n;
  }

  /**
   * The live edges of {@code ns} as links recall may follow: each edge from {@code from} to {@code
   * to}, and back when it is bidirectional, weighted by {@code weight * confidence}; ordered by
   * target, then edge type.
   */
  GraphAlgorithms.Links links(Namespace ns) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return node -> List.of();
    }
    GraphAlgorithms.Links cached = g.links;
    if (cached == null) {
      cached = buildLinks(g);
      g.links = cached;
    }
    return cached;
  }

  private static GraphAlgorithms.Links buildLinks(Graph g) {
    Map<String, List<GraphAlgorithms.Link>> out = new HashMap<>();
    for (int i = 0; i < g.edges.size(); i++) {
      EdgeChain c = g.edges.at(i);
      if (!c.live()) {
        continue;
      }
      double w = c.weight() * c.confidence();
      out.computeIfAbsent(c.from(), k -> new ArrayList<>())
          .add(new GraphAlgorithms.Link(c.to(), c.type(), w));
      if (c.bidirectional()) {
        out.computeIfAbsent(c.to(), k -> new ArrayList<>())
            .add(new GraphAlgorithms.Link(c.from(), c.type(), w));
      }
    }
    java.util.Comparator<GraphAlgorithms.Link> order =
        java.util.Comparator.comparing(GraphAlgorithms.Link::to)
            .thenComparing(GraphAlgorithms.Link::edgeType);
    out.values().forEach(l -> l.sort(order));
    return node -> out.getOrDefault(node, List.of());
  }

  /**
   * The distinct {@code pack} attributes of the live nodes of {@code ns} (the empty string for a
   * node without one). Counted once, then kept up to date by every node change, so a recall while
   * writes arrive does not walk every node of the namespace.
   */
  public Set<String> packs(Namespace ns) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return Set.of();
    }
    Set<String> cached = g.packs;
    if (cached != null) {
      return cached;
    }
    synchronized (g) { // readers share access: one builds the counts, the others wait for them
      if (g.packCounts == null) {
        Map<String, Integer> counts = new HashMap<>();
        g.nodes.forEachChain(
            c -> {
              if (c.live()) {
                counts.merge(c.value().attributes().getOrDefault("pack", ""), 1, Integer::sum);
              }
            });
        g.packCounts = counts;
      }
      cached = Set.copyOf(g.packCounts.keySet());
      g.packs = cached;
    }
    return cached;
  }

  /**
   * The live nodes among {@code ids}, each once, in the order they were first put (that of {@link
   * #nodes}). Costs the size of {@code ids}, not of the namespace.
   */
  List<String> inPutOrder(Namespace ns, Collection<String> ids) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return List.of();
    }
    Map<String, Integer> ordinals = new HashMap<>();
    for (String id : ids) {
      Chain<MemoryNode> c = g.nodes.get(id);
      if (c != null && c.live()) {
        ordinals.put(id, c.ordinal);
      }
    }
    List<String> out = new ArrayList<>(ordinals.keySet());
    out.sort(java.util.Comparator.comparingInt(ordinals::get));
    return out;
  }

  /** {@code keys} ordered by from, edge type, then to. */
  static Collection<MemoryEdge.Key> keyOrder(Collection<MemoryEdge.Key> keys) {
    List<MemoryEdge.Key> out = new ArrayList<>(keys);
    out.sort(KEY_ORDER);
    return out;
  }

  private static final java.util.Comparator<MemoryEdge> EDGE_ORDER =
      java.util.Comparator.comparing(MemoryEdge::from)
          .thenComparing(MemoryEdge::edgeType)
          .thenComparing(MemoryEdge::to);

  private static final java.util.Comparator<MemoryEdge.Key> KEY_ORDER =
      java.util.Comparator.comparing(MemoryEdge.Key::from)
          .thenComparing(MemoryEdge.Key::edgeType)
          .thenComparing(MemoryEdge.Key::to);
}
