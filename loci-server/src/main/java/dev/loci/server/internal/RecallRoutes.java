package dev.loci.server.internal;

import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.Page;
import dev.loci.recall.IngestEmbedder;
import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallWire;
import dev.loci.recall.RecordVersion;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.Route.Method;
import dev.loci.server.spi.Route.NamespaceAccess;
import dev.loci.server.spi.RouteSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * API v1 of the memory graph and recall: one route per {@link RecallMemory} operation, under {@code
 * /v1/ns/{ns}/}, in the {@link RecallWire} format.
 *
 * <p>Every response that carries one node or edge version also carries the version as a strong
 * {@code ETag}; puts and removals honour {@code If-Match}, and the engine checks it in the same
 * decision as the write, so a stale write is refused (412) instead of overwriting a change unseen.
 * Edges are named by the query parameters {@code from}, {@code edge_type} and {@code to}.
 */
public final class RecallRoutes implements RouteSet, AutoCloseable {
  static final String NODES = "/v1/ns/{ns}/nodes";
  static final String NODE = NODES + "/{id}";
  static final String EDGES = "/v1/ns/{ns}/edges";
  private static final Set<String> EDGE_KEY = Set.of("from", "edge_type", "to");
  private static final int DEFAULT_PAGE = 100;

  private final RecallMemory recall;
  private final dev.loci.recall.MemoryPalace palace;
  private final IngestWaves waves;
  private final int queryTerms;
  private final IngestEmbedder embedder;

  /** Routes over {@code recall}, recalling through {@code palace}; an ingest extracts nothing. */
  public RecallRoutes(RecallMemory recall, dev.loci.recall.MemoryPalace palace) {
    this(
        recall, palace, IngestWaves.NONE, dev.loci.server.RequestLimits.DEFAULT_RECALL_QUERY_TERMS);
  }

  /**
   * Routes over {@code recall}, recalling through {@code palace}; after an ingest, {@code waves}
   * runs the extraction waves the namespaces (or the request) ask for; a recall query of more than
   * {@code queryTerms} distinct words is refused.
   */
  public RecallRoutes(
      RecallMemory recall, dev.loci.recall.MemoryPalace palace, IngestWaves waves, int queryTerms) {
    this.recall = recall;
    this.palace = palace;
    this.waves = java.util.Objects.requireNonNull(waves, "waves");
    this.queryTerms = queryTerms;
    this.embedder = new IngestEmbedder(recall);
  }

  /** Stops computing the vectors of earlier ingests ({@link IngestEmbedder#close}). */
  @Override
  public void close() {
    embedder.close();
  }

  @Override
  public List<Route> routes() {
    return List.of(
        Route.of(Method.GET, NODES, Role.READER, NamespaceAccess.PATH, false, this::nodes),
        Route.of(Method.GET, NODE, Role.READER, NamespaceAccess.PATH, false, this::node),
        Route.of(Method.PUT, NODE, Role.WRITER, NamespaceAccess.PATH, true, this::putNode),
        Route.of(
            Method.GET, NODE + "/edges", Role.READER, NamespaceAccess.PATH, false, this::edgesOf),
        Route.of(Method.GET, EDGES, Role.READER, NamespaceAccess.PATH, false, this::edge),
        Route.of(Method.PUT, EDGES, Role.WRITER, NamespaceAccess.PATH, true, this::putEdge),
        Route.of(Method.DELETE, EDGES, Role.WRITER, NamespaceAccess.PATH, false, this::removeEdge),
        Route.of(
            Method.GET,
            "/v1/ns/{ns}/graph-stats",
            Role.READER,
            NamespaceAccess.PATH,
            false,
            this::stats),
        Route.of(
            Method.POST,
            "/v1/ns/{ns}/ingest",
            Role.WRITER,
            NamespaceAccess.PATH_OR_SUBTREE,
            true,
            this::ingest),
        Route.of(
            Method.POST,
            "/v1/ns/{ns}/recall",
            Role.READER,
            NamespaceAccess.PATH,
            true,
            this::recall),
        Route.of(Method.DELETE, NODE, Role.WRITER, NamespaceAccess.PATH, false, this::removeNode));
  }

