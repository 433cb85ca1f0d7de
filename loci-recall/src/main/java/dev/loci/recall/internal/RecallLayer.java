package dev.loci.recall.internal;

import dev.loci.Namespace;
import dev.loci.recall.GraphStats;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecordVersion;
import dev.loci.recall.internal.RecallGraph.Graph;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.spi.Decision;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SubjectMention;
import dev.loci.spi.SubjectRecords;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The memory-graph layer: the engine's view of recall (decisions, apply, snapshots, subjects and
 * the lifecycle hooks) over the graph ({@link RecallGraph}) and its indexes ({@link
 * RecallIndexes}).
 *
 * <p>The work is split by responsibility: {@link RecallDecisions} decides writes, {@link
 * RecallEvents} encodes and decodes the events, {@link RecallApply} checks and applies a batch,
 * {@link RecallGraph} holds the records and answers queries over them, {@link RecallIndexes} keeps
 * the Lucene text and vector indexes in step (text is indexed after the exclusive apply, see {@link
 * TextBacklog}), and {@link RecallSnapshots} captures and restores the graph.
 *
 * <p>Not thread-safe by itself: the engine serializes changes and guards reads (see {@link
 * dev.loci.spi.Layer}).
 */
public final class RecallLayer implements Layer, SubjectRecords {
  /** The layer's name and event-type prefix. */
  public static final String NAME = "recall";

  private final RecallGraph graph = new RecallGraph();
  private final RecallIndexes indexes = new RecallIndexes(graph);

  /** Applies checked changes to the graph and tells the indexes. */
  private final RecallApply.Target target =
      new RecallApply.Target() {
        @Override
        public void putNode(Namespace ns, MemoryNode n, int version, Instant at) {
          graph.putNode(ns, n, version, at);
          indexes.nodePut(ns, n.id(), version);
        }

        @Override
        public void removeNode(Namespace ns, String id, int version, Instant at) {
          graph.removeNode(ns, id, version, at);
          indexes.nodeRemoved(ns, id);
        }

        @Override
        public void putEdge(Namespace ns, MemoryEdge e, int version, Instant at) {
          graph.putEdge(ns, e, version, at);
        }

        @Override
        public void putEdge(
            Namespace ns, MemoryEdge e, int version, Instant at, int fromNode, int toNode) {
          graph.putEdge(ns, e, version, at, fromNode, toNode);
        }

        @Override
        public void removeEdge(Namespace ns, MemoryEdge.Key k, int version, Instant at) {
          graph.removeEdge(ns, k, version, at);
        }

        @Override
        public void reserve(Namespace ns, int nodes, int edges) {
          graph.reserve(ns, nodes, edges);
        }

        @Override
        public String nodeId(Namespace ns, int ordinal) {
          return graph.nodeId(ns, ordinal);
        }
      };

  private final RecallSnapshots snapshots = new RecallSnapshots(target);

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public int snapshotVersion() {
    return RecallSnapshots.VERSION;
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
    return RecallDecisions.decideWrite(
        graph, ns, now, nodes, edges, removeNodes, removeEdges, sync);
  }

  // ---------------------------------------------------------------- queries

  /**
   * Checks that node {@code id} is live at {@code expected}. Called inside a command's decision, so
   * the check and the write it guards see the same state.
   *
   * @throws StaleVersionException naming {@code id} if it is at another version, removed or absent
   */
  public void expectNode(Namespace ns, String id, int expected) {
    graph.expectNode(ns, id, expected);
  }

  /**
   * Checks that edge {@code key} is live at {@code expected}; see {@link #expectNode}.
   *
   * @throws StaleVersionException naming {@code edge} if it is at another version, removed or
   *     absent
   */
  public void expectEdge(Namespace ns, MemoryEdge.Key key, int expected) {
    graph.expectEdge(ns, key, expected);
  }

  /** The live node {@code id}. */
  public Optional<MemoryNode> node(Namespace ns, String id) {
    return graph.node(ns, id);
  }

  /** When node {@code id} was first put, if {@code ns} ever held it. */
  public Optional<Instant> firstPut(Namespace ns, String id) {
    return graph.firstPut(ns, id);
  }

  /** Every namespace that holds records, sorted. */
  public List<Namespace> namespaces() {
    return graph.namespaces();
  }

  /**
   * Every version of node {@code id}, newest first, including its removals.
   *
   * @throws NotFoundException naming {@code id} if the namespace never held it
   */
  public List<RecordVersion<MemoryNode>> nodeHistory(Namespace ns, String id) {
    return graph.nodeHistory(ns, id);
  }

