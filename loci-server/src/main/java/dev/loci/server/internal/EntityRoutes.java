package dev.loci.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityType;
import dev.loci.govern.EntityWire;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.Extraction;
import dev.loci.govern.ExtractionChunk;
import dev.loci.govern.GovernWire;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.govern.Provenance;
import dev.loci.govern.RelationType;
import dev.loci.govern.Reviewer;
import dev.loci.govern.SourceRef;
import dev.loci.govern.spi.ExtractionTarget;
import dev.loci.internal.Json;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.JsonBody;
import dev.loci.server.spi.Route;
import dev.loci.server.spi.Route.Method;
import dev.loci.server.spi.RouteSet;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * API v1 of governed entities, interactions and extraction under {@code /v1/ns/{ns}/}: entities and
 * their relationships, interaction capture and explicit extraction, ingestion-wave extraction,
 * memory graduation and the namespace's governance settings. Reads need {@code reader}; proposals,
 * captures and relationships {@code writer}; every act that makes a record trusted, and settings,
 * {@code reviewer}.
 */
public final class EntityRoutes implements RouteSet {
  static final String ENTITIES = "/v1/ns/{ns}/entities";
  static final String ENTITY = ENTITIES + "/{entity_id}";
  static final String INTERACTIONS = "/v1/ns/{ns}/interactions";

  private static final Set<String> ENTITY_FIELDS =
      Set.of("type", "name", "fields", "confidence", "sources", "status", "subject_ids");

  private final GovernedMemory governed;
  private final GovernedEntities entities;
  private final GovernedRecall recall;

  /**
   * Routes over {@code governed} and {@code entities}; waves read ingested nodes from {@code
   * recall}.
   */
  public EntityRoutes(GovernedMemory governed, GovernedEntities entities, GovernedRecall recall) {
    this.governed = governed;
    this.entities = entities;
    this.recall = recall;
  }

  @Override
  public List<Route> routes() {
    return List.of(
        route(Method.POST, ENTITIES, Role.WRITER, true, this::addEntity),
        route(Method.GET, ENTITIES, Role.READER, false, this::listEntities),
        route(Method.GET, ENTITY, Role.READER, false, this::getEntity),
        route(Method.POST, ENTITY + "/relationships", Role.WRITER, true, this::relate),
        route(Method.POST, ENTITY + "/promote", Role.REVIEWER, false, this::promote),
        route(Method.POST, ENTITY + "/reject", Role.REVIEWER, true, this::reject),
        route(Method.POST, ENTITY + "/invalidate", Role.REVIEWER, true, this::invalidate),
        route(Method.POST, ENTITY + "/supersede", Role.REVIEWER, true, this::supersede),
        route(Method.POST, ENTITY + "/fields", Role.REVIEWER, true, this::update),
        route(Method.POST, INTERACTIONS, Role.WRITER, true, this::capture),
        route(
            Method.GET, INTERACTIONS + "/{interaction_id}", Role.READER, false, this::interaction),
        route(
            Method.POST,
            INTERACTIONS + "/{interaction_id}/extract",
            Role.WRITER,
            false,
            this::extract),
        route(Method.POST, "/v1/ns/{ns}/extraction-waves", Role.WRITER, true, this::wave),
        route(Method.POST, GovernRoutes.MEMORY + "/graduate", Role.WRITER, false, this::graduate),
        route(Method.GET, "/v1/ns/{ns}/governance", Role.READER, false, this::settings),
        route(Method.PUT, "/v1/ns/{ns}/governance", Role.REVIEWER, true, this::putSettings));
  }

  private static Route route(
      Method method, String path, Role role, boolean body, Route.Handler handler) {
    return GovernRoutes.route(method, path, role, body, handler);
  }

  private static Reviewer reviewer(Exchange ex) {
    return ReviewRequests.reviewer(ex);
  }

  // ---------------------------------------------------------------- entities

  private void addEntity(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body = ex.body().allowOnly(ENTITY_FIELDS);
    EntityType type = EntityType.of(body.string("type").orElse(null), "type");
    EntityStatus status =
        EntityStatus.of(body.string("status").orElse(EntityStatus.CANDIDATE.label()), "status");
    EntityDraft draft =
        new EntityDraft(
            type,
            body.string("name").orElse(null),
            fields(body),
            GovernRoutes.confidence(body),
            sources(body),
            Provenance.of(ex.actor()),
            Optional.empty(),
            body.strings("subject_ids").orElse(List.of()));
    EntityWritten w =
        ReviewRequests.created(
            ex,
            "an entity",
            status.label(),
            () -> entities.as(ex.actor()).add(ex.namespace(), draft, reviewer(ex)),
            () -> entities.as(ex.actor()).propose(ex.namespace(), draft));
    Responses.location(ex, ex.namespace(), "entities", w.entity().id());
    ex.json(201, Json.write(EntityWire.written(w)));
  }

