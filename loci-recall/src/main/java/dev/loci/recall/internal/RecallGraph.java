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
import java.util.HashSet;
import java.util.LinkedHashMap;
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
  /**
   * All versions of one record: the head's parts held here, and the earlier versions in a list only
   * once there are any (most records never change, and a list and a version object per record cost
   * more than the record itself).
   */
  static final class Chain<T> {
    final int ordinal; // how many records of its kind the namespace held before this one
    private T value;
    private int
        version; // negated for a removal (versions start at 1): no boolean to pad the object
    private Instant at;
    private List<RecordVersion<T>> earlier; // oldest first; null while there is one version

    Chain(int ordinal) {
      this.ordinal = ordinal;
    }

    boolean isEmpty() {
      return value == null;
    }

    void add(RecordVersion<T> v) {
      if (value != null) {
        if (earlier == null) {
          earlier = new ArrayList<>(2);
        }
        earlier.add(head());
      }
      set(v);
    }

    private void set(RecordVersion<T> v) {
      value = v.value();
      version = v.removed() ? -v.version() : v.version();
      at = v.at();
    }

    /** The newest version, made on each call. */
    RecordVersion<T> head() {
      return new RecordVersion<>(value, Math.abs(version), at, version < 0);
    }

    /** The newest version's value. */
    T value() {
      return value;
    }

    /** The newest version's number. */
    int version() {
      return Math.abs(version);
    }

    RecordVersion<T> first() {
      return earlier == null ? head() : earlier.get(0);
    }

    /** Every version, oldest first. */
    List<RecordVersion<T>> versions() {
      if (earlier == null) {
        return List.of(head());
      }
      List<RecordVersion<T>> out = new ArrayList<>(earlier.size() + 1);
      out.addAll(earlier);
      out.add(head());
      return out;
    }

    /** Replaces every version with what {@code change} makes of it. */
    void replaceAll(java.util.function.UnaryOperator<RecordVersion<T>> change) {
      if (earlier != null) {
        earlier.replaceAll(change);
      }
      set(change.apply(head()));
    }

    boolean live() {
      return version > 0;
    }
  }

  /**
   * The live edges touching one node: an array while they are few (most nodes have a handful, and a
   * set per node cost more than the node's own record when a large graph is restored), a set once
   * they are many (a hub), so that adding stays cheap either way. Order is not kept.
   */
  static final class Incident {
    private static final int ARRAY_MAX = 16;
    private MemoryEdge.Key[] keys = new MemoryEdge.Key[4];
    private int size;
    private Set<MemoryEdge.Key> many; // once past ARRAY_MAX keys; keys is then unused

    void add(MemoryEdge.Key k) {
      if (many != null) {
        many.add(k);
        return;
      }
      for (int i = 0; i < size; i++) {
        if (keys[i].equals(k)) {
          return;
        }
      }
      if (size == ARRAY_MAX) {
        many = new HashSet<>(keys());
        many.add(k);
        keys = null;
        size = 0;
        return;
      }
      if (size == keys.length) {
        keys = java.util.Arrays.copyOf(keys, Math.min(ARRAY_MAX, size * 2));
      }
      keys[size++] = k;
    }

    void remove(MemoryEdge.Key k) {
      if (many != null) {
        many.remove(k);
        return;
      }
      for (int i = 0; i < size; i++) {
        if (keys[i].equals(k)) {
          System.arraycopy(keys, i + 1, keys, i, size - i - 1);
          keys[--size] = null;
          return;
        }
      }
    }

    boolean isEmpty() {
      return many != null ? many.isEmpty() : size == 0;
    }

    /** The keys, a view that is valid until the next change. */
    Collection<MemoryEdge.Key> keys() {
      return many != null ? many : java.util.Arrays.asList(keys).subList(0, size);
    }
  }

  /** The records of one namespace. */
  static final class Graph {
    final Map<String, Chain<MemoryNode>> nodes = new LinkedHashMap<>();
    final Map<MemoryEdge.Key, Chain<MemoryEdge>> edges = new LinkedHashMap<>();
    final Map<String, Incident> incident = new HashMap<>();
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
      for (Chain<MemoryNode> c : nodes.values()) {
        if (c.live()) {
          n++;
        }
      }
      return n;
    }

    /** The head version of every live node, by id. */
    Map<String, Integer> liveVersions() {
      Map<String, Integer> out = new HashMap<>();
      nodes.forEach(
          (id, c) -> {
            if (c.live()) {
              out.put(id, c.version());
            }
          });
      return out;
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
    Map<String, Chain<MemoryNode>> nodes = g.nodes;
    Chain<MemoryNode> c = nodes.computeIfAbsent(n.id(), k -> new Chain<>(nodes.size()));
    if (!c.isEmpty() && c.live()) {
      g.countPack(c.value(), -1);
    }
    c.add(new RecordVersion<>(n, version, at, false));
    g.countPack(n, 1);
  }

  void removeNode(Namespace ns, String id, int version, Instant at) {
    Graph g = graph(ns);
    Chain<MemoryNode> c = g.nodes.get(id);
    g.countPack(c.value(), -1);
    c.add(new RecordVersion<>(c.value(), version, at, true));
  }

  void putEdge(Namespace ns, MemoryEdge put, int version, Instant at) {
    Graph g = graph(ns);
    MemoryEdge e = canonical(g, put);
    MemoryEdge.Key k = e.key();
    g.edges
        .computeIfAbsent(k, x -> new Chain<>(g.edges.size()))
        .add(new RecordVersion<>(e, version, at, false));
    g.incident.computeIfAbsent(k.from(), x -> new Incident()).add(k);
    g.incident.computeIfAbsent(k.to(), x -> new Incident()).add(k);
    g.links = null;
  }

  /**
   * {@code e} with the ids its nodes hold and its type interned, so that a node's id is one string
   * however many edges name it (edges arrive with their own copies).
   */
  private static MemoryEdge canonical(Graph g, MemoryEdge e) {
    String from = nodeId(g, e.from());
    String to = nodeId(g, e.to());
    String type = e.edgeType().intern();
    return from == e.from() && to == e.to() && type == e.edgeType()
        ? e
        : new MemoryEdge(
            from, to, type, e.weight(), e.confidence(), e.bidirectional(), e.sourceRef());
  }

  private static String nodeId(Graph g, String id) {
    Chain<MemoryNode> c = g.nodes.get(id);
    return c == null ? id : c.value().id();
  }

  void removeEdge(Namespace ns, MemoryEdge.Key k, int version, Instant at) {
    Graph g = graph(ns);
    Chain<MemoryEdge> c = g.edges.get(k);
    c.add(new RecordVersion<>(c.value(), version, at, true));
    unlink(g, k.from(), k);
    unlink(g, k.to(), k);
    g.links = null;
  }

  private static void unlink(Graph g, String id, MemoryEdge.Key k) {
    Incident s = g.incident.get(id);
    if (s != null) {
      s.remove(k);
      if (s.isEmpty()) {
        g.incident.remove(id);
      }
    }
  }

  // ---------------------------------------------------------------- versions

  /** The live edges touching node {@code id} of {@code g}, in no order. */
  static Collection<MemoryEdge.Key> incident(Graph g, String id) {
    Incident s = g.incident.get(id);
    return s == null ? List.of() : s.keys();
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
    List<MemoryEdge> out = new ArrayList<>();
    for (MemoryEdge.Key k : keyOrder(incident(g, id))) {
      out.add(g.edges.get(k).value());
    }
    return out;
  }

  /** The live nodes of {@code ns}, in the order they were first put. */
  public List<MemoryNode> nodes(Namespace ns) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return List.of();
    }
    List<MemoryNode> out = new ArrayList<>(g.nodes.size());
    g.nodes
        .values()
        .forEach(
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
    if (after.isPresent() && !g.nodes.containsKey(after.get())) {
      return Optional.empty();
    }
    List<RecordVersion<MemoryNode>> out = new ArrayList<>(Math.min(limit, g.nodes.size()));
    boolean started = after.isEmpty();
    for (Map.Entry<String, Chain<MemoryNode>> e : g.nodes.entrySet()) {
      if (!started) {
        started = e.getKey().equals(after.get());
        continue;
      }
      if (e.getValue().live()) {
        if (out.size() == limit) {
          break;
        }
        out.add(e.getValue().head());
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
      for (Chain<MemoryNode> c : g.nodes.values()) {
        if (c.live()) {
          nodes++;
          nodeTypes.merge(c.value().type(), 1, Integer::sum);
        } else {
          removedNodes++;
        }
      }
      for (Chain<MemoryEdge> c : g.edges.values()) {
        if (c.live()) {
          edges++;
          edgeTypes.merge(c.value().edgeType(), 1, Integer::sum);
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
    return g == null ? 0 : (int) g.edges.values().stream().filter(Chain::live).count();
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
    for (Chain<MemoryEdge> c : g.edges.values()) {
      if (!c.live()) {
        continue;
      }
      MemoryEdge e = c.value();
      double w = e.weight() * e.confidence();
      out.computeIfAbsent(e.from(), k -> new ArrayList<>())
          .add(new GraphAlgorithms.Link(e.to(), e.edgeType(), w));
      if (e.bidirectional()) {
        out.computeIfAbsent(e.to(), k -> new ArrayList<>())
            .add(new GraphAlgorithms.Link(e.from(), e.edgeType(), w));
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
        g.nodes.forEach(
            (id, c) -> {
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

  private static final java.util.Comparator<MemoryEdge.Key> KEY_ORDER =
      java.util.Comparator.comparing(MemoryEdge.Key::from)
          .thenComparing(MemoryEdge.Key::edgeType)
          .thenComparing(MemoryEdge.Key::to);
}
