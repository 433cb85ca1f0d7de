package dev.loci.recall.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.StaleVersionException;
import dev.loci.StorageException;
import dev.loci.recall.GraphStats;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecordVersion;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SnapshotRecords;
import dev.loci.spi.SubjectMention;
import dev.loci.spi.SubjectRecords;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The memory-graph projection and the decisions of its commands.
 *
 * <p>Per namespace: every node and edge with all its versions (a removal is a version too, holding
 * the last value), the live edges touching each node, a Lucene index of live node text ({@link
 * TextIndex}) and the vectors of each embedding model in use ({@link VectorIndex}).
 *
 * <p>Indexes as projections. With a data directory the indexes live under {@code index/recall/},
 * each Lucene commit recording the engine's applied sequence (of every layer's batches, so writes
 * elsewhere, snapshots and compaction do not make an index look stale). Recovery rebuilds only the
 * graph, in memory; the indexes are left alone until {@link #recovered}, which reuses an index
 * whose recorded sequence is the applied one, catches up one that is behind (rewriting only the
 * documents of nodes whose version differs), and rebuilds one that is missing, unreadable or ahead
 * of the journal. The indexes commit at most every {@value #COMMIT_MILLIS} ms while writes arrive,
 * and on close; a crash loses at most the uncommitted part, which the next open catches up.
 *
 * <p>Text indexing is not part of apply, which runs with the engine's exclusive access: apply
 * changes the graph and notes the nodes whose text document now lags it ({@link TextBacklog}); the
 * documents are written with shared access by {@link #settle} (each writer, before its command
 * returns) and, first of all, by every text search, so a search always sees every applied change
 * while Lucene's analysis and indexing no longer hold readers off. Periodic commits run in {@link
 * #settle} too, recording the sequence through which the text index is complete.
 *
 * <p>Events (data fields):
 *
 * <ul>
 *   <li>{@code recall.node_put}: {@code version}, {@code node};
 *   <li>{@code recall.node_removed}: {@code version}, {@code id};
 *   <li>{@code recall.edge_put}: {@code version}, {@code edge};
 *   <li>{@code recall.edge_removed}: {@code version}, {@code from}, {@code edge_type}, {@code to}.
 * </ul>
 *
 * <p>Every event carries the version it creates, so applying checks it follows the record's current
 * version: a journal replayed with a batch skipped cannot silently reorder history.
 *
 * <p>Not thread-safe by itself: the engine serializes changes and guards reads (see {@link
 * dev.loci.spi.Layer}).
 */
public final class RecallLayer implements Layer, SubjectRecords {
  /** The layer's name and event-type prefix. */
  public static final String NAME = "recall";

  static final String NODE_PUT = "recall.node_put";
  static final String NODE_REMOVED = "recall.node_removed";
  static final String EDGE_PUT = "recall.edge_put";
  static final String EDGE_REMOVED = "recall.edge_removed";

  /** How often, at most, the indexes commit while writes arrive. */
  static final long COMMIT_MILLIS = 2_000;

  private final Map<Namespace, Graph> graphs = new HashMap<>();
  private TextIndex text = new TextIndex(Optional.empty());
  private VectorIndex vectors = new VectorIndex(Optional.empty());
  private Optional<Path> dataDir = Optional.empty();
  // the providers recall embeds with, by model id: erasure forgets their cached vectors
  private final Map<String, EmbeddingProvider> providers =
      new java.util.concurrent.ConcurrentHashMap<>();
  private boolean indexing; // false while recovering: the indexes are reconciled once, after
  private volatile boolean closed; // set under the engine's exclusive lock; read under its shared
  private volatile long appliedSeq;
  // nodes whose text document lags the graph: noted by apply, written by settle or a text search
  private final TextBacklog textBacklog = new TextBacklog();
  private volatile long indexedSeq; // the text index holds every change through it
  private final java.util.concurrent.locks.ReentrantLock committing =
      new java.util.concurrent.locks.ReentrantLock();
  private volatile long lastCommitNanos = System.nanoTime();
  private volatile long commitNanos = COMMIT_MILLIS * 1_000_000;
  private final java.util.concurrent.atomic.AtomicInteger rebuilds =
      new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.atomic.AtomicInteger catchUps =
      new java.util.concurrent.atomic.AtomicInteger();

  /** All versions of one record, oldest first. */
  private static final class Chain<T> {
    final List<RecordVersion<T>> versions = new ArrayList<>(1);
    final int ordinal; // how many records of its kind the namespace held before this one

    Chain(int ordinal) {
      this.ordinal = ordinal;
    }

    RecordVersion<T> head() {
      return versions.get(versions.size() - 1);
    }

    boolean live() {
      return !head().removed();
    }
  }

  /** The records of one namespace. */
  private static final class Graph {
    final Map<String, Chain<MemoryNode>> nodes = new LinkedHashMap<>();
    final Map<MemoryEdge.Key, Chain<MemoryEdge>> edges = new LinkedHashMap<>();
    final Map<String, Set<MemoryEdge.Key>> incident = new HashMap<>();
    volatile GraphAlgorithms.Links links; // built on first recall, dropped when an edge changes
    volatile Set<String> packs; // built on first recall, dropped when a node changes

    /** The head version of every live node, by id. */
    Map<String, Integer> liveVersions() {
      Map<String, Integer> out = new HashMap<>();
      nodes.forEach(
          (id, c) -> {
            if (c.live()) {
              out.put(id, c.head().version());
            }
          });
      return out;
    }
  }

  private record NodePut(MemoryNode node, int version) {}

  private record NodeRemoved(String id, int version) {}

  private record EdgePut(MemoryEdge edge, int version) {}

  private record EdgeRemoved(MemoryEdge.Key key, int version) {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int snapshotVersion() {
    return 1;
  }

  // ---------------------------------------------------------------- decisions

  /**
   * Which records of a file an ingest holds in full, so that records an earlier ingest of the same
   * file made and this one lacks are removed.
   *
   * @param path the file, as recorded in the records' {@code source_ref}
   * @param nodeIds every node id the file now holds
   * @param edgeKeys every edge key the file now holds
   */
  public record Sync(String path, Set<String> nodeIds, Set<MemoryEdge.Key> edgeKeys) {}

  /**
   * What a write decided.
   *
   * @param written how many nodes and edges were new or changed
   * @param removed how many nodes and edges were removed
   * @param nodes the resulting version of every node put or removed, by id
   * @param edges the resulting version of every edge put or removed, by key
   */
  public record Written(
      int written,
      int removed,
      Map<String, RecordVersion<MemoryNode>> nodes,
      Map<MemoryEdge.Key, RecordVersion<MemoryEdge>> edges) {}

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
  public Decision<Written> decideWrite(
      Namespace ns,
      Instant now,
      List<MemoryNode> nodes,
      List<MemoryEdge> edges,
      List<String> removeNodes,
      List<MemoryEdge.Key> removeEdges,
      Optional<Sync> sync) {
    Graph g = graphs.get(ns);
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
      events.add(nodePut(n, version));
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
      events.add(edgePut(e, version));
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
      g.nodes.forEach(
          (id, c) -> {
            if (c.live()
                && fromFile(c.head().value().sourceRef(), s.path())
                && !s.nodeIds().contains(id)) {
              nodesGone.add(id);
            }
          });
      g.edges.forEach(
          (k, c) -> {
            if (c.live()
                && fromFile(c.head().value().sourceRef(), s.path())
                && !s.edgeKeys().contains(k)) {
              edgesGone.add(k);
            }
          });
    }
    if (g != null) {
      for (String id : nodesGone) {
        for (MemoryEdge.Key k : keyOrder(g.incident.getOrDefault(id, Set.of()))) {
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
        events.add(edgeRemoved(k, version));
        edgeOut.put(k, new RecordVersion<>(c.head().value(), version, now, true));
        removed++;
      }
      for (String id : nodesGone) {
        Chain<MemoryNode> c = g.nodes.get(id);
        int version = c.head().version() + 1;
        keys.add("n:" + id);
        events.add(nodeRemoved(id, version));
        nodeOut.put(id, new RecordVersion<>(c.head().value(), version, now, true));
        removed++;
      }
    }
    return new Decision<>(events, keys, new Written(written, removed, nodeOut, edgeOut));
  }

  private static Collection<MemoryEdge.Key> keyOrder(Set<MemoryEdge.Key> keys) {
    List<MemoryEdge.Key> out = new ArrayList<>(keys);
    out.sort(KEY_ORDER);
    return out;
  }

  private static final java.util.Comparator<MemoryEdge.Key> KEY_ORDER =
      java.util.Comparator.comparing(MemoryEdge.Key::from)
          .thenComparing(MemoryEdge.Key::edgeType)
          .thenComparing(MemoryEdge.Key::to);

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

  private static Event nodePut(MemoryNode n, int version) {
    return Event.ofJson(
        NODE_PUT,
        "{\"version\":" + version + ",\"node\":" + RecallJson.write(n) + "}",
        new NodePut(n, version));
  }

  private static Event edgePut(MemoryEdge e, int version) {
    return Event.ofJson(
        EDGE_PUT,
        "{\"version\":" + version + ",\"edge\":" + RecallJson.write(e) + "}",
        new EdgePut(e, version));
  }

  private static Event nodeRemoved(String id, int version) {
    ObjectNode data = RecallJson.MAPPER.createObjectNode();
    data.put("version", version).put("id", id);
    return Event.ofJson(NODE_REMOVED, data.toString(), new NodeRemoved(id, version));
  }

  private static Event edgeRemoved(MemoryEdge.Key k, int version) {
    ObjectNode data = RecallJson.MAPPER.createObjectNode();
    data.put("version", version)
        .put("from", k.from())
        .put("edge_type", k.edgeType())
        .put("to", k.to());
    return Event.ofJson(EDGE_REMOVED, data.toString(), new EdgeRemoved(k, version));
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
        c == null ? "none" : c.live() ? Integer.toString(c.head().version()) : "none (removed)";
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
    return c != null && c.live() ? Optional.of(c.head().value()) : Optional.empty();
  }

  /** When node {@code id} was first put, if {@code ns} ever held it. */
  public Optional<Instant> firstPut(Namespace ns, String id) {
    Graph g = graphs.get(ns);
    Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
    return c == null ? Optional.empty() : Optional.of(c.versions.get(0).at());
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
    List<RecordVersion<T>> out = new ArrayList<>(c.versions);
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
    for (MemoryEdge.Key k : keyOrder(g.incident.getOrDefault(id, Set.of()))) {
      out.add(g.edges.get(k).head().value());
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
                out.add(c.head().value());
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
          nodeTypes.merge(c.head().value().type(), 1, Integer::sum);
        } else {
          removedNodes++;
        }
      }
      for (Chain<MemoryEdge> c : g.edges.values()) {
        if (c.live()) {
          edges++;
          edgeTypes.merge(c.head().value().edgeType(), 1, Integer::sum);
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
      MemoryEdge e = c.head().value();
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
   * node without one), kept until a node changes.
   */
  public Set<String> packs(Namespace ns) {
    Graph g = graphs.get(ns);
    if (g == null) {
      return Set.of();
    }
    Set<String> cached = g.packs;
    if (cached == null) {
      Set<String> out = new HashSet<>();
      g.nodes.forEach(
          (id, c) -> {
            if (c.live()) {
              out.add(c.head().value().attributes().getOrDefault("pack", ""));
            }
          });
      cached = Set.copyOf(out);
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

  /** The BM25 matches of {@code query} in {@code ns}. */
  List<TextIndex.Hit> searchText(Namespace ns, String query, int k) {
    checkOpen();
    repairIndexes();
    if (indexing) {
      indexText(); // a search between an apply and its settle sees the applied state
    }
    return text.search(ns, query, k);
  }

  /**
   * The {@code k} nodes of {@code ns} whose {@code modelId} vectors are most similar to {@code
   * query} (a unit vector), with a positive cosine, best first; none if the model is not in use.
   */
  List<VectorIndex.Hit> searchVectors(String modelId, Namespace ns, float[] query, int k) {
    checkOpen();
    repairIndexes();
    return vectors.model(modelId).map(m -> vectors.search(m, ns, query, k)).orElse(List.of());
  }

  // ---------------------------------------------------------------- vectors

  /** A live node whose vector a model lacks, with the subjects its content names. */
  public record Missing(String id, int version, String content, List<String> subjectIds) {}

  /**
   * Starts using the vectors of {@code provider}'s model: opens its persisted indexes and brings
   * them in step with the graph (as {@link #recovered} does for text). Idempotent. Call with shared
   * access.
   */
  public void useModel(EmbeddingProvider provider) {
    checkOpen();
    providers.put(provider.modelId(), provider);
    vectors.model(
        provider,
        m -> {
          if (indexing) {
            reconcileVectors(m, appliedSeq);
            m.shards.commit(appliedSeq, true);
          }
        });
  }

  /**
   * Up to {@code max} live nodes of {@code ns} whose vector {@code provider}'s model lacks. Call
   * with shared access, then embed without it and hand the vectors to {@link #addVectors}.
   */
  public List<Missing> missingVectors(EmbeddingProvider provider, Namespace ns, int max) {
    if (closed) {
      return List.of(); // the next open finds what is missing
    }
    Optional<VectorIndex.Model> m = vectors.model(provider.modelId());
    Graph g = graphs.get(ns);
    if (m.isEmpty() || g == null) {
      return List.of();
    }
    List<Missing> out = new ArrayList<>();
    for (Map.Entry<String, Integer> p : m.get().pending(ns).entrySet()) {
      if (out.size() >= max) {
        break;
      }
      Chain<MemoryNode> c = g.nodes.get(p.getKey());
      if (c != null && c.live() && c.head().version() == p.getValue()) {
        MemoryNode n = c.head().value();
        out.add(new Missing(p.getKey(), p.getValue(), n.content(), n.subjectIds()));
      }
    }
    return out;
  }

  /**
   * Stores vectors computed for {@link #missingVectors}, skipping nodes that changed meanwhile, or
   * all of them if the layer closed meanwhile. Call with shared access.
   *
   * @throws IllegalStateException if the counts or dimensions do not match
   */
  public void addVectors(
      EmbeddingProvider provider, Namespace ns, List<Missing> nodes, List<float[]> computed) {
    if (computed.size() != nodes.size()) {
      throw new IllegalStateException(
          "embedding provider "
              + provider.modelId()
              + " returned "
              + computed.size()
              + " vectors for "
              + nodes.size()
              + " texts");
    }
    if (closed) {
      // see checkOpen; dropped, the next open finds these nodes missing again
      return;
    }
    VectorIndex.Model m = vectors.model(provider.modelId()).orElseThrow();
    Graph g = graphs.get(ns);
    for (int i = 0; i < nodes.size(); i++) {
      Missing n = nodes.get(i);
      Chain<MemoryNode> c = g == null ? null : g.nodes.get(n.id());
      if (c != null && c.live() && c.head().version() == n.version()) {
        VectorIndex.add(m, ns, n.id(), n.version(), VectorIndex.checked(provider, computed.get(i)));
      }
    }
  }

  /**
   * Refuses searches once {@link #close} ran (vectors arriving then are dropped, see {@link
   * #addVectors}). Callers hold the engine's shared lock and close holds its exclusive one, so
   * nothing passes this check and then meets closed indexes; without it vectors computed while the
   * instance closed would open a shard again (an index writer holding the directory's lock that
   * nothing closes, so the directory could not be opened again in this process) and a recall would
   * answer from emptied indexes.
   *
   * @throws StorageException if the layer is closed
   */
  private void checkOpen() {
    if (closed) {
      throw new StorageException("this Loci instance is closed");
    }
  }

  /**
   * Returns {@code v}, a vector {@code provider} computed, after checking its dimension.
   *
   * @throws IllegalStateException if it has the wrong number of dimensions
   */
  public static float[] checked(EmbeddingProvider provider, float[] v) {
    return VectorIndex.checked(provider, v);
  }

  /** Every vector document {@code modelId} holds for {@code ns}. Call with shared access. */
  List<VectorIndex.Stored> storedVectors(String modelId, Namespace ns) {
    return vectors.model(modelId).map(m -> vectors.stored(m, ns)).orElse(List.of());
  }

  /** Sets how often, at most, the indexes commit while writes arrive (tests commit often). */
  void commitEvery(long millis) {
    commitNanos = millis * 1_000_000;
  }

  /** Sets the namespace size from which vector search uses HNSW rather than an exact scan. */
  void exactBelow(int n) {
    vectors.exactBelow(n);
  }

  /** How many indexes recovery or a model's first use rebuilt since this layer was made. */
  int rebuilds() {
    return rebuilds.get();
  }

  /** How many indexes recovery or a model's first use caught up since this layer was made. */
  int catchUps() {
    return catchUps.get();
  }

  // ---------------------------------------------------------------- index lifecycle

  @Override
  public void attach(Path dataDir) {
    this.dataDir = Optional.of(dataDir);
    Path root = dataDir.resolve("index").resolve(NAME);
    text = new TextIndex(Optional.of(root.resolve("text")));
    vectors = new VectorIndex(Optional.of(root.resolve("vectors")));
  }

  @Override
  public void recovered(long seq) {
    appliedSeq = seq;
    ShardSet shards = text.shards();
    shards.retainOnly(graphs.keySet());
    graphs.keySet().forEach(ns -> reconcileText(ns, seq));
    for (VectorIndex.Model m : vectors.models()) {
      reconcileVectors(m, seq);
    }
    indexedSeq = seq;
    indexing = true;
    shards.commit(seq, true);
    vectors.commit(seq, true);
    lastCommitNanos = System.nanoTime();
  }

  /** Brings the text shard of {@code ns} in step with its graph at {@code seq}. */
  private void reconcileText(Namespace ns, long seq) {
    Graph g = graphs.get(ns);
    Map<String, Integer> live = g == null ? Map.of() : g.liveVersions();
    count(
        text.shards()
            .reconcile(
                ns,
                seq,
                live,
                true,
                (id, v) -> text.put(ns, id, v, g.nodes.get(id).head().value().content())));
  }

  private void reconcileVectors(VectorIndex.Model m, long seq) {
    m.shards.retainOnly(graphs.keySet());
    graphs.forEach(
        (ns, g) ->
            count(
                m.shards.reconcile(
                    ns, seq, g.liveVersions(), false, (id, v) -> m.pending(ns).put(id, v))));
  }

  private void count(ShardSet.Outcome o) {
    switch (o) {
      case REBUILT -> rebuilds.incrementAndGet();
      case CAUGHT_UP -> catchUps.incrementAndGet();
      case REUSED -> {}
    }
  }

  /**
   * Reopens the index shards a storage failure closed (a full disk: Lucene closes its writer when a
   * flush fails) and writes again the documents that differ from the graph, then commits them; a
   * shard that cannot be reopened yet is tried again by the next search or write, at most every
   * {@value #REPAIR_MILLIS} ms. Runs with shared or exclusive access; the graph does not change
   * meanwhile, and searches of a shard wait while it is reopened.
   */
  private void repairIndexes() {
    repairIndexes(false);
  }

  /** Tries the repair now, however recently the last attempt failed: writes were resumed. */
  @Override
  public void resumed() {
    repairIndexes(true);
  }

  private void repairIndexes(boolean anyway) {
    if (!indexing || !(text.shards().anyBroken() || vectors.anyBroken())) {
      return;
    }
    synchronized (repairLock) {
      long now = System.nanoTime();
      if (!anyway && now - repairTriedNanos < REPAIR_MILLIS * 1_000_000) {
        return;
      }
      repairTriedNanos = now;
      indexText(); // the commit below records appliedSeq: no document may lag it
      long seq = appliedSeq;
      ShardSet shards = text.shards();
      for (Namespace ns : shards.reopenBroken()) {
        reconcileText(ns, seq);
      }
      shards.commit(seq, false);
      for (VectorIndex.Model m : vectors.models()) {
        if (!m.shards.reopenBroken().isEmpty()) {
          reconcileVectors(m, seq);
          m.shards.commit(seq, false);
        }
      }
    }
  }

  private static final long REPAIR_MILLIS = 100;
  private final Object repairLock = new Object();
  private long repairTriedNanos; // guarded by repairLock

  @Override
  public void applied(long seq) {
    appliedSeq = seq;
    repairIndexes();
  }

  /**
   * Writes the text documents of the nodes the last applies changed, then, at most every {@value
   * #COMMIT_MILLIS} ms, commits the indexes: both with shared access, so readers are not held off
   * (see {@link TextBacklog}). One thread commits at a time; the others go on.
   */
  @Override
  public void settle() {
    if (!indexing || closed) {
      return;
    }
    indexText();
    if (System.nanoTime() - lastCommitNanos >= commitNanos && committing.tryLock()) {
      try {
        if (System.nanoTime() - lastCommitNanos >= commitNanos) {
          lastCommitNanos = System.nanoTime();
          long seq = indexedSeq; // vectors: every change through appliedSeq is made by apply
          text.shards().commit(seq, false);
          vectors.commit(seq, false);
        }
      } finally {
        committing.unlock();
      }
    }
  }

  /**
   * Brings the text index in step with the graph: every change applied so far is indexed when this
   * returns. Runs with shared access (or on the combiner's thread while it decides); the graph and
   * {@link #appliedSeq} do not change meanwhile.
   */
  private void indexText() {
    long seq = appliedSeq;
    textBacklog.drain(this::indexNode);
    indexedSeq = Math.max(indexedSeq, seq);
  }

  /** Writes node {@code id}'s text document as the graph holds it: its head, or none if removed. */
  private void indexNode(Namespace ns, String id) {
    Graph g = graphs.get(ns);
    Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
    if (c != null && c.live()) {
      text.put(ns, id, c.head().version(), c.head().value().content());
    } else {
      text.remove(ns, id);
    }
  }

  @Override
  public void close(long seq) {
    try {
      if (seq >= 0 && indexing) {
        indexText();
        text.shards().commit(seq, true);
        vectors.commit(seq, true);
      }
    } finally {
      indexing = false;
      closed = true;
      try {
        text.shards().close();
      } finally {
        vectors.close();
      }
    }
  }

  // ---------------------------------------------------------------- projection

  @Override
  public Runnable prepare(JournalEntry entry, List<Event> events) {
    Namespace ns = entry.namespace();
    Instant at = entry.ts();
    Graph g = graphs.get(ns);
    Map<String, Integer> nodeVersion = new HashMap<>();
    Map<String, Boolean> nodeLive = new HashMap<>();
    Map<MemoryEdge.Key, Integer> edgeVersion = new HashMap<>();
    Map<MemoryEdge.Key, Boolean> edgeLive = new HashMap<>();
    List<Runnable> steps = new ArrayList<>(events.size());
    for (Event e : events) {
      switch (e.type()) {
        case NODE_PUT -> {
          NodePut p = e.decoded().map(NodePut.class::cast).orElseGet(() -> readNodePut(e.data()));
          String id = p.node().id();
          follows(p.version(), nodeVersion.getOrDefault(id, headVersion(g, id)), "node " + id);
          nodeVersion.put(id, p.version());
          nodeLive.put(id, true);
          steps.add(() -> putNode(ns, p.node(), p.version(), at));
        }
        case NODE_REMOVED -> {
          NodeRemoved r =
              e.decoded()
                  .map(NodeRemoved.class::cast)
                  .orElseGet(() -> new NodeRemoved(text(e.data(), "id"), version(e.data())));
          String id = r.id();
          follows(r.version(), nodeVersion.getOrDefault(id, headVersion(g, id)), "node " + id);
          if (!nodeLive.getOrDefault(id, g != null && liveNode(g, id))) {
            throw new IllegalStateException("node " + id + " is not live in " + ns);
          }
          nodeVersion.put(id, r.version());
          nodeLive.put(id, false);
          steps.add(() -> removeNode(ns, id, r.version(), at));
        }
        case EDGE_PUT -> {
          EdgePut p = e.decoded().map(EdgePut.class::cast).orElseGet(() -> readEdgePut(e.data()));
          MemoryEdge.Key k = p.edge().key();
          follows(p.version(), edgeVersion.getOrDefault(k, headVersion(g, k)), "edge " + k);
          for (String end : List.of(k.from(), k.to())) {
            if (!nodeLive.getOrDefault(end, g != null && liveNode(g, end))) {
              throw new IllegalStateException("edge " + k + " joins " + end + ", not live");
            }
          }
          edgeVersion.put(k, p.version());
          edgeLive.put(k, true);
          steps.add(() -> putEdge(ns, p.edge(), p.version(), at));
        }
        case EDGE_REMOVED -> {
          EdgeRemoved r =
              e.decoded().map(EdgeRemoved.class::cast).orElseGet(() -> readEdgeRemoved(e.data()));
          MemoryEdge.Key k = r.key();
          follows(r.version(), edgeVersion.getOrDefault(k, headVersion(g, k)), "edge " + k);
          if (!edgeLive.getOrDefault(
              k, g != null && g.edges.containsKey(k) && g.edges.get(k).live())) {
            throw new IllegalStateException("edge " + k + " is not live in " + ns);
          }
          edgeVersion.put(k, r.version());
          edgeLive.put(k, false);
          steps.add(() -> removeEdge(ns, k, r.version(), at));
        }
        default -> throw new IllegalStateException("unknown event type '" + e.type() + "'");
      }
    }
    // a node removed by this batch must not keep live edges
    nodeLive.forEach(
        (id, live) -> {
          if (!live && g != null) {
            for (MemoryEdge.Key k : g.incident.getOrDefault(id, Set.of())) {
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

  private static int headVersion(Graph g, String id) {
    Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
    return c == null ? 0 : c.head().version();
  }

  private static int headVersion(Graph g, MemoryEdge.Key k) {
    Chain<MemoryEdge> c = g == null ? null : g.edges.get(k);
    return c == null ? 0 : c.head().version();
  }

  private static boolean liveNode(Graph g, String id) {
    Chain<MemoryNode> c = g.nodes.get(id);
    return c != null && c.live();
  }

  private Graph graph(Namespace ns) {
    return graphs.computeIfAbsent(ns, k -> new Graph());
  }

  private void putNode(Namespace ns, MemoryNode n, int version, Instant at) {
    Map<String, Chain<MemoryNode>> nodes = graph(ns).nodes;
    nodes
        .computeIfAbsent(n.id(), k -> new Chain<>(nodes.size()))
        .versions
        .add(new RecordVersion<>(n, version, at, false));
    graph(ns).packs = null;
    if (indexing) {
      textBacklog.note(ns, n.id());
      vectors.changed(ns, n.id(), version);
    }
  }

  private void removeNode(Namespace ns, String id, int version, Instant at) {
    Chain<MemoryNode> c = graph(ns).nodes.get(id);
    c.versions.add(new RecordVersion<>(c.head().value(), version, at, true));
    graph(ns).packs = null;
    if (indexing) {
      textBacklog.note(ns, id);
      vectors.removed(ns, id);
    }
  }

  private void putEdge(Namespace ns, MemoryEdge e, int version, Instant at) {
    Graph g = graph(ns);
    MemoryEdge.Key k = e.key();
    g.edges
        .computeIfAbsent(k, x -> new Chain<>(g.edges.size()))
        .versions
        .add(new RecordVersion<>(e, version, at, false));
    g.incident.computeIfAbsent(k.from(), x -> new HashSet<>()).add(k);
    g.incident.computeIfAbsent(k.to(), x -> new HashSet<>()).add(k);
    g.links = null;
  }

  private void removeEdge(Namespace ns, MemoryEdge.Key k, int version, Instant at) {
    Graph g = graph(ns);
    Chain<MemoryEdge> c = g.edges.get(k);
    c.versions.add(new RecordVersion<>(c.head().value(), version, at, true));
    unlink(g, k.from(), k);
    unlink(g, k.to(), k);
    g.links = null;
  }

  private static void unlink(Graph g, String id, MemoryEdge.Key k) {
    Set<MemoryEdge.Key> s = g.incident.get(id);
    if (s != null) {
      s.remove(k);
      if (s.isEmpty()) {
        g.incident.remove(id);
      }
    }
  }

  private static NodePut readNodePut(JsonNode data) {
    return new NodePut(read(data.path("node"), MemoryNode.class), version(data));
  }

  private static EdgePut readEdgePut(JsonNode data) {
    return new EdgePut(read(data.path("edge"), MemoryEdge.class), version(data));
  }

  private static EdgeRemoved readEdgeRemoved(JsonNode data) {
    return new EdgeRemoved(
        new MemoryEdge.Key(text(data, "from"), text(data, "edge_type"), text(data, "to")),
        version(data));
  }

  private static <T> T read(JsonNode node, Class<T> type) {
    try {
      return RecallJson.read(node, type, type.getSimpleName());
    } catch (InvalidRequestException e) {
      throw new IllegalStateException(
          "unreadable " + type.getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  private static int version(JsonNode data) {
    JsonNode v = data.get("version");
    if (v == null || !v.canConvertToInt() || v.asInt() < 1) {
      throw new IllegalStateException("event lacks a positive 'version'");
    }
    return v.asInt();
  }

  private static String text(JsonNode data, String field) {
    JsonNode n = data.get(field);
    if (n == null || !n.isTextual()) {
      throw new IllegalStateException("event lacks '" + field + "'");
    }
    return n.asText();
  }

  // ---------------------------------------------------------------- subjects

  @Override
  public List<SubjectMention> mentions(JournalEntry entry, Event e) {
    return switch (e.type()) {
      case NODE_PUT -> {
        NodePut p = e.decoded().map(NodePut.class::cast).orElseGet(() -> readNodePut(e.data()));
        yield List.of(RecallErasure.mention(p.node(), p.version()));
      }
      case NODE_REMOVED -> List.of(SubjectMention.touch(RecallErasure.KIND, text(e.data(), "id")));
      default -> List.of();
    };
  }

  @Override
  public Event scrub(JournalEntry entry, Event e, Set<String> recordKeys) {
    return e.type().equals(NODE_PUT)
        ? RecallErasure.scrub(entry, e, readNodePut(e.data()).node(), recordKeys)
        : e;
  }

  /**
   * Erases the nodes' content in every version, re-indexes the live ones with the erased text,
   * merges away the deleted index documents that held the old text and vectors, and commits the
   * indexes, so that no index file keeps them.
   */
  @Override
  public void erase(Set<String> recordKeys) {
    if (indexing) {
      indexText(); // documents noted before the erasure are written now, and erased below
    }
    Set<Namespace> touched = new HashSet<>();
    List<MemoryNode> erasing = new ArrayList<>();
    for (String key : recordKeys) {
      int slash = key.indexOf('/');
      Namespace ns = Namespace.of(key.substring(0, slash));
      String id = key.substring(slash + 1);
      Graph g = graphs.get(ns);
      Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
      if (c == null) {
        continue;
      }
      c.versions.forEach(v -> erasing.add(v.value()));
      c.versions.replaceAll(
          v ->
              new RecordVersion<>(
                  RecallErasure.erased(v.value()), v.version(), v.at(), v.removed()));
      g.packs = null;
      touched.add(ns);
      if (indexing && c.live()) {
        text.put(ns, id, c.head().version(), RecallErasure.ERASED_CONTENT);
        vectors.changed(ns, id, c.head().version());
      }
    }
    if (indexing && !touched.isEmpty()) {
      touched.forEach(
          ns -> {
            text.shards().find(ns).ifPresent(IndexShard::expungeAllDeletes);
            vectors.expungeAllDeletes(ns);
          });
      text.shards().commit(appliedSeq, false);
      vectors.commit(appliedSeq, false);
    }
    RecallErasure.forgetVectors(dataDir, providers.values(), erasing);
  }

  // ---------------------------------------------------------------- snapshots

  @Override
  public Iterable<String> capture() {
    List<Object[]> records = new ArrayList<>();
    graphs.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              Graph g = e.getValue();
              g.nodes
                  .values()
                  .forEach(c -> c.versions.forEach(v -> records.add(new Object[] {e.getKey(), v})));
              g.edges
                  .values()
                  .forEach(c -> c.versions.forEach(v -> records.add(new Object[] {e.getKey(), v})));
            });
    return () ->
        records.stream()
            .map(
                r -> {
                  RecordVersion<?> v = (RecordVersion<?>) r[1];
                  ObjectNode node = RecallJson.MAPPER.createObjectNode();
                  node.put("ns", r[0].toString());
                  node.put("version", v.version());
                  node.put("at", v.at().toString());
                  node.put("removed", v.removed());
                  node.set(
                      v.value() instanceof MemoryNode ? "node" : "edge",
                      RecallJson.tree(v.value()));
                  return node.toString();
                })
            .iterator();
  }

  @Override
  public void restore(String record, int version) {
    JsonNode node = SnapshotRecords.read(RecallJson.MAPPER, NAME, record, version, 1);
    try {
      Namespace ns = Namespace.of(node.path("ns").asText());
      int v = version(node);
      Instant at = Instant.parse(node.path("at").asText());
      boolean removed = node.path("removed").asBoolean();
      if (node.has("node")) {
        MemoryNode n = read(node.get("node"), MemoryNode.class);
        if (removed) {
          removeNode(ns, n.id(), v, at);
        } else {
          putNode(ns, n, v, at);
        }
      } else {
        MemoryEdge e = read(node.get("edge"), MemoryEdge.class);
        if (removed) {
          removeEdge(ns, e.key(), v, at);
        } else {
          putEdge(ns, e, v, at);
        }
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unreadable recall record: " + e.getMessage(), e);
    }
  }

  /**
   * Forgets the graph. Called only during recovery, so the indexes are left for {@link #recovered}
   * to reconcile.
   */
  @Override
  public void clear() {
    graphs.clear();
    textBacklog.clear();
  }
}
