package dev.loci.server.internal;

import dev.loci.Namespace;
import dev.loci.Page;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.Traces;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.JsonBody;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.Route.Method;
import dev.loci.server.spi.Route.NamespaceAccess;
import dev.loci.server.spi.RouteSet;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * API v1 of the trace store: one route per {@link Traces} operation, under {@code
 * /v1/ns/{ns}/traces}. Every response that carries one trace also carries its {@link
 * Trace#version()} as a strong {@code ETag}; update, revise and retire honour {@code If-Match}, so
 * a stale write is refused (412) instead of overwriting a change unseen.
 */
public final class TraceRoutes implements RouteSet {
  static final String BASE = "/v1/ns/{ns}/traces";
  private static final Set<String> SEARCH_PARAMS =
      Set.of(
          "subtree",
          "tag",
          "contains",
          "created_from",
          "created_before",
          "include_retired",
          "limit",
          "cursor");

  private final Traces traces;
  private final int tagsPerTrace;

  /** Routes over {@code traces}, with the engine's bound on tags. */
  public TraceRoutes(Traces traces) {
    this(traces, dev.loci.internal.TraceLayer.MAX_TAGS);
  }

  /** Routes over {@code traces} that refuse a trace with more than {@code tagsPerTrace} tags. */
  public TraceRoutes(Traces traces, int tagsPerTrace) {
    this.traces = traces;
    this.tagsPerTrace = tagsPerTrace;
  }

  @Override
  public List<Route> routes() {
    return List.of(
        Route.of(Method.POST, BASE, Role.WRITER, NamespaceAccess.PATH, true, this::add),
        Route.of(
            Method.GET, BASE, Role.READER, NamespaceAccess.PATH_OR_SUBTREE, false, this::search),
        Route.of(
            Method.GET,
            "/v1/ns/{ns}/trace-count",
            Role.READER,
            NamespaceAccess.PATH_OR_SUBTREE,
            false,
            this::count),
        Route.of(Method.GET, BASE + "/{uid}", Role.READER, NamespaceAccess.PATH, false, this::get),
        Route.of(
            Method.PUT,
            BASE + "/{uid}",
            Role.WRITER,
            NamespaceAccess.PATH,
            true,
            this::addIdempotent),
        Route.of(
            Method.PATCH, BASE + "/{uid}", Role.WRITER, NamespaceAccess.PATH, true, this::update),
        Route.of(
            Method.POST,
            BASE + "/{uid}/revisions",
            Role.WRITER,
            NamespaceAccess.PATH,
            true,
            this::revise),
        Route.of(
            Method.POST,
            BASE + "/{uid}/retire",
            Role.WRITER,
            NamespaceAccess.PATH,
            false,
            this::retire),
        Route.of(
            Method.GET,
            BASE + "/{uid}/history",
            Role.LEGAL,
            NamespaceAccess.PATH,
            false,
            this::history));
  }

  private Traces as(Exchange ex) {
    return traces.as(ex.actor());
  }

  private List<String> tags(JsonBody body) {
    List<String> tags = body.strings("tags").orElse(List.of());
    if (tags.size() > tagsPerTrace) {
      throw new HttpProblem(
          422,
          "limit-exceeded",
          "Limit exceeded",
          "tags: expected at most "
              + tagsPerTrace
              + " tags (limits.tags_per_trace), found "
              + tags.size(),
          Optional.of("tags"));
    }
    return tags;
  }

  private void add(Exchange ex) {
    JsonBody body = ex.body().allowOnly(Set.of("content", "tags", "uid"));
    String content = body.requireRaw("content");
    List<String> tags = tags(body);
    Optional<String> uid = body.string("uid");
    Namespace ns = ex.namespace();
    Trace t =
        uid.isPresent()
            ? as(ex).addNew(ns, uid.get(), content, tags)
            : as(ex).add(ns, content, tags);
    created(ex, t);
  }

  private void addIdempotent(Exchange ex) {
    JsonBody body = ex.body().allowOnly(Set.of("content", "tags"));
    Trace t =
        as(ex)
            .addIdempotent(
                ex.namespace(), ex.pathParam("uid"), body.requireRaw("content"), tags(body));
    if (t.replayCount() == 1) {
      created(ex, t);
    } else {
      // AddIdempotent (ADR-004) keeps the existing trace: say so, and whether the sent content was
      // different, so a client cannot mistake the answer for a stored change
      ex.responseHeader("Loci-Kept", "existing");
      ex.responseHeader(
          "Loci-Content-Differs",
          Boolean.toString(!t.content().equals(compact(body.requireRaw("content")))));
      one(ex, 200, t);
    }
  }

  private static String compact(String content) {
    return dev.loci.internal.Json.compactValue(content, "content");
  }

  private void update(Exchange ex) {
    String content = ex.body().allowOnly(Set.of("content")).requireRaw("content");
    Namespace ns = ex.namespace();
    String uid = ex.pathParam("uid");
    Optional<String> expected = Responses.ifMatch(ex);
    Trace t =
        expected.isPresent()
            ? as(ex).update(ns, uid, content, expected.get())
            : as(ex).update(ns, uid, content);
    one(ex, 200, t);
  }

  private void revise(Exchange ex) {
    JsonBody body = ex.body().allowOnly(Set.of("content", "tags"));
    String content = body.requireRaw("content");
    List<String> tags = tags(body);
    Namespace ns = ex.namespace();
    String uid = ex.pathParam("uid");
    Optional<String> expected = Responses.ifMatch(ex);
    Trace t =
        expected.isPresent()
            ? as(ex).revise(ns, uid, content, tags, expected.get())
            : as(ex).revise(ns, uid, content, tags);
    created(ex, t);
  }

  private void retire(Exchange ex) {
    Namespace ns = ex.namespace();
    String uid = ex.pathParam("uid");
    Optional<String> expected = Responses.ifMatch(ex);
    Trace t =
        expected.isPresent() ? as(ex).retire(ns, uid, expected.get()) : as(ex).retire(ns, uid);
    one(ex, 200, t);
  }

  private void get(Exchange ex) {
    one(ex, 200, traces.get(ex.namespace(), ex.pathParam("uid")));
  }

  private void history(Exchange ex) {
    List<Trace> chain = traces.history(ex.namespace(), ex.pathParam("uid"), ex.legal("uid"));
    Responses.items(ex, array(chain));
  }

  private void search(Exchange ex) {
    QueryParams.allowOnly(ex, SEARCH_PARAMS);
    TraceQuery.Builder q =
        TraceQuery.in(ex.scope())
            .tags(ex.queries("tag"))
            .includeRetired(QueryParams.flag(ex, "include_retired"));
    ex.query("contains").ifPresent(q::contentContains);
    ex.query("created_from").ifPresent(v -> q.createdFrom(instant(v, "created_from")));
    ex.query("created_before").ifPresent(v -> q.createdBefore(instant(v, "created_before")));
    QueryParams.integer(ex, "limit").ifPresent(q::limit);
    ex.query("cursor").ifPresent(q::cursor);
    Page<Trace> page = traces.search(q.build());
    Responses.page(ex, array(page.items()), page.nextCursor());
  }

  private void count(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("subtree"));
    long n = traces.count(ex.scope());
    ex.json(200, "{\"scope\":\"" + ex.scope() + "\",\"count\":" + n + "}");
  }

  private static String array(List<Trace> traces) {
    StringBuilder sb = new StringBuilder(256 * (traces.size() + 1)).append('[');
    for (int i = 0; i < traces.size(); i++) {
      traces.get(i).appendJson(i == 0 ? sb : sb.append(','));
    }
    return sb.append(']').toString();
  }

  private static void one(Exchange ex, int status, Trace t) {
    ex.responseHeader("ETag", Responses.etag(t.version()));
    ex.json(status, t.toJson());
  }

  private static void created(Exchange ex, Trace t) {
    Responses.location(ex, t.namespace(), "traces", t.uid());
    one(ex, 201, t);
  }

  private static Instant instant(String v, String field) {
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException e) {
      throw HttpProblem.invalidField(
          field,
          field
              + ": expected an RFC 3339 UTC time such as 2026-11-22T10:00:00Z, found '"
              + v
              + "'");
    }
  }
}
