package dev.loci.recall.internal;

import static dev.loci.recall.MemoryNode.INDEX_CONTEXT;

import dev.loci.Namespace;
import dev.loci.StorageException;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.internal.RecallGraph.Graph;
import dev.loci.recall.internal.RecallLayer.Missing;
import dev.loci.recall.spi.EmbeddingProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The recall graph's indexes: a Lucene index of live node text ({@link TextIndex}) and the vectors
 * of each embedding model in use ({@link VectorIndex}), per namespace, kept in step with the graph.
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
 * #settle} too, recording the sequence through which the text index is complete. Vectors are
 * computed outside the engine's lock by recall ({@link #missingVectors}, {@link #addVectors}).
 *
 * <p>Thread-safety: the methods the engine calls with exclusive access are named so in the layer
 * ({@link dev.loci.spi.Layer}); the others run with shared access, possibly on several threads.
 */
final class RecallIndexes {
  /** How often, at most, the indexes commit while writes arrive. */
  static final long COMMIT_MILLIS = 2_000;

  private static final long REPAIR_MILLIS = 100;

  private final RecallGraph graph;
  private TextIndex text = new TextIndex(Optional.empty());
  private VectorIndex vectors = new VectorIndex(Optional.empty());
  private Optional<Path> dataDir = Optional.empty();
  // the providers recall embeds with, by model id: erasure forgets their cached vectors
  private final Map<String, EmbeddingProvider> providers = new ConcurrentHashMap<>();
  private boolean indexing; // false while recovering: the indexes are reconciled once, after
  private volatile boolean closed; // set under the engine's exclusive lock; read under its shared
  private volatile long appliedSeq;
  // nodes whose text document lags the graph: noted by apply, written by settle or a text search
  private final TextBacklog textBacklog = new TextBacklog();
  private volatile long indexedSeq; // the text index holds every change through it
  private final ReentrantLock committing = new ReentrantLock();
  private volatile long lastCommitNanos = System.nanoTime();
  private volatile long commitNanos = COMMIT_MILLIS * 1_000_000;
  private final AtomicInteger rebuilds = new AtomicInteger();
  private final AtomicInteger catchUps = new AtomicInteger();
  private final Object repairLock = new Object();
  private long repairTriedNanos; // guarded by repairLock

  RecallIndexes(RecallGraph graph) {
    this.graph = graph;
  }

  // ---------------------------------------------------------------- changes (exclusive access)

  /** Node {@code id} was put at {@code version}: its text and vectors lag until written. */
  void nodePut(Namespace ns, String id, int version) {
    if (indexing) {
      textBacklog.note(ns, id);
      vectors.changed(ns, id, version);
    }
  }

  /** Node {@code id} was removed: its text document lags until written, its vectors go now. */
  void nodeRemoved(Namespace ns, String id) {
    if (indexing) {
      textBacklog.note(ns, id);
      vectors.removed(ns, id);
    }
  }

  /** The graph is being rebuilt (recovery): nothing noted so far is to be written. */
  void clear() {
    textBacklog.clear();
  }

  /**
   * The content of the {@code erased} nodes (by namespace) was erased in the graph: writes the
   * documents of the live ones again from it, marks their vectors missing, merges away the deleted
   * documents that held the old text and vectors, and commits, so that no index file keeps them.
   * Exclusive access.
   */
  void erased(Map<Namespace, Set<String>> erased) {
    if (!indexing || erased.isEmpty()) {
      return;
    }
    indexText(); // documents noted before the erasure are written now, the erased ones below
    erased.forEach(
        (ns, ids) ->
            ids.forEach(
                id -> {
                  textBacklog.note(ns, id);
                  graph
                      .nodeHead(ns, id)
                      .filter(v -> !v.removed())
                      .ifPresent(v -> vectors.changed(ns, id, v.version()));
                }));
    indexText();
    erased
        .keySet()
        .forEach(
            ns -> {
              text.shards().find(ns).ifPresent(IndexShard::expungeAllDeletes);
              vectors.expungeAllDeletes(ns);
            });
    text.shards().commit(appliedSeq, false);
    vectors.commit(appliedSeq, false);
  }

  /** The data directory the indexes live under, if any. */
  Optional<Path> dataDir() {
    return dataDir;
  }

  /** The providers recall embedded with, whose cached vectors erasure forgets. */
  Collection<EmbeddingProvider> providers() {
    return providers.values();
  }