  /**
   * Every version of edge {@code key}, newest first, including its removals.
   *
   * @throws NotFoundException naming {@code edge} if the namespace never held it
   */
  public List<RecordVersion<MemoryEdge>> edgeHistory(Namespace ns, MemoryEdge.Key key) {
    return graph.edgeHistory(ns, key);
  }

  /** The live edges that start or end at node {@code id}, ordered by key. */
  public List<MemoryEdge> edgesOf(Namespace ns, String id) {
    return graph.edgesOf(ns, id);
  }

  /** The live nodes of {@code ns}, in the order they were first put. */
  public List<MemoryNode> nodes(Namespace ns) {
    return graph.nodes(ns);
  }

  /**
   * The live versions of the nodes of {@code ns} first put after node {@code after} (from the first
   * when empty), in the order they were first put, at most {@code limit}.
   *
   * @return empty when {@code after} names no node {@code ns} ever held
   */
  public Optional<List<RecordVersion<MemoryNode>>> nodesAfter(
      Namespace ns, Optional<String> after, int limit) {
    return graph.nodesAfter(ns, after, limit);
  }

  /** How many live nodes and edges {@code ns} holds, in total and by type (sorted by type). */
  public GraphStats stats(Namespace ns) {
    return graph.stats(ns);
  }

  /** How many live edges {@code ns} holds. */
  public int edgeCount(Namespace ns) {
    return graph.edgeCount(ns);
  }

  /**
   * The live edges of {@code ns} as links recall may follow: each edge from {@code from} to {@code
   * to}, and back when it is bidirectional, weighted by {@code weight * confidence}; ordered by
   * target, then edge type.
   */
  GraphAlgorithms.Links links(Namespace ns) {
    return graph.links(ns);
  }

  /**
   * The distinct {@code pack} attributes of the live nodes of {@code ns} (the empty string for a
   * node without one), kept until a node changes.
   */
  public Set<String> packs(Namespace ns) {
    return graph.packs(ns);
  }

  /**
   * The live nodes among {@code ids}, each once, in the order they were first put (that of {@link
   * #nodes}). Costs the size of {@code ids}, not of the namespace.
   */
  List<String> inPutOrder(Namespace ns, Collection<String> ids) {
    return graph.inPutOrder(ns, ids);
  }

  // ---------------------------------------------------------------- indexes and vectors

  /**
   * A live node whose vector a model lacks: the text its vector is made from (its content, then its
   * {@link dev.loci.recall.MemoryNode#INDEX_CONTEXT context}), with the subjects its content names.
   */
  public record Missing(String id, int version, String text, List<String> subjectIds) {}

  /** The BM25 matches of {@code query} in {@code ns}. */
  List<TextIndex.Hit> searchText(
      Namespace ns, String query, int k, double contextWeight, double lengthNorm) {
    return indexes.searchText(ns, query, k, contextWeight, lengthNorm);
  }

  /**
   * The {@code k} nodes of {@code ns} whose {@code modelId} vectors are most similar to {@code
   * query} (a unit vector), with a positive cosine, best first; none if the model is not in use.
   */
  List<VectorIndex.Hit> searchVectors(String modelId, Namespace ns, float[] query, int k) {
    return indexes.searchVectors(modelId, ns, query, k);
  }

  /**
   * Starts using the vectors of {@code provider}'s model: opens its persisted indexes and brings
   * them in step with the graph (as {@link #recovered} does for text). Idempotent. Call with shared
   * access.
   */
  public void useModel(EmbeddingProvider provider) {
    indexes.useModel(provider);
  }

  /**
   * Up to {@code max} live nodes of {@code ns} whose vector {@code provider}'s model lacks. Call
   * with shared access, then embed without it and hand the vectors to {@link #addVectors}.
   */
  public List<Missing> missingVectors(EmbeddingProvider provider, Namespace ns, int max) {
    return indexes.missingVectors(provider, ns, max);
  }

  /**
   * Stores vectors computed for {@link #missingVectors}, skipping nodes that changed meanwhile, or
   * all of them if the layer closed meanwhile. Call with shared access.
   *
   * @throws IllegalStateException if the counts or dimensions do not match
   */
  public void addVectors(
      EmbeddingProvider provider, Namespace ns, List<Missing> nodes, List<float[]> computed) {
    indexes.addVectors(provider, ns, nodes, computed);
  }

