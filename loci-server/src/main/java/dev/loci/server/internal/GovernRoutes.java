package dev.loci.server.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.govern.Conflict;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityWire;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.GovernWire;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Provenance;
import dev.loci.govern.Reviewer;
import dev.loci.govern.StateEntry;
import dev.loci.govern.Written;
import dev.loci.internal.Json;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.JsonBody;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.Route.Method;
import dev.loci.server.spi.Route.NamespaceAccess;
import dev.loci.server.spi.RouteSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * API v1 of governed memory: memories, the review queue, conflicts, trusted project state and
 * context packs, under {@code /v1/ns/{ns}/}. Reads need {@code reader}, proposals and reinforcement
 * {@code writer}, and every act that makes a record trusted or untrusted {@code reviewer}, whose
 * token id is recorded as the decision's holder.
 */
public final class GovernRoutes implements RouteSet {
  static final String MEMORIES = "/v1/ns/{ns}/memories";
  static final String MEMORY = MEMORIES + "/{memory_id}";
  static final String CANDIDATES = "/v1/ns/{ns}/candidates";
  static final String CONFLICTS = "/v1/ns/{ns}/conflicts";
  static final String STATE = "/v1/ns/{ns}/project-state";

  private static final Set<String> MEMORY_FIELDS =
      Set.of("type", "content", "confidence", "subject_ids", "status", "slot");

  private final GovernedMemory governed;

  /** Routes over {@code governed}. */
  public GovernRoutes(GovernedMemory governed) {
    this.governed = governed;
  }

  @Override
  public List<Route> routes() {
    return List.of(
        route(Method.POST, MEMORIES, Role.WRITER, true, this::addMemory),
        route(Method.GET, MEMORIES, Role.READER, false, this::listMemories),
        route(Method.GET, MEMORY, Role.READER, false, this::getMemory),
        route(Method.POST, MEMORY + "/reinforce", Role.WRITER, false, this::reinforce),
        route(Method.POST, MEMORY + "/promote", Role.REVIEWER, false, this::promote),
        route(Method.POST, MEMORY + "/reject", Role.REVIEWER, true, this::reject),
        route(Method.POST, MEMORY + "/invalidate", Role.REVIEWER, true, this::invalidate),
        route(Method.POST, MEMORY + "/supersede", Role.REVIEWER, true, this::supersede),
        route(Method.GET, CANDIDATES, Role.READER, false, this::candidates),
        route(
            Method.POST,
            CANDIDATES + "/{memory_id}/promote",
            Role.REVIEWER,
            false,
            this::promoteCandidate),
        route(
            Method.POST,
            CANDIDATES + "/{memory_id}/reject",
            Role.REVIEWER,
            true,
            this::rejectCandidate),
        route(Method.GET, CONFLICTS, Role.READER, false, this::conflicts),
        route(Method.POST, CONFLICTS + "/sweep", Role.WRITER, false, this::sweep),
        route(
            Method.POST, CONFLICTS + "/{conflict_id}/resolve", Role.REVIEWER, true, this::resolve),
        route(
            Method.POST, CONFLICTS + "/{conflict_id}/dismiss", Role.REVIEWER, false, this::dismiss),
        route(Method.GET, STATE, Role.READER, false, this::allState),
        route(Method.GET, STATE + "/{key}", Role.READER, false, this::getState),
        route(Method.PUT, STATE + "/{key}", Role.REVIEWER, true, this::putState),
        route(Method.DELETE, STATE + "/{key}", Role.REVIEWER, false, this::deleteState),
        route(Method.POST, "/v1/ns/{ns}/context", Role.READER, true, this::context));
  }

  static Route route(Method method, String path, Role role, boolean body, Route.Handler handler) {
    return Route.of(method, path, role, NamespaceAccess.PATH, body, handler);
  }

  private GovernedMemory as(Exchange ex) {
    return governed.as(ex.actor());
  }

  private static Reviewer reviewer(Exchange ex) {
    return ReviewRequests.reviewer(ex);
  }