  // ---------------------------------------------------------------- searches

  /** The BM25 matches of {@code query} in {@code ns}. */
  List<TextIndex.Hit> searchText(
      Namespace ns, String query, int k, double contextWeight, double lengthNorm) {
    checkOpen();
    repairIndexes();
    if (indexing) {
      indexText(); // a search between an apply and its settle sees the applied state
    }
    return text.search(ns, query, k, contextWeight, lengthNorm);
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

  /**
   * Starts using the vectors of {@code provider}'s model: opens its persisted indexes and brings
   * them in step with the graph (as {@link #recovered} does for text). Idempotent. Call with shared
   * access.
   */
  void useModel(EmbeddingProvider provider) {
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
  List<Missing> missingVectors(EmbeddingProvider provider, Namespace ns, int max) {
    if (closed) {
      return List.of(); // the next open finds what is missing
    }
    Optional<VectorIndex.Model> m = vectors.model(provider.modelId());
    Graph g = graph.find(ns);
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
        out.add(new Missing(p.getKey(), p.getValue(), embeddedText(n), n.subjectIds()));
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
  void addVectors(
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
    Graph g = graph.find(ns);
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
  static float[] checked(EmbeddingProvider provider, float[] v) {
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

  // ---------------------------------------------------------------- lifecycle

  void attach(Path dataDir) {
    this.dataDir = Optional.of(dataDir);
    Path root = dataDir.resolve("index").resolve(RecallLayer.NAME);
    text = new TextIndex(Optional.of(root.resolve("text")));
    vectors = new VectorIndex(Optional.of(root.resolve("vectors")));
  }

  void recovered(long seq) {
    appliedSeq = seq;
    ShardSet shards = text.shards();
    shards.retainOnly(graph.namespaceSet());
    graph.namespaceSet().forEach(ns -> reconcileText(ns, seq));
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
    Graph g = graph.find(ns);
    count(
        text.shards()
            .reconcile(
                ns,
                seq,
                g == null ? 0 : g.liveCount(),
                g == null ? ShardSet.LiveNodes.NONE : g.live(),
                true,
                (id, v) -> put(ns, id, v, g.nodes.get(id).head().value())));
  }

  private void reconcileVectors(VectorIndex.Model m, long seq) {
    m.shards.retainOnly(graph.namespaceSet());
    graph.forEach(
        (ns, g) ->
            count(
                m.shards.reconcile(
                    ns, seq, g.liveCount(), g.live(), false, (id, v) -> m.pending(ns).put(id, v))));
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
  void resumed() {
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

  void applied(long seq) {
    appliedSeq = seq;
    repairIndexes();
  }

  /**
   * Writes the text documents of the nodes the last applies changed, then, at most every {@value
   * #COMMIT_MILLIS} ms, commits the indexes: both with shared access, so readers are not held off
   * (see {@link TextBacklog}). One thread commits at a time; the others go on.
   */
  void settle() {
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
    Graph g = graph.find(ns);
    Chain<MemoryNode> c = g == null ? null : g.nodes.get(id);
    if (c != null && c.live()) {
      put(ns, id, c.head().version(), c.head().value());
    } else {
      text.remove(ns, id);
    }
  }

  private void put(Namespace ns, String id, int version, MemoryNode n) {
    text.put(ns, id, version, lexicalText(n), n.attributes().getOrDefault(INDEX_CONTEXT, ""));
  }

  /**
   * What a node's vector is made from: its content, then {@code " | "} and its {@link
   * MemoryNode#INDEX_CONTEXT}. The {@code conversation} pack wrote contexts that began with {@code
   * "| "} until 2026-11-27; theirs is the same text as before, so their vectors stay as they were.
   */
  static String embeddedText(MemoryNode n) {
    String context = n.attributes().get(INDEX_CONTEXT);
    if (context == null) {
      return n.content();
    }
    return n.content() + " | " + (context.startsWith("| ") ? context.substring(2) : context);
  }

  /** What the text index holds of a node: its content and its {@link MemoryNode#INDEX_TERMS}. */
  static String lexicalText(MemoryNode n) {
    String terms = n.attributes().get(MemoryNode.INDEX_TERMS);
    return terms == null ? n.content() : n.content() + " " + terms;
  }

  void close(long seq) {
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
}
