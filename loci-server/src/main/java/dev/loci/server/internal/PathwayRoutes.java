package dev.loci.server.internal;

import dev.loci.pathway.PathwayImportReport;
import dev.loci.pathway.PathwayMemory;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.PathwayWire;
import dev.loci.pathway.PathwayWrite;
import dev.loci.pathway.RedactionPolicy;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.JsonBody;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.Route.Method;
import dev.loci.server.spi.Route.NamespaceAccess;
import dev.loci.server.spi.RouteSet;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;

/**
 * API v1 of pathway memory (Pathway Memory Specification v1): one route per {@link PathwayMemory}
 * operation, under {@code /v1/ns/{ns}/pathway-...}, in the spec's snake_case wire format.
 *
 * <p>{@code list_versions}, the {@code state.json} export and every read with {@code
 * include_history=true} return superseded versions of a trace, whose free text may carry personal
 * data (spec sections 6.2 and 6.3), so they require {@link Role#LEGAL}: the server refuses them
 * when it has no credential configured, and the {@code LegalCapability} is issued to the presenting
 * token's id, which the journal records with every such read.
 */
public final class PathwayRoutes implements RouteSet {
  static final String TRACES = "/v1/ns/{ns}/pathway-traces";
  static final String TRACE = TRACES + "/{uid}";
  private static final Set<String> SCOPE_ONLY = Set.of("subtree");

  private final PathwayMemory pathways;

  /** Routes over {@code pathways}. */
  public PathwayRoutes(PathwayMemory pathways) {
    this.pathways = pathways;
  }

  @Override
  public List<Route> routes() {
    return List.of(
        Route.of(Method.POST, TRACES, Role.WRITER, NamespaceAccess.PATH, true, this::insert),
        Route.of(Method.GET, TRACE, Role.READER, NamespaceAccess.PATH, false, this::get),
        Route.of(
            Method.POST,
            TRACE + "/revisions",
            Role.WRITER,
            NamespaceAccess.PATH,
            true,
            this::revise),
        Route.of(
            Method.POST, TRACE + "/replays", Role.WRITER, NamespaceAccess.PATH, true, this::replay),
        Route.of(
            Method.GET,
            TRACE + "/versions",
            Role.LEGAL,
            NamespaceAccess.PATH,
            false,
            this::versions),
        Route.of(
            Method.GET,
            "/v1/ns/{ns}/pathway-hotswap",
            Role.READER,
            NamespaceAccess.PATH_OR_SUBTREE,
            false,
            this::hotswap),
        Route.of(
            Method.POST,
            "/v1/ns/{ns}/pathway-similar",
            Role.READER,
            NamespaceAccess.PATH_OR_SUBTREE,
            true,
            this::similar),
        Route.of(
            Method.GET,
            "/v1/ns/{ns}/pathways/{pathway_id}",
            Role.READER,
            NamespaceAccess.PATH_OR_SUBTREE,
            false,
            this::pathway),
        Route.of(
            Method.GET,
            "/v1/ns/{ns}/pathway-stats",
            Role.READER,
            NamespaceAccess.PATH_OR_SUBTREE,
            false,
            this::stats),
        Route.of(
            Method.GET,
            "/v1/ns/{ns}/pathway-state",
            Role.LEGAL,
            NamespaceAccess.PATH,
            false,
            this::exportState),
        Route.of(
            Method.PUT,
            "/v1/ns/{ns}/pathway-state",
            Role.ADMIN,
            NamespaceAccess.PATH,
            true,
            this::importState),
        Route.of(
            Method.GET,
            "/v1/ns/{ns}/pathway-redaction",
            Role.READER,
            NamespaceAccess.PATH,
            false,
            this::redaction),
        Route.of(
            Method.PUT,
            "/v1/ns/{ns}/pathway-redaction",
            Role.ADMIN,
            NamespaceAccess.PATH,
            true,
            this::setRedaction));
  }

  private PathwayMemory as(Exchange ex) {
    return pathways.as(ex.actor());
  }

  // ---------------------------------------------------------------- writes

  private void insert(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    written(ex, as(ex).insertJson(ex.namespace(), ex.body().text()));
  }

  private void revise(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    String fields = ex.body().text();
    written(ex, as(ex).reviseJson(ex.namespace(), ex.pathParam("uid"), fields));
  }