  /**
   * Returns {@code v}, a vector {@code provider} computed, after checking its dimension.
   *
   * @throws IllegalStateException if it has the wrong number of dimensions
   */
  public static float[] checked(EmbeddingProvider provider, float[] v) {
    return RecallIndexes.checked(provider, v);
  }

  /** Every vector document {@code modelId} holds for {@code ns}. Call with shared access. */
  List<VectorIndex.Stored> storedVectors(String modelId, Namespace ns) {
    return indexes.storedVectors(modelId, ns);
  }

  /** Sets how often, at most, the indexes commit while writes arrive (tests commit often). */
  void commitEvery(long millis) {
    indexes.commitEvery(millis);
  }

  /** Sets the namespace size from which vector search uses HNSW rather than an exact scan. */
  void exactBelow(int n) {
    indexes.exactBelow(n);
  }

  /** How many indexes recovery or a model's first use rebuilt since this layer was made. */
  int rebuilds() {
    return indexes.rebuilds();
  }

  /** How many indexes recovery or a model's first use caught up since this layer was made. */
  int catchUps() {
    return indexes.catchUps();
  }

  // ---------------------------------------------------------------- lifecycle

  @Override
  public void attach(Path dataDir) {
    indexes.attach(dataDir);
  }

  @Override
  public void recovered(long seq) {
    indexes.recovered(seq);
  }

  @Override
  public void applied(long seq) {
    indexes.applied(seq);
  }

  /** Writes the text documents the last applies left, and commits the indexes when due. */
  @Override
  public void settle() {
    indexes.settle();
  }

  /** Tries the index repair now, however recently the last attempt failed: writes were resumed. */
  @Override
  public void resumed() {
    indexes.resumed();
  }

  @Override
  public void close(long seq) {
    indexes.close(seq);
  }

  // ---------------------------------------------------------------- projection

  @Override
  public Runnable prepare(JournalEntry entry, List<Event> events) {
    return RecallApply.prepare(graph, entry, events, target);
  }

  // ---------------------------------------------------------------- subjects

  @Override
  public List<SubjectMention> mentions(JournalEntry entry, Event e) {
    return switch (e.type()) {
      case RecallEvents.NODE_PUT -> {
        RecallEvents.NodePut p = RecallEvents.nodePut(e);
        yield List.of(RecallErasure.mention(p.node(), p.version()));
      }
      case RecallEvents.NODE_REMOVED ->
          List.of(SubjectMention.touch(RecallErasure.KIND, RecallEvents.nodeRemoved(e).id()));
      default -> List.of();
    };
  }

  @Override
  public Event scrub(JournalEntry entry, Event e, Set<String> recordKeys) {
    return e.type().equals(RecallEvents.NODE_PUT)
        ? RecallErasure.scrub(entry, e, RecallEvents.nodePut(e).node(), recordKeys)
        : e;
  }

  /**
   * Erases the nodes' content in every version, re-indexes the live ones with the erased text,
   * merges away the deleted index documents that held the old text and vectors, and commits the
   * indexes, so that no index file keeps them.
   */
  @Override
  public void erase(Set<String> recordKeys) {
    Map<Namespace, Set<String>> erased = new LinkedHashMap<>();
    List<MemoryNode> erasing = new ArrayList<>();
    for (String key : recordKeys) {
      int slash = key.indexOf('/');
      Namespace ns = Namespace.of(key.substring(0, slash));
      String id = key.substring(slash + 1);
      Graph g = graph.find(ns);
      Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
      if (c == null) {
        continue;
      }
      c.versions().forEach(v -> erasing.add(v.value()));
      c.replaceAll(
          v ->
              new RecordVersion<>(
                  RecallErasure.erased(v.value()), v.version(), v.at(), v.removed()));
      g.recountPacks();
      erased.computeIfAbsent(ns, k -> new HashSet<>()).add(id);
    }
    indexes.erased(erased);
    RecallErasure.forgetVectors(indexes.dataDir(), indexes.providers(), erasing);
  }

  // ---------------------------------------------------------------- snapshots

  @Override
  public Iterable<String> capture() {
    return RecallSnapshots.capture(graph);
  }

  @Override
  public void restore(String record, int version) {
    snapshots.restore(record, version);
  }

  @Override
  public void restore(byte[] buf, int off, int len, int version) {
    snapshots.restore(buf, off, len, version);
  }

  /**
   * Forgets the graph. Called only during recovery, so the indexes are left for {@link #recovered}
   * to reconcile.
   */
  @Override
  public void clear() {
    graph.clear();
    indexes.clear();
  }
}