  // ---------------------------------------------------------------- memories

  private void addMemory(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body = ex.body().allowOnly(MEMORY_FIELDS);
    MemoryType type = MemoryType.of(body.string("type").orElse(null), "type");
    MemoryStatus status =
        MemoryStatus.of(body.string("status").orElse(MemoryStatus.CANDIDATE.label()), "status");
    MemoryDraft draft =
        new MemoryDraft(
            type,
            body.string("content").orElse(null),
            confidence(body),
            body.string("slot"),
            body.strings("subject_ids").orElse(List.of()),
            Provenance.of(ex.actor()));
    Written w =
        ReviewRequests.created(
            ex,
            "a memory",
            status.label(),
            () -> as(ex).add(ex.namespace(), draft, reviewer(ex)),
            () -> as(ex).propose(ex.namespace(), draft));
    Responses.location(ex, ex.namespace(), "memories", w.memory().id());
    ex.json(201, Json.write(GovernWire.written(w)));
  }

  static double confidence(JsonBody body) {
    Optional<String> raw = body.rawValue("confidence");
    if (raw.isEmpty()) {
      return 0.5;
    }
    try {
      return Double.parseDouble(raw.get());
    } catch (NumberFormatException e) {
      throw new InvalidRequestException(
          "confidence", "expected a number from 0 to 1, found " + raw.get());
    }
  }