  private static Map<String, String> fields(JsonBody body) {
    Map<String, String> out = new LinkedHashMap<>();
    Optional<String> raw = body.rawValue("fields");
    if (raw.isEmpty()) {
      return out;
    }
    JsonNode n = parse(raw.get(), "fields");
    if (!n.isObject()) {
      throw new InvalidRequestException(
          "fields", "expected an object of field names to string values, found " + n.getNodeType());
    }
    n.fields()
        .forEachRemaining(
            f -> {
              if (!f.getValue().isTextual()) {
                throw new InvalidRequestException(
                    "fields", "expected field '" + f.getKey() + "' to be a string");
              }
              out.put(f.getKey(), f.getValue().asText());
            });
    return out;
  }

  private static List<SourceRef> sources(JsonBody body) {
    List<SourceRef> out = new ArrayList<>();
    Optional<String> raw = body.rawValue("sources");
    if (raw.isEmpty()) {
      return out;
    }
    JsonNode n = parse(raw.get(), "sources");
    if (!n.isArray()) {
      throw new InvalidRequestException(
          "sources", "expected an array of {\"kind\", \"id\"} objects, found " + n.getNodeType());
    }
    for (JsonNode s : n) {
      if (!s.path("kind").isTextual() || !s.path("id").isTextual()) {
        throw new InvalidRequestException(
            "sources", "expected each source as {\"kind\", \"id\"} with string values");
      }
      out.add(new SourceRef(s.get("kind").asText(), s.get("id").asText()));
    }
    return out;
  }

  private static JsonNode parse(String raw, String field) {
    try {
      return Json.MAPPER.readTree(raw);
    } catch (java.io.IOException e) {
      throw new InvalidRequestException(field, "expected JSON, found " + raw);
    }
  }