  private RecallMemory as(Exchange ex) {
    return recall.as(ex.actor());
  }

  // ---------------------------------------------------------------- nodes

  private void nodes(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("limit", "cursor"));
    Page<RecordVersion<MemoryNode>> page =
        recall.nodes(
            ex.namespace(),
            QueryParams.integer(ex, "limit").orElse(DEFAULT_PAGE),
            ex.query("cursor"));
    Responses.page(ex, RecallWire.writeNodes(page.items()), page.nextCursor());
  }

  private void node(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("include_history"));
    Namespace ns = ex.namespace();
    String id = ex.pathParam("id");
    current(
        ex,
        recall.nodeVersion(ns, id),
        () -> recall.nodeHistory(ns, id, ex.legal("include_history")),
        "id",
        "node '" + id + "'",
        RecallWire::writeNode,
        RecallWire::writeNode);
  }

  private void putNode(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Namespace ns = ex.namespace();
    MemoryNode node = RecallWire.readNode(ex.pathParam("id"), ex.body().text());
    RecordVersion<MemoryNode> v =
        write(ex, (m, expected) -> m.putNode(ns, node, expected), m -> m.putNode(ns, node));
    ex.responseHeader("ETag", etag(v));
    ex.json(200, RecallWire.writeNode(v));
  }

  private void removeNode(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Namespace ns = ex.namespace();
    String id = ex.pathParam("id");
    RecordVersion<MemoryNode> v =
        write(ex, (m, expected) -> m.removeNode(ns, id, expected), m -> m.removeNode(ns, id));
    ex.json(200, RecallWire.writeNode(v));
  }

  private void edgesOf(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Namespace ns = ex.namespace();
    String id = ex.pathParam("id");
    if (recall.node(ns, id).isEmpty()) {
      throw noNode(ns, id);
    }
    Responses.items(ex, RecallWire.write(recall.edges(ns, id)));
  }

  private static NotFoundException noNode(Namespace ns, String id) {
    return new NotFoundException("id", "no node '" + id + "' in " + ns);
  }

  // ---------------------------------------------------------------- edges

  private void edge(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("from", "edge_type", "to", "include_history"));
    Namespace ns = ex.namespace();
    MemoryEdge.Key key = edgeKey(ex);
    current(
        ex,
        recall.edgeVersion(ns, key),
        () -> recall.edgeHistory(ns, key, ex.legal("include_history")),
        "edge",
        "edge " + key,
        RecallWire::writeEdge,
        RecallWire::writeEdge);
  }

  private void putEdge(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Namespace ns = ex.namespace();
    MemoryEdge edge = RecallWire.readEdge(ex.body().text());
    RecordVersion<MemoryEdge> v =
        write(ex, (m, expected) -> m.putEdge(ns, edge, expected), m -> m.putEdge(ns, edge));
    ex.responseHeader("ETag", etag(v));
    ex.json(200, RecallWire.writeEdge(v));
  }

  private void removeEdge(Exchange ex) {
    QueryParams.allowOnly(ex, EDGE_KEY);
    Namespace ns = ex.namespace();
    MemoryEdge.Key key = edgeKey(ex);
    RecordVersion<MemoryEdge> v =
        write(ex, (m, expected) -> m.removeEdge(ns, key, expected), m -> m.removeEdge(ns, key));
    ex.json(200, RecallWire.writeEdge(v));
  }

  private static MemoryEdge.Key edgeKey(Exchange ex) {
    return new MemoryEdge.Key(
        QueryParams.require(ex, "from"),
        QueryParams.require(ex, "edge_type"),
        QueryParams.require(ex, "to"));
  }

  // ---------------------------------------------------------------- graph

  private void stats(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ex.json(200, RecallWire.write(recall.stats(ex.namespace())));
  }

  /**
   * Ingests into {@code {ns}}; a pack that writes namespaces below it (a conversation per child)
   * needs {@code subtree=true}, so the credential is checked against them before anything is
   * written. Then the ingestion waves of {@link IngestWaves}, listed as {@code extraction_waves};
   * the new nodes' vectors are computed after the response ({@link IngestEmbedder}).
   */
  private void ingest(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("subtree", IngestWaves.PARAM));
    IngestWaves.Plan extraction = waves.plan(ex);
    RecallWire.IngestRequest request = RecallWire.readIngest(ex.body().text());
    RecallMemory memory = as(ex);
    List<IngestReport> reports =
        memory.ingest(ex.scope(), request.pack(), request.documents(), RecallMemory.Progress.NONE);
    // vectors after the response, so the first recall does not pay for the whole ingest and the
    // ingest does not wait for the model
    embedder.embedLater(reports.stream().flatMap(r -> r.namespaces().stream()).toList());
    String extracted = dev.loci.internal.Json.write(extraction.run(reports));
    ex.json(
        200,
        "{\"items\":" + RecallWire.write(reports) + ",\"extraction_waves\":" + extracted + "}");
  }

  private void recall(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    dev.loci.recall.PalaceWire.RecallRequest r =
        dev.loci.recall.PalaceWire.readRecall(ex.body().text());
    dev.loci.server.RequestLimits.checkRecallQueryTerms(r.query().text(), queryTerms);
    if (r.reinforce() && !ex.allows(Role.WRITER)) {
      throw new HttpProblem(
          403,
          "forbidden",
          "Forbidden",
          "reinforce=true records a use of every returned memory: it needs the writer role",
          Optional.of("reinforce"));
    }
    dev.loci.recall.MemoryPalace p = r.reinforce() ? palace.as(ex.actor()) : palace;
    ex.json(
        200,
        dev.loci.recall.PalaceWire.writeRecall(p.recall(ex.namespace(), r.query(), r.reinforce())));
  }

  // ---------------------------------------------------------------- versions

  private static String etag(RecordVersion<?> v) {
    return Responses.etag(Integer.toString(v.version()));
  }

  /**
   * Answers the current version of a record (404 if removed) with its {@code ETag}, and with {@code
   * include_history=true} its whole history, which only a legal credential may read (the read is
   * recorded).
   */
  private static <T> void current(
      Exchange ex,
      RecordVersion<T> newest,
      Supplier<List<RecordVersion<T>>> history,
      String field,
      String what,
      Function<RecordVersion<T>, String> one,
      BiFunction<RecordVersion<T>, List<RecordVersion<T>>, String> withHistory) {
    RecordVersion<T> head = live(newest, field, what, ex.namespace());
    String body =
        QueryParams.flag(ex, "include_history")
            ? withHistory.apply(head, history.get())
            : one.apply(head);
    ex.responseHeader("ETag", etag(head));
    ex.json(200, body);
  }

  /**
   * Runs a write as the caller, conditional on the version {@code If-Match} names if it names one.
   */
  private <T> RecordVersion<T> write(
      Exchange ex,
      BiFunction<RecallMemory, Integer, RecordVersion<T>> ifMatch,
      Function<RecallMemory, RecordVersion<T>> unconditional) {
    Optional<Integer> expected = expectedVersion(ex);
    return expected.isPresent()
        ? ifMatch.apply(as(ex), expected.get())
        : unconditional.apply(as(ex));
  }

  /** The newest version of a record, if it is not a removal. */
  private static <T> RecordVersion<T> live(
      RecordVersion<T> head, String field, String what, Namespace ns) {
    if (head.removed()) {
      throw new NotFoundException(
          field, what + " was removed from " + ns + " at version " + head.version());
    }
    return head;
  }

  /**
   * The version {@code If-Match} names, if one. A tag that is no version number (a weak one, or one
   * this API never sent) matches no record, so the write is refused with 412 without asking the
   * engine.
   */
  private static Optional<Integer> expectedVersion(Exchange ex) {
    Optional<String> tag = Responses.ifMatch(ex);
    if (tag.isEmpty()) {
      return Optional.empty();
    }
    String v = tag.get();
    if (v.matches("[1-9][0-9]{0,8}")) {
      return Optional.of(Integer.parseInt(v));
    }
    throw new HttpProblem(
        412,
        "precondition-failed",
        "Precondition failed",
        v.equals("W/")
            ? "If-Match: a weak entity tag never matches (RFC 9110); send the ETag as last read"
            : "If-Match: '"
                + v
                + "' is no version of a node or edge; send the ETag of the record as last read",
        Optional.of("If-Match"));
  }
}
