package dev.loci.recall;

import dev.loci.Egress;
import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.LegalReads;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.NotFoundException;
import dev.loci.Page;
import dev.loci.StaleVersionException;
import dev.loci.recall.internal.RecallLayer;
import dev.loci.recall.internal.Retriever;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import dev.loci.spi.CommandExecutor;
import dev.loci.spi.ContentRedaction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The memory graph and recall: typed nodes and edges kept as journal events, ingestion of files
 * through domain packs, and recall that returns evidence paths.
 *
 * <pre>{@code
 * RecallMemory recall = RecallMemory.of(loci);
 * Namespace ns = Namespace.of("acme.contracts");
 * recall.ingest(ns, DomainPacks.named("markdown:contract"), Path.of("01_supply_agreement.md"));
 * RecallResult r = recall.recall(ns, RecallQuery.builder("Can the buyer end the contract?",
 *     RecallMode.WEIGHTED_GRAPH).k(5).build());
 * }</pre>
 *
 * <p>Every record is versioned: putting a node or edge that differs from the live one makes a new
 * version and keeps the old; putting an equal one changes nothing; removing makes a removal
 * version, and a later put revives the record. A put or removal may name the version the caller
 * read ({@link #putNode(Namespace, MemoryNode, int)} and the like): the engine checks it in the
 * same decision as the write and refuses a stale one with {@link StaleVersionException}. Writes are
 * validated, journaled and durable before they return. The text and vector indexes are projections
 * kept under the data directory's {@code index/recall/} with the journal sequence they reflect, so
 * an open reuses them (or catches them up) instead of rebuilding; vectors of this memory's model
 * are computed after each write and, for the nodes that lack one when it begins, before each
 * recall, outside the engine's lock. Returned values are immutable. Thread-safe.
 */
public final class RecallMemory {
  /**
   * How many records (nodes and edges) an ingest writes per journal batch at most: a document of a
   * few thousand units is one batch (one fsync, one decision), and the largest the ingest limits
   * allow is split into lines of about 10 MB (about 300 bytes a record).
   */
  public static final int INGEST_CHUNK = 32_768;

  /** The largest page of {@link #nodes(Namespace, int, Optional)}. */
  public static final int MAX_PAGE = 10_000;

  /** Told how far an ingest is. Called on the ingesting thread. */
  @FunctionalInterface
  public interface Progress {
    /** Does nothing. */
    Progress NONE = (source, done, total) -> {};

    /** {@code done} of {@code total} records of {@code source} are written. */
    void advanced(String source, int done, int total);
  }

  private final CommandExecutor engine;
  private final RecallLayer layer;
  private final String actor;
  private final EmbeddingProvider embeddings;
  private final LegalReads legalReads;
  private final IngestLimits limits;
  private final Egress egress;
  private final dev.loci.Redaction redaction;
  private final Optional<dev.loci.recall.internal.PalaceLayer> palace;
  private final java.time.Clock clock;
  private final dev.loci.recall.spi.ScoringStrategy scoring;
  private final Ingester ingester;
  private final PendingVectors vectors;

  private RecallMemory(
      CommandExecutor engine,
      RecallLayer layer,
      String actor,
      EmbeddingProvider embeddings,
      LegalReads legalReads,
      IngestLimits limits,
      Egress egress,
      dev.loci.Redaction redaction,
      Optional<dev.loci.recall.internal.PalaceLayer> palace,
      java.time.Clock clock,
      dev.loci.recall.spi.ScoringStrategy scoring) {
    this.egress = egress;
    this.redaction = redaction;
    this.palace = palace;
    this.clock = clock;
    this.scoring = scoring;
    this.engine = engine;
    this.layer = layer;
    this.actor = actor;
    this.embeddings = embeddings;
    this.legalReads = legalReads;
    this.limits = limits;
    this.ingester = new Ingester(engine, layer, actor, limits, redaction);
    this.vectors = new PendingVectors(engine, layer, embeddings, egress);
  }

  /** The same memory, with {@code limits} on what one ingest may write. */
  public RecallMemory withIngestLimits(IngestLimits limits) {
    return new RecallMemory(
        engine,
        layer,
        actor,
        embeddings,
        legalReads,
        Objects.requireNonNull(limits, "limits"),
        egress,
        redaction,
        palace,
        clock,
        scoring);
  }

  /**
   * The same memory, scoring items with {@code scoring} when the weights in force are
   * lifecycle-aware (the default is {@link LifecycleScoring}).
   */
  public RecallMemory withScoring(dev.loci.recall.spi.ScoringStrategy scoring) {
    return new RecallMemory(
        engine,
        layer,
        actor,
        embeddings,
        legalReads,
        limits,
        egress,
        redaction,
        palace,
        clock,
        Objects.requireNonNull(scoring, "scoring"));
  }

  /**
   * The recall memory of an open instance, embedding with {@link HashingEmbeddingProvider}.
   *
   * @throws IllegalStateException if the instance was opened without the recall layer
   */
  public static RecallMemory of(Loci loci) {
    return of(loci, HashingEmbeddingProvider.create());
  }

  /** The recall memory of an open instance, embedding with {@code embeddings}. */
  public static RecallMemory of(Loci loci, EmbeddingProvider embeddings) {
    Objects.requireNonNull(embeddings, "embeddings");
    RecallLayer layer = loci.layer(RecallLayer.class);
    CommandExecutor engine = loci.executor();
    engine.read(
        () -> {
          layer.useModel(embeddings);
          return null;
        });
    return new RecallMemory(
        engine,
        layer,
        loci.actor(),
        embeddings,
        loci.legalReads(),
        IngestLimits.defaults(),
        loci.egress(),
        loci.redaction(),
        palaceOf(loci),
        loci.clock(),
        LifecycleScoring.INSTANCE);
  }

  private static Optional<dev.loci.recall.internal.PalaceLayer> palaceOf(Loci loci) {
    try {
      return Optional.of(loci.layer(dev.loci.recall.internal.PalaceLayer.class));
    } catch (IllegalStateException e) {
      return Optional.empty(); // an instance opened without the palace layer: nothing is hidden
    }
  }

  /** The same memory, recording {@code actor} as the author of its writes. */
  public RecallMemory as(String actor) {
    Objects.requireNonNull(actor, "actor");
    if (actor.isBlank()) {
      throw new IllegalArgumentException("actor must not be blank");
    }
    return new RecallMemory(
        engine,
        layer,
        actor,
        embeddings,
        legalReads,
        limits,
        egress,
        redaction,
        palace,
        clock,
        scoring);
  }

  /** The embedding provider recall uses. */
  public EmbeddingProvider embeddings() {
    return embeddings;
  }

  // ---------------------------------------------------------------- writes

  /** Puts a node: a new version if it differs from the live one, else the live version as is. */
  public RecordVersion<MemoryNode> putNode(Namespace ns, MemoryNode node) {
    Objects.requireNonNull(node, "node");
    node = Ingester.redacted(redaction.redactor(ns, ContentRedaction.NODE), node);
    RecordVersion<MemoryNode> v =
        write(ns, List.of(node), List.of(), List.of(), List.of()).nodes().get(node.id());
    if (vectors.mayEmbed(ns)) {
      vectors.embedPending(ns, Progress.NONE, false);
    }
    return v;
  }

  /**
   * Puts an edge: a new version if it differs from the live one, else the live version as is.
   *
   * @throws InvalidRequestException naming {@code from} or {@code to} if an end is not a live node
   */
  public RecordVersion<MemoryEdge> putEdge(Namespace ns, MemoryEdge edge) {
    Objects.requireNonNull(edge, "edge");
    return write(ns, List.of(), List.of(edge), List.of(), List.of()).edges().get(edge.key());
  }

  /**
   * Removes node {@code id} and the live edges touching it, in one atomic write. History is kept.
   *
   * @return the removal version
   * @throws NotFoundException naming {@code id} if there is no live node {@code id}
   */
  public RecordVersion<MemoryNode> removeNode(Namespace ns, String id) {
    Objects.requireNonNull(id, "id");
    return write(ns, List.of(), List.of(), List.of(id), List.of()).nodes().get(id);
  }

  /**
   * Removes an edge. History is kept.
   *
   * @return the removal version
   * @throws NotFoundException naming {@code edge} if there is no such live edge
   */
  public RecordVersion<MemoryEdge> removeEdge(Namespace ns, MemoryEdge.Key key) {
    Objects.requireNonNull(key, "key");
    return write(ns, List.of(), List.of(), List.of(), List.of(key)).edges().get(key);
  }

  /**
   * Puts a node if the live node {@code node.id()} is at {@code expectedVersion}: the check and the
   * write are one atomic decision of the engine, so no other write can come between them.
   *
   * @throws StaleVersionException naming {@code id} if the node is at another version, removed or
   *     absent; nothing is written
   */
  public RecordVersion<MemoryNode> putNode(Namespace ns, MemoryNode node, int expectedVersion) {
    Objects.requireNonNull(node, "node");
    return write(
            ns,
            () -> layer.expectNode(ns, node.id(), expectedVersion),
            List.of(node),
            List.of(),
            List.of(),
            List.of())
        .nodes()
        .get(node.id());
  }

  /**
   * Puts an edge if the live edge of the same key is at {@code expectedVersion}, atomically (see
   * {@link #putNode(Namespace, MemoryNode, int)}).
   *
   * @throws StaleVersionException naming {@code edge} if the edge is at another version, removed or
   *     absent; nothing is written
   */
  public RecordVersion<MemoryEdge> putEdge(Namespace ns, MemoryEdge edge, int expectedVersion) {
    Objects.requireNonNull(edge, "edge");
    return write(
            ns,
            () -> layer.expectEdge(ns, edge.key(), expectedVersion),
            List.of(),
            List.of(edge),
            List.of(),
            List.of())
        .edges()
        .get(edge.key());
  }

  /**
   * Removes node {@code id} (and the live edges touching it) if it is live at {@code
   * expectedVersion}, atomically (see {@link #putNode(Namespace, MemoryNode, int)}).
   *
   * @throws StaleVersionException naming {@code id} if the node is at another version, removed or
   *     absent; nothing is written
   */
  public RecordVersion<MemoryNode> removeNode(Namespace ns, String id, int expectedVersion) {
    Objects.requireNonNull(id, "id");
    return write(
            ns,
            () -> layer.expectNode(ns, id, expectedVersion),
            List.of(),
            List.of(),
            List.of(id),
            List.of())
        .nodes()
        .get(id);
  }

  /**
   * Removes an edge if it is live at {@code expectedVersion}, atomically (see {@link
   * #putNode(Namespace, MemoryNode, int)}).
   *
   * @throws StaleVersionException naming {@code edge} if the edge is at another version, removed or
   *     absent; nothing is written
   */
  public RecordVersion<MemoryEdge> removeEdge(
      Namespace ns, MemoryEdge.Key key, int expectedVersion) {
    Objects.requireNonNull(key, "key");
    return write(
            ns,
            () -> layer.expectEdge(ns, key, expectedVersion),
            List.of(),
            List.of(),
            List.of(),
            List.of(key))
        .edges()
        .get(key);
  }

  private RecallLayer.Written write(
      Namespace ns,
      List<MemoryNode> nodes,
      List<MemoryEdge> edges,
      List<String> removeNodes,
      List<MemoryEdge.Key> removeEdges) {
    return write(ns, () -> {}, nodes, edges, removeNodes, removeEdges);
  }

  /** Decides {@code precondition} and the write in one command, so nothing comes between them. */
  private RecallLayer.Written write(
      Namespace ns,
      Runnable precondition,
      List<MemoryNode> nodes,
      List<MemoryEdge> edges,
      List<String> removeNodes,
      List<MemoryEdge.Key> removeEdges) {
    Objects.requireNonNull(ns, "ns");
    nodes.forEach(n -> MemoryNode.checkNewId("id", n.id()));
    edges.forEach(
        e -> {
          MemoryNode.checkNewId("from", e.from());
          MemoryNode.checkNewId("to", e.to());
        });
    return engine.execute(
        ns,
        actor,
        ctx -> {
          precondition.run();
          return layer.decideWrite(
              ns, ctx.now(), nodes, edges, removeNodes, removeEdges, Optional.empty());
        });
  }

  // ---------------------------------------------------------------- ingestion

  /**
   * Ingests a file with {@code pack}: reads it as UTF-8 and records it under its path as given.
   *
   * @throws NotFoundException naming {@code path} if the file does not exist
   * @throws InvalidRequestException naming {@code path} if the pack cannot read it
   */
  public IngestReport ingest(Namespace ns, DomainPack pack, Path file, Progress progress) {
    return ingest(ns, pack, new SourceDocument(file.toString(), Ingester.read(file)), progress);
  }

  /**
   * Ingests several documents with {@code pack} into {@code scope.root()}, in order, after the pack
   * has read every one of them: a document the pack cannot read, a path given twice, or a document
   * that would write a namespace outside {@code scope} (the {@code conversation} pack writes one
   * child namespace per conversation) fails the call before anything is written.
   *
   * @return one report per document, in order
   * @throws InvalidRequestException naming {@code documents[i].path} (or the field the pack names,
   *     under {@code documents[i].}), or {@code documents[i]} for a namespace outside the scope,
   *     for the first document that cannot be ingested
   */
  public List<IngestReport> ingest(
      NamespaceScope scope, DomainPack pack, List<SourceDocument> documents, Progress progress) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(pack, "pack");
    Namespace ns = scope.root();
    List<Ingestion> read = ingester.readAll(scope, pack, documents);
    List<IngestReport> reports = new ArrayList<>(documents.size());
    for (int i = 0; i < documents.size(); i++) {
      reports.add(ingester.write(ns, pack, documents.get(i), read.get(i), progress, written -> {}));
    }
    return reports;
  }

  /**
   * Ingests a document with {@code pack}. Idempotent: ingesting the same document again appends
   * nothing. Nodes and edges an earlier ingest of the same path made and the document no longer
   * holds are removed. Each graph is written in journal batches of at most {@value #INGEST_CHUNK}
   * records, nodes first; a crash between batches leaves a prefix that the next ingest completes.
   * The new nodes' vectors are computed by {@link #embed} (which shows progress) or else by the
   * next recall that needs them.
   *
   * @throws InvalidRequestException naming {@code path} if the pack cannot read the document
   */
  public IngestReport ingest(
      Namespace ns, DomainPack pack, SourceDocument document, Progress progress) {
    Objects.requireNonNull(ns, "ns");
    return ingester.write(
        ns, pack, document, ingester.bounded(ns, "", document, pack), progress, written -> {});
  }

  /**
   * Ingests {@code file} as {@link #ingest(Namespace, DomainPack, Path, Progress)} does and embeds
   * the nodes it writes at the same time: the nodes of each journal batch are embedded on another
   * thread while the next batch is written (see {@link EmbeddingOverlap}), and the call returns
   * once every live node of the namespaces it wrote has its vector, as {@link #embed} would leave
   * them. The journal gets exactly the batches of a plain ingest, each durable before its nodes are
   * embedded. {@code embedding} hears the nodes embedded so far per namespace, from the embedding
   * thread while the ingest writes and from the calling thread after.
   *
   * @throws NotFoundException naming {@code path} if the file does not exist
   * @throws InvalidRequestException naming {@code path} if the pack cannot read it
   */
  public IngestReport ingestEmbedding(
      Namespace ns, DomainPack pack, Path file, Progress progress, Progress embedding) {
    Objects.requireNonNull(ns, "ns");
    Objects.requireNonNull(embedding, "embedding");
    SourceDocument document = new SourceDocument(file.toString(), Ingester.read(file));
    Ingestion read = ingester.bounded(ns, "", document, pack);
    // nodes embedded so far per namespace, so that progress counts across the passes
    Map<Namespace, Integer> embedded = new java.util.concurrent.ConcurrentHashMap<>();
    java.util.function.BiConsumer<Namespace, Boolean> pass =
        (n, untilNone) -> {
          int before = embedded.getOrDefault(n, 0);
          Progress counted =
              (source, done, total) -> embedding.advanced(source, before + done, before + total);
          embedded.merge(n, vectors.embedPending(n, counted, untilNone), Integer::sum);
        };
    IngestReport report;
    try (EmbeddingOverlap overlap = new EmbeddingOverlap(n -> pass.accept(n, false))) {
      report = ingester.write(ns, pack, document, read, progress, overlap::written);
      overlap.finish();
    }
    for (Namespace n : report.namespaces()) {
      pass.accept(n, true);
    }
    return report;
  }

  /** How many node texts {@link #embed} hands the provider per call. */
  public static final int EMBED_BATCH = 256;

  /**
   * Embeds the live nodes of {@code ns} whose vector this memory's model lacks (new or changed
   * nodes, or all of them the first time a model is used), {@value #EMBED_BATCH} texts a call, so
   * they are ready before the first query; with a {@link CachingEmbeddingProvider} each text is
   * computed once and kept on disk. Writes nothing to the journal. {@code progress} hears {@code
   * ns}, the nodes embedded so far and how many were missing. Recall does the same for whatever is
   * still missing, without progress.
   *
   * @return how many nodes were embedded
   */
  public int embed(Namespace ns, Progress progress) {
    Objects.requireNonNull(ns, "ns");
    Objects.requireNonNull(progress, "progress");
    return vectors.embedPending(ns, progress, true);
  }

  // ---------------------------------------------------------------- reads

  /** The live node {@code id} of {@code ns}. */
  public Optional<MemoryNode> node(Namespace ns, String id) {
    return engine.read(() -> layer.node(ns, id));
  }

  /**
   * One page of the live nodes of {@code ns}, with their current versions, in the order they were
   * first put. A page stays correct while nodes are put and removed between calls: it resumes after
   * the last node of the previous page.
   *
   * @param limit how many at most, 1 to {@value #MAX_PAGE}
   * @param cursor the {@link Page#nextCursor()} of the previous page; empty for the first
   * @throws InvalidRequestException naming {@code limit} or {@code cursor}
   */
  public Page<RecordVersion<MemoryNode>> nodes(Namespace ns, int limit, Optional<String> cursor) {
    Objects.requireNonNull(ns, "ns");
    if (limit < 1 || limit > MAX_PAGE) {
      throw new InvalidRequestException("limit", "expected 1 to " + MAX_PAGE + ", found " + limit);
    }
    Optional<String> after = cursor.map(RecallMemory::decodeCursor);
    List<RecordVersion<MemoryNode>> got =
        engine
            .read(() -> layer.nodesAfter(ns, after, limit + 1))
            .orElseThrow(() -> badCursor(cursor.orElseThrow()));
    if (got.size() <= limit) {
      return new Page<>(got, Optional.empty());
    }
    List<RecordVersion<MemoryNode>> page = got.subList(0, limit);
    return new Page<>(page, Optional.of(encodeCursor(page.get(limit - 1).value().id())));
  }

  private static final String CURSOR_PREFIX = "recall-node:";

  private static String encodeCursor(String id) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((CURSOR_PREFIX + id).getBytes(StandardCharsets.UTF_8));
  }

  private static String decodeCursor(String cursor) {
    try {
      String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      if (raw.startsWith(CURSOR_PREFIX) && raw.length() > CURSOR_PREFIX.length()) {
        return raw.substring(CURSOR_PREFIX.length());
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw badCursor(cursor);
  }

  private static InvalidRequestException badCursor(String cursor) {
    return new InvalidRequestException(
        "cursor",
        "expected a next_cursor returned by an earlier page of this namespace's nodes, found '"
            + (cursor.length() > 80 ? cursor.substring(0, 80) + "..." : cursor)
            + "'");
  }

  /** Every namespace that holds graph records, sorted; for browsing (the web UI). */
  public List<Namespace> namespaces() {
    return engine.read(layer::namespaces);
  }

  /** How many live and removed nodes and edges {@code ns} holds, and of which types. */
  public GraphStats stats(Namespace ns) {
    Objects.requireNonNull(ns, "ns");
    return engine.read(() -> layer.stats(ns));
  }

  /**
   * The newest version of node {@code id}: the node, or its removal.
   *
   * @throws NotFoundException naming {@code id} if {@code ns} never held it
   */
  public RecordVersion<MemoryNode> nodeVersion(Namespace ns, String id) {
    return engine.read(() -> layer.nodeHistory(ns, id).get(0));
  }

  /**
   * Every version of node {@code id}, newest first, removals included. Superseded versions may
   * carry personal data: the legal-tier capability is required, and the read is recorded with its
   * holder before the versions are returned.
   *
   * @throws NotFoundException naming {@code id} if {@code ns} never held it
   */
  public List<RecordVersion<MemoryNode>> nodeHistory(
      Namespace ns, String id, LegalCapability legal) {
    Objects.requireNonNull(legal, "node history requires the legal-tier capability");
    List<RecordVersion<MemoryNode>> history = engine.read(() -> layer.nodeHistory(ns, id));
    legalReads.record(ns, legal, "node.history", List.of(id));
    return history;
  }

  /**
   * The newest version of an edge: the edge, or its removal.
   *
   * @throws NotFoundException naming {@code edge} if {@code ns} never held it
   */
  public RecordVersion<MemoryEdge> edgeVersion(Namespace ns, MemoryEdge.Key key) {
    return engine.read(() -> layer.edgeHistory(ns, key).get(0));
  }

  /**
   * Every version of an edge, newest first, removals included, under the legal-tier capability; the
   * read is recorded.
   *
   * @throws NotFoundException naming {@code edge} if {@code ns} never held it
   */
  public List<RecordVersion<MemoryEdge>> edgeHistory(
      Namespace ns, MemoryEdge.Key key, LegalCapability legal) {
    Objects.requireNonNull(legal, "edge history requires the legal-tier capability");
    List<RecordVersion<MemoryEdge>> history = engine.read(() -> layer.edgeHistory(ns, key));
    legalReads.record(ns, legal, "edge.history", List.of(key.toString()));
    return history;
  }

  /** The live edges starting or ending at node {@code id}, ordered by key. */
  public List<MemoryEdge> edges(Namespace ns, String id) {
    return engine.read(() -> layer.edgesOf(ns, id));
  }

  /** The live nodes of {@code ns}, in the order they were first put. */
  public List<MemoryNode> nodes(Namespace ns) {
    return engine.read(() -> layer.nodes(ns));
  }

  /** How many live edges {@code ns} holds. */
  public int edgeCount(Namespace ns) {
    return engine.read(() -> layer.edgeCount(ns));
  }

  /**
   * Recalls from {@code ns}. The weights in force are the query's, else those of the domain pack
   * that made the namespace's nodes (their {@code pack} attribute, when it names exactly one known
   * pack), else {@link ScoreWeights#DEFAULT}.
   *
   * @throws dev.loci.StorageException if the instance is closed, or closes while the recall
   *     computes vectors
   */
  public RecallResult recall(Namespace ns, RecallQuery query) {
    Objects.requireNonNull(ns, "ns");
    Objects.requireNonNull(query, "query");
    Optional<float[]> vector = Optional.empty();
    if (query.mode() != RecallMode.LEXICAL) {
      vectors.checkEgress(ns);
      vectors.embedPending(ns, Progress.NONE, false);
      vector = Optional.of(RecallLayer.checked(embeddings, embeddings.embedQuery(query.text())));
    }
    Optional<float[]> queryVector = vector;
    return engine.read(
        () -> {
          ScoreWeights weights = query.weights().orElseGet(() -> packWeights(ns));
          return Retriever.recall(
              layer,
              ns,
              embeddings,
              queryVector,
              query,
              weights,
              dev.loci.recall.internal.RecallContext.of(
                  layer, palace, scoring, clock, ns, weights));
        });
  }

  private ScoreWeights packWeights(Namespace ns) {
    Set<String> packs = layer.packs(ns);
    if (packs.size() == 1) {
      return DomainPacks.find(packs.iterator().next())
          .map(DomainPack::weights)
          .orElse(ScoreWeights.DEFAULT);
    }
    return ScoreWeights.DEFAULT;
  }
}