  private void listMemories(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("type", "status"));
    Optional<MemoryType> type = ex.query("type").map(t -> MemoryType.of(t, "type"));
    Optional<MemoryStatus> status = ex.query("status").map(s -> MemoryStatus.of(s, "status"));
    items(ex, governed.list(ex.namespace(), type, status));
  }

  private void getMemory(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    List<Memory> history = governed.history(ex.namespace(), ex.pathParam("memory_id"));
    ObjectNode node = GovernWire.memory(history.get(0));
    ArrayNode versions = node.putArray("history");
    history.forEach(m -> versions.add(GovernWire.memory(m)));
    ex.json(200, Json.write(node));
  }

  private void reinforce(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ex.json(
        200,
        Json.write(GovernWire.memory(as(ex).reinforce(ex.namespace(), ex.pathParam("memory_id")))));
  }

  private void promote(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Written w = as(ex).promote(ex.namespace(), ex.pathParam("memory_id"), reviewer(ex));
    ex.json(200, Json.write(GovernWire.written(w)));
  }

  private void reject(Exchange ex) {
    String reason = ReviewRequests.reason(ex);
    Memory m = as(ex).reject(ex.namespace(), ex.pathParam("memory_id"), reason, reviewer(ex));
    ex.json(200, Json.write(GovernWire.memory(m)));
  }

  private void invalidate(Exchange ex) {
    String reason = ReviewRequests.reason(ex);
    Memory m = as(ex).invalidate(ex.namespace(), ex.pathParam("memory_id"), reason, reviewer(ex));
    ex.json(200, Json.write(GovernWire.memory(m)));
  }

  private void supersede(Exchange ex) {
    String by = ReviewRequests.successor(ex, "memory");
    Written w = as(ex).supersede(ex.namespace(), ex.pathParam("memory_id"), by, reviewer(ex));
    ex.json(200, Json.write(GovernWire.written(w)));
  }

  private void candidates(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ArrayNode items = Json.MAPPER.createArrayNode();
    governed.queue(ex.namespace()).forEach(c -> items.add(EntityWire.candidate(c)));
    Responses.items(ex, Json.write(items));
  }

  private void promoteCandidate(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Object w = as(ex).promoteCandidate(ex.namespace(), ex.pathParam("memory_id"), reviewer(ex));
    ex.json(200, Json.write(writeJson(w)));
  }

  private void rejectCandidate(Exchange ex) {
    String reason = ReviewRequests.reason(ex);
    Object r =
        as(ex).rejectCandidate(ex.namespace(), ex.pathParam("memory_id"), reason, reviewer(ex));
    ex.json(200, Json.write(writeJson(r)));
  }

  private static ObjectNode writeJson(Object result) {
    if (result instanceof Written w) {
      return GovernWire.written(w);
    }
    if (result instanceof EntityWritten w) {
      return EntityWire.written(w);
    }
    if (result instanceof Entity e) {
      return EntityWire.entity(e);
    }
    return GovernWire.memory((Memory) result);
  }

  // ---------------------------------------------------------------- conflicts

  private void conflicts(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("status"));
    Optional<Conflict.Status> status = ex.query("status").map(GovernRoutes::conflictStatus);
    ArrayNode items = Json.MAPPER.createArrayNode();
    governed.conflicts(ex.namespace(), status).forEach(c -> items.add(GovernWire.conflict(c)));
    Responses.items(ex, Json.write(items));
  }

  private static Conflict.Status conflictStatus(String text) {
    for (Conflict.Status s : Conflict.Status.values()) {
      if (s.label().equals(text)) {
        return s;
      }
    }
    throw new InvalidRequestException(
        "status", "expected open, resolved or dismissed, found '" + text + "'");
  }

  private void sweep(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ArrayNode items = Json.MAPPER.createArrayNode();
    as(ex).sweep(ex.namespace()).forEach(c -> items.add(GovernWire.conflict(c)));
    Responses.items(ex, Json.write(items));
  }

  private void resolve(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    String winner =
        ex.body()
            .allowOnly(Set.of("winner"))
            .string("winner")
            .orElseThrow(
                () -> new InvalidRequestException("winner", "expected the member to keep"));
    Conflict c = as(ex).resolve(ex.namespace(), ex.pathParam("conflict_id"), winner, reviewer(ex));
    ex.json(200, Json.write(GovernWire.conflict(c)));
  }

  private void dismiss(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    Conflict c = as(ex).dismiss(ex.namespace(), ex.pathParam("conflict_id"), reviewer(ex));
    ex.json(200, Json.write(GovernWire.conflict(c)));
  }

  // ---------------------------------------------------------------- project state

  private void allState(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ArrayNode items = Json.MAPPER.createArrayNode();
    governed.state(ex.namespace()).values().stream()
        .sorted(java.util.Comparator.comparing(StateEntry::key))
        .forEach(e -> items.add(GovernWire.state(e)));
    Responses.items(ex, Json.write(items));
  }

  private void getState(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    String key = ex.pathParam("key");
    StateEntry e =
        governed
            .state(ex.namespace(), key)
            .orElseThrow(
                () ->
                    new dev.loci.NotFoundException(
                        "key", "no project state '" + key + "' in " + ex.namespace()));
    ex.json(200, Json.write(GovernWire.state(e)));
  }

  private void putState(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    String value = ex.body().allowOnly(Set.of("value")).string("value").orElse(null);
    StateEntry e = as(ex).setState(ex.namespace(), ex.pathParam("key"), value, reviewer(ex));
    ex.json(200, Json.write(GovernWire.state(e)));
  }

  private void deleteState(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    StateEntry e = as(ex).deleteState(ex.namespace(), ex.pathParam("key"), reviewer(ex));
    ex.json(200, Json.write(GovernWire.state(e)));
  }

  // ---------------------------------------------------------------- context

  private void context(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body = ex.body().allowOnly(Set.of("prompt", "budget_tokens"));
    ContextPack pack =
        governed.context(
            ex.namespace(),
            body.string("prompt").orElse(null),
            body.integer("budget_tokens")
                .orElseThrow(
                    () ->
                        new InvalidRequestException(
                            "budget_tokens", "expected the token budget, 1 or more")));
    ex.json(200, Json.write(GovernWire.contextPack(pack)));
  }

  // ---------------------------------------------------------------- wire

  private static void items(Exchange ex, List<Memory> memories) {
    ArrayNode items = Json.MAPPER.createArrayNode();
    memories.forEach(m -> items.add(GovernWire.memory(m)));
    Responses.items(ex, Json.write(items));
  }
}
