package dev.loci.server.internal;

import dev.loci.Namespace;
import dev.loci.recall.ConsolidationReport;
import dev.loci.recall.MemoryPalace;
import dev.loci.recall.PalaceSpace;
import dev.loci.recall.PalaceWire;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.Route.Method;
import dev.loci.server.spi.Route.NamespaceAccess;
import dev.loci.server.spi.RouteSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * API v1 of the memory palace, under {@code /v1/ns/{ns}/}: spaces and their memories, one memory
 * with its type, space and lifecycle, feedback, consolidation and the lifecycle sweep, in the
 * {@link PalaceWire} format. Recall through the palace is {@code POST recall} ({@link
 * RecallRoutes}).
 */
public final class PalaceRoutes implements RouteSet {
  static final String SPACES = "/v1/ns/{ns}/spaces";

  private final MemoryPalace palace;

  /** Routes over {@code palace}. */
  public PalaceRoutes(MemoryPalace palace) {
    this.palace = palace;
  }

  @Override
  public List<Route> routes() {
    return List.of(
        Route.of(Method.GET, SPACES, Role.READER, NamespaceAccess.PATH, false, this::spaces),
        Route.of(
            Method.GET, SPACES + "/{id}", Role.READER, NamespaceAccess.PATH, false, this::space),
        Route.of(
            Method.GET,
            "/v1/ns/{ns}/memories-palace/{id}",
            Role.READER,
            NamespaceAccess.PATH,
            false,
            this::memory),
        Route.of(
            Method.POST,
            "/v1/ns/{ns}/feedback",
            Role.WRITER,
            NamespaceAccess.PATH,
            true,
            this::feedback),
        Route.of(
            Method.POST,
            "/v1/ns/{ns}/consolidate",
            Role.WRITER,
            NamespaceAccess.PATH,
            true,
            this::consolidate),
        Route.of(
            Method.POST,
            "/v1/ns/{ns}/lifecycle/sweep",
            Role.WRITER,
            NamespaceAccess.PATH,
            false,
            this::sweep));
  }

  private MemoryPalace as(Exchange ex) {
    return palace.as(ex.actor());
  }

  private void spaces(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Responses.items(ex, PalaceWire.writeSpaces(palace.spaces(ex.namespace())));
  }

  private void space(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Namespace ns = ex.namespace();
    PalaceSpace s = palace.space(ns, ex.pathParam("id"));
    ex.json(200, PalaceWire.writeSpace(s, palace.memoriesIn(ns, s.id())));
  }

  private void memory(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Namespace ns = ex.namespace();
    String id = ex.pathParam("id");
    ex.json(200, PalaceWire.writeMemory(palace.memory(ns, id), palace.transitions(ns, id)));
  }

  private void feedback(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ex.json(
        200,
        PalaceWire.writeFeedback(
            as(ex).feedback(ex.namespace(), PalaceWire.readFeedback(ex.body().text()))));
  }

  private void consolidate(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Optional<String> undo = PalaceWire.readConsolidate(ex.body().text());
    MemoryPalace p = as(ex);
    ConsolidationReport r =
        undo.isPresent()
            ? p.undoConsolidation(ex.namespace(), undo.get())
            : p.consolidate(ex.namespace());
    ex.json(200, PalaceWire.writeConsolidation(r));
  }

  private void sweep(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ex.json(200, PalaceWire.writeSweep(as(ex).sweep(ex.namespace())));
  }
}