  private void listEntities(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("type", "status"));
    Optional<EntityType> type = ex.query("type").map(t -> EntityType.of(t, "type"));
    Optional<EntityStatus> status = ex.query("status").map(s -> EntityStatus.of(s, "status"));
    ArrayNode items = Json.MAPPER.createArrayNode();
    entities.list(ex.namespace(), type, status).forEach(e -> items.add(EntityWire.entity(e)));
    Responses.items(ex, Json.write(items));
  }

  private void getEntity(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    List<Entity> history = entities.history(ex.namespace(), ex.pathParam("entity_id"));
    ObjectNode node = EntityWire.entity(history.get(0));
    ArrayNode versions = node.putArray("history");
    history.forEach(e -> versions.add(EntityWire.entity(e)));
    ex.json(200, Json.write(node));
  }

  private void relate(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body = ex.body().allowOnly(Set.of("type", "target"));
    RelationType type = RelationType.of(body.string("type").orElse(null), "type");
    String target =
        body.string("target")
            .orElseThrow(() -> new InvalidRequestException("target", "expected the target id"));
    Entity e =
        entities.as(ex.actor()).relate(ex.namespace(), ex.pathParam("entity_id"), type, target);
    ex.json(200, Json.write(EntityWire.entity(e)));
  }

  private void promote(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    EntityWritten w =
        entities.as(ex.actor()).promote(ex.namespace(), ex.pathParam("entity_id"), reviewer(ex));
    ex.json(200, Json.write(EntityWire.written(w)));
  }

  private void reject(Exchange ex) {
    String reason = ReviewRequests.reason(ex);
    Entity e =
        entities
            .as(ex.actor())
            .reject(ex.namespace(), ex.pathParam("entity_id"), reason, reviewer(ex));
    ex.json(200, Json.write(EntityWire.entity(e)));
  }

  private void invalidate(Exchange ex) {
    String reason = ReviewRequests.reason(ex);
    Entity e =
        entities
            .as(ex.actor())
            .invalidate(ex.namespace(), ex.pathParam("entity_id"), reason, reviewer(ex));
    ex.json(200, Json.write(EntityWire.entity(e)));
  }

  private void supersede(Exchange ex) {
    String by = ReviewRequests.successor(ex, "entity");
    EntityWritten w =
        entities
            .as(ex.actor())
            .supersede(ex.namespace(), ex.pathParam("entity_id"), by, reviewer(ex));
    ex.json(200, Json.write(EntityWire.written(w)));
  }

  private void update(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body = ex.body().allowOnly(Set.of("fields"));
    EntityWritten w =
        entities
            .as(ex.actor())
            .update(ex.namespace(), ex.pathParam("entity_id"), fields(body), reviewer(ex));
    ex.json(200, Json.write(EntityWire.written(w)));
  }

  // ---------------------------------------------------------------- interactions

  private void capture(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("target"));
    JsonBody body = ex.body().allowOnly(Set.of("text", "speaker", "time", "subject_ids"));
    Optional<Instant> said = body.string("time").map(EntityRoutes::instant);
    Extraction x =
        governed
            .as(ex.actor())
            .capture(
                ex.namespace(),
                body.string("text").orElse(null),
                body.string("speaker").orElse(null),
                said,
                body.strings("subject_ids").orElse(List.of()),
                target(ex));
    x.interaction().ifPresent(i -> Responses.location(ex, ex.namespace(), "interactions", i.id()));
    ex.json(201, Json.write(EntityWire.extraction(x)));
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new InvalidRequestException(
          "time",
          "expected an ISO-8601 instant such as 2026-04-06T21:30:00Z, found '" + text + "'");
    }
  }

  private static ExtractionTarget target(Exchange ex) {
    return ExtractionTarget.of(ex.query("target").orElse("both"), "target");
  }

  private void interaction(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ex.json(
        200,
        Json.write(
            EntityWire.interaction(
                governed.interaction(ex.namespace(), ex.pathParam("interaction_id")))));
  }

  private void extract(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("target"));
    Extraction x =
        governed.as(ex.actor()).extract(ex.namespace(), ex.pathParam("interaction_id"), target(ex));
    ex.json(200, Json.write(EntityWire.extraction(x)));
  }

  private void wave(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of("target"));
    JsonBody body = ex.body().allowOnly(Set.of("chunks", "documents"));
    if (body.rawValue("documents").isPresent()) {
      if (body.rawValue("chunks").isPresent()) {
        throw new InvalidRequestException(
            "documents", "expected either \"chunks\" or \"documents\", found both");
      }
      List<String> docs = body.strings("documents").orElseThrow();
      Extraction x = recall.extractIngested(ex.namespace(), docs, target(ex));
      ex.json(200, Json.write(EntityWire.extraction(x)));
      return;
    }
    JsonNode n = parse(body.requireRaw("chunks"), "chunks");
    if (!n.isArray() || n.size() > 1_000) {
      throw new InvalidRequestException(
          "chunks", "expected an array of 1 to 1000 {\"id\", \"document\", \"text\"} objects");
    }
    List<ExtractionChunk> chunks = new ArrayList<>();
    for (JsonNode c : n) {
      if (!c.path("id").isTextual() || !c.path("text").isTextual()) {
        throw new InvalidRequestException(
            "chunks",
            "expected each chunk as {\"id\", \"text\"} strings, \"document\" and"
                + " \"subject_ids\" optional");
      }
      Optional<String> doc =
          c.path("document").isTextual()
              ? Optional.of(c.get("document").asText())
              : Optional.empty();
      List<String> subjects = new ArrayList<>();
      if (c.has("subject_ids")) {
        if (!c.get("subject_ids").isArray()) {
          throw new InvalidRequestException(
              "chunks", "expected each chunk's subject_ids as an array of strings");
        }
        c.get("subject_ids").forEach(x -> subjects.add(x.asText()));
      }
      chunks.add(new ExtractionChunk(c.get("id").asText(), doc, c.get("text").asText(), subjects));
    }
    Extraction x = governed.as(ex.actor()).extractWave(ex.namespace(), chunks, target(ex));
    ex.json(200, Json.write(EntityWire.extraction(x)));
  }

  private void graduate(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ex.json(
        200,
        Json.write(
            GovernWire.memory(
                governed.as(ex.actor()).graduate(ex.namespace(), ex.pathParam("memory_id")))));
  }

  // ---------------------------------------------------------------- settings

  private void settings(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    ex.json(200, Json.write(settingsJson(governed.settings(ex.namespace()))));
  }

  private void putSettings(Exchange ex) {
    QueryParams.allowOnly(ex, Set.of());
    JsonBody body =
        ex.body()
            .allowOnly(Set.of(GovernedMemory.ENTITIES_CANONICAL, GovernedMemory.EXTRACT_ON_INGEST));
    Optional<Boolean> canonical = body.bool(GovernedMemory.ENTITIES_CANONICAL);
    Optional<String> extract = body.string(GovernedMemory.EXTRACT_ON_INGEST);
    if (canonical.isEmpty() && extract.isEmpty()) {
      throw new InvalidRequestException(
          GovernedMemory.ENTITIES_CANONICAL,
          "expected "
              + GovernedMemory.ENTITIES_CANONICAL
              + " (true or false) or "
              + GovernedMemory.EXTRACT_ON_INGEST
              + " (off, memory, entities or both)");
    }
    GovernedMemory g = governed.as(ex.actor());
    // checked first: a bad value writes neither setting
    extract.ifPresent(v -> GovernedMemory.ingestTarget(v, GovernedMemory.EXTRACT_ON_INGEST));
    Map<String, String> now = g.settings(ex.namespace());
    if (canonical.isPresent()) {
      now =
          g.setSetting(
              ex.namespace(),
              GovernedMemory.ENTITIES_CANONICAL,
              String.valueOf(canonical.get()),
              reviewer(ex));
    }
    if (extract.isPresent()) {
      now =
          g.setSetting(
              ex.namespace(), GovernedMemory.EXTRACT_ON_INGEST, extract.get(), reviewer(ex));
    }
    ex.json(200, Json.write(settingsJson(now)));
  }

  private static ObjectNode settingsJson(Map<String, String> s) {
    return Json.object()
        .put(
            GovernedMemory.ENTITIES_CANONICAL,
            "true".equals(s.get(GovernedMemory.ENTITIES_CANONICAL)))
        .put(
            GovernedMemory.EXTRACT_ON_INGEST,
            s.getOrDefault(GovernedMemory.EXTRACT_ON_INGEST, GovernedMemory.OFF));
  }
}
