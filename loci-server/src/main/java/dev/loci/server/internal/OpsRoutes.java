package dev.loci.server.internal;

import dev.loci.Loci;
import dev.loci.govern.GovernedMemory;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.Route.Method;
import dev.loci.server.spi.Route.NamespaceAccess;
import dev.loci.server.spi.RouteSet;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The operator's routes: {@code /health} (open to anyone, for load balancers), {@code /metrics}
 * (Prometheus text, admin), {@code POST /v1/admin/resume} (admin: take writes again after a storage
 * failure stopped them) and the OpenAPI document {@code /v1/openapi.json} (any credential). Both
 * health and metrics say {@code degraded}, with the reason, while writes are refused.
 */
public final class OpsRoutes implements RouteSet {
  /** Where the OpenAPI document lives on the class path. */
  public static final String OPENAPI_RESOURCE = "/dev/loci/server/openapi.json";

  private final Loci loci;
  private final Metrics metrics;
  private final GovernedMemory governed;
  private final long startNanos = System.nanoTime();
  private final String openapi;

  /** The routes for {@code loci}, reporting {@code metrics}. */
  public OpsRoutes(Loci loci, Metrics metrics) {
    this.loci = loci;
    this.metrics = metrics;
    this.governed = GovernedMemory.of(loci);
    this.openapi = openApiDocument();
    metrics.gauge(
        "loci_traces",
        "Traces stored, retired ones included, in every namespace.",
        () -> loci.traces().total());
    metrics.gauge(
        "loci_journal_seq", "Sequence number of the last journal batch applied.", loci::lastSeq);
    metrics.gauge(
        "loci_open_conflicts",
        "Open conflicts of governed memory, in every namespace, waiting for a reviewer.",
        governed::openConflicts);
    metrics.gauge(
        "loci_journal_lag",
        "Batches in the shared journal (PostgreSQL) not yet applied here; 0 for a file journal.",
        () -> Math.max(0, loci.sharedHead().orElse(0) - loci.lastSeq()));
    metrics.gauge(
        "loci_degraded",
        "1 while writes are refused (a full disk, an unreachable database, writes stopped after a"
            + " failure; loci_degraded_info says why), else 0.",
        () -> loci.unavailable().isPresent() ? 1 : 0);
    metrics.gauge("loci_uptime_seconds", "Seconds since the server started.", this::uptimeSeconds);
  }

  /** The OpenAPI document served at {@code /v1/openapi.json}. */
  public static String openApiDocument() {
    try (InputStream in = OpsRoutes.class.getResourceAsStream(OPENAPI_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(OPENAPI_RESOURCE + " is missing from the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public List<Route> routes() {
    return List.of(
        Route.open(Method.GET, "/health", this::health),
        Route.of(Method.GET, "/metrics", Role.ADMIN, NamespaceAccess.NONE, false, this::metrics),
        Route.of(
            Method.POST, "/v1/admin/resume", Role.ADMIN, NamespaceAccess.NONE, false, this::resume),
        Route.of(
            Method.GET,
            "/v1/openapi.json",
            Role.READER,
            NamespaceAccess.NONE,
            false,
            ex -> ex.json(200, openapi)));
  }

  private long uptimeSeconds() {
    return (System.nanoTime() - startNanos) / 1_000_000_000L;
  }

  private void health(Exchange ex) {
    long applied = loci.lastSeq();
    OptionalLong head = loci.sharedHead();
    Optional<String> unavailable = loci.unavailable();
    ex.json(
        200,
        "{\"status\":\""
            + (unavailable.isPresent() ? "degraded" : "ok")
            + "\""
            + unavailable.map(r -> ",\"reason\":" + dev.loci.internal.Json.quote(r)).orElse("")
            + ",\"journal_seq\":"
            + applied
            + (head.isPresent()
                ? ",\"journal_head\":"
                    + head.getAsLong()
                    + ",\"journal_lag\":"
                    + Math.max(0, head.getAsLong() - applied)
                : "")
            + ",\"open_conflicts_count\":"
            + governed.openConflicts()
            + ",\"uptime_seconds\":"
            + uptimeSeconds()
            + "}");
  }

  /** Tries to take writes again; 503 with the reason while they are still refused. */
  private void resume(Exchange ex) {
    Optional<String> still = loci.resume();
    if (still.isPresent()) {
      throw new HttpProblem(
          503,
          "writes-refused",
          "Writes refused",
          "writes are still refused: " + still.get(),
          Optional.empty());
    }
    ex.json(200, "{\"status\":\"ok\"}");
  }

  private void metrics(Exchange ex) {
    String scrape = metrics.scrape();
    Optional<String> why = loci.unavailable();
    if (why.isPresent()) {
      String label = why.get().replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
      scrape +=
          "# HELP loci_degraded_info Why writes are refused, while they are.\n"
              + "# TYPE loci_degraded_info gauge\n"
              + "loci_degraded_info{reason=\""
              + label
              + "\"} 1\n";
    }
    ex.respond(200, "text/plain; version=0.0.4; charset=utf-8", scrape);
  }
}