  private void replay(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body = ex.body().allowOnly(Set.of("succeeded"));
    boolean succeeded =
        body.bool("succeeded")
            .orElseThrow(
                () ->
                    HttpProblem.invalidField(
                        "succeeded", "succeeded: required, expected true or false, found nothing"));
    PathwayTrace t = as(ex).recordReplay(ex.namespace(), ex.pathParam("uid"), succeeded);
    ex.json(200, t.toJson());
  }

  private void importState(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    PathwayImportReport report;
    try (InputStream in = ex.bodyStream()) {
      report = as(ex).importRustState(ex.namespace(), in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ex.json(200, PathwayWire.write(report));
  }

  private void setRedaction(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body = ex.body().allowOnly(Set.of("enabled", "rules"));
    RedactionPolicy policy = RedactionPolicy.fromJson(body.text());
    RedactionPolicy set = as(ex).setRedactionPolicy(ex.namespace(), policy);
    ex.json(200, set.toJson());
  }

  // ---------------------------------------------------------------- reads

  private void get(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("include_history"));
    String uid = ex.pathParam("uid");
    PathwayTrace t =
        QueryParams.flag(ex, "include_history")
            ? pathways.get(ex.namespace(), uid, ex.legal("include_history"))
            : pathways.get(ex.namespace(), uid);
    ex.json(200, t.toJson());
  }

  private void versions(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    items(ex, pathways.listVersions(ex.namespace(), ex.pathParam("uid"), ex.legal("uid")));
  }

  private void hotswap(Exchange ex) {
    QueryParams.allowOnly(
        ex, Set.of("subtree", "task_class", "file_path", "signal_class", "k", "include_history"));
    String taskClass = QueryParams.require(ex, "task_class");
    String filePath = QueryParams.require(ex, "file_path");
    int k = QueryParams.integer(ex, "k").orElse(PathwayMemory.HOTSWAP_K);
    List<PathwayTrace> found =
        QueryParams.flag(ex, "include_history")
            ? pathways.queryForHotswap(
                ex.scope(),
                taskClass,
                filePath,
                ex.query("signal_class"),
                k,
                ex.legal("include_history"))
            : pathways.queryForHotswap(
                ex.scope(), taskClass, filePath, ex.query("signal_class"), k);
    items(ex, found);
  }

  private void similar(Exchange ex) {
    QueryParams.allowOnly(ex, SCOPE_ONLY);
    JsonBody body =
        ex.body().allowOnly(Set.of("pathway_vec", "k", "include_history", "include_retired"));
    float[] vec = PathwayWire.readVector(body.requireRaw("pathway_vec"));
    int k = body.integer("k").orElse(PathwayMemory.SIMILAR_K);
    boolean retired = body.bool("include_retired").orElse(false);
    items(
        ex,
        body.bool("include_history").orElse(false)
            ? pathways.queryByVec(ex.scope(), vec, k, retired, ex.legal("include_history"))
            : pathways.queryByVec(ex.scope(), vec, k, retired));
  }

  private void pathway(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("subtree", "include_history", "include_retired"));
    String id = ex.pathParam("pathway_id");
    boolean retired = QueryParams.flag(ex, "include_retired");
    items(
        ex,
        QueryParams.flag(ex, "include_history")
            ? pathways.pathway(ex.scope(), id, retired, ex.legal("include_history"))
            : pathways.pathway(ex.scope(), id, retired));
  }

  private void stats(Exchange ex) {
    QueryParams.allowOnly(ex, SCOPE_ONLY);
    ex.json(200, PathwayWire.write(pathways.stats(ex.scope())));
  }

  private void exportState(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    StringWriter out = new StringWriter();
    pathways.exportRustState(ex.namespace(), out);
    ex.json(200, out.toString());
  }

  private void redaction(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    RedactionPolicy policy = pathways.redactionPolicy(ex.namespace());
    ex.json(200, policy.toJson());
  }

  // ---------------------------------------------------------------- responses

  private static void items(Exchange ex, List<?> items) {
    Responses.items(ex, PathwayWire.write(items));
  }

  private static void written(Exchange ex, PathwayWrite w) {
    Responses.location(ex, ex.namespace(), "pathway-traces", w.trace().traceUid());
    ex.json(201, PathwayWire.write(w));
  }
}
