package dev.loci.govern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.internal.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The wire format of entities, interactions, review-queue items and extraction results (snake_case
 * JSON), the same in journal events, snapshots, the HTTP API and the command line. Stateless;
 * memories, conflicts and state are in {@link GovernWire}.
 */
public final class EntityWire {
  private EntityWire() {}

  /** An entity as a JSON object; {@code fields} holds each field's value and version. */
  public static ObjectNode entity(Entity e) {
    ObjectNode n = Json.object();
    n.put("id", e.id());
    n.put("namespace", e.namespace().value());
    n.put("type", e.type().label());
    n.put("name", e.name());
    ObjectNode fields = n.putObject("fields");
    e.fields()
        .forEach(
            (k, f) ->
                fields
                    .putObject(k)
                    .put("value", f.value())
                    .put("version", f.version())
                    .put("updated_at", f.updatedAt().toString())
                    .put("updated_by", f.updatedBy()));
    n.put("confidence", e.confidence());
    n.put("status", e.status().label());
    n.put("reinforcements", e.reinforcements());
    n.set("provenance", GovernWire.provenance(e.provenance()));
    ArrayNode sources = n.putArray("sources");
    e.sources().forEach(s -> sources.addObject().put("kind", s.kind()).put("id", s.id()));
    ArrayNode subjects = n.putArray("subject_ids");
    e.subjectIds().forEach(subjects::add);
    ArrayNode rels = n.putArray("relationships");
    for (Relationship r : e.relationships()) {
      ObjectNode o =
          rels.addObject()
              .put("type", r.type().label())
              .put("target", r.target())
              .put("added_by", r.addedBy())
              .put("added_at", r.addedAt().toString());
      r.removedAt().ifPresent(t -> o.put("removed_at", t.toString()));
    }
    e.supersededBy().ifPresent(v -> n.put("superseded_by", v));
    e.graduatedFrom().ifPresent(v -> n.put("graduated_from", v));
    e.reason().ifPresent(v -> n.put("reason", v));
    n.put("version", e.version());
    n.put("created_at", e.createdAt().toString());
    n.put("updated_at", e.updatedAt().toString());
    return n;
  }

  /** Reads {@link #entity}'s output. */
  public static Entity entity(JsonNode n) {
    Map<String, EntityField> fields = new LinkedHashMap<>();
    n.path("fields")
        .fields()
        .forEachRemaining(
            f ->
                fields.put(
                    f.getKey(),
                    new EntityField(
                        f.getValue().path("value").asText(),
                        f.getValue().path("version").asInt(),
                        Instant.parse(f.getValue().path("updated_at").asText()),
                        f.getValue().path("updated_by").asText())));
    List<SourceRef> sources = new ArrayList<>();
    n.path("sources")
        .forEach(s -> sources.add(new SourceRef(s.path("kind").asText(), s.path("id").asText())));
    List<String> subjects = new ArrayList<>();
    n.path("subject_ids").forEach(x -> subjects.add(x.asText())); // absent before subjects
    List<Relationship> rels = new ArrayList<>();
    for (JsonNode r : n.path("relationships")) {
      rels.add(
          new Relationship(
              RelationType.of(r.path("type").asText(), "type"),
              r.path("target").asText(),
              r.path("added_by").asText(),
              Instant.parse(r.path("added_at").asText()),
              text(r, "removed_at").map(Instant::parse)));
    }
    return new Entity(
        n.path("id").asText(),
        Namespace.of(n.path("namespace").asText()),
        EntityType.of(n.path("type").asText(), "type"),
        n.path("name").asText(),
        fields,
        n.path("confidence").asDouble(),
        EntityStatus.of(n.path("status").asText(), "status"),
        n.path("reinforcements").asInt(),
        GovernWire.provenance(n.path("provenance")),
        sources,
        subjects,
        rels,
        text(n, "superseded_by"),
        text(n, "graduated_from"),
        text(n, "reason"),
        n.path("version").asInt(),
        Instant.parse(n.path("created_at").asText()),
        Instant.parse(n.path("updated_at").asText()));
  }

  /**
   * A draft as the body of a request that proposes it ({@code POST /v1/ns/{ns}/entities}); the
   * server records the caller's credential as the provenance, not the draft's.
   */
  public static ObjectNode draft(EntityDraft d) {
    ObjectNode n = Json.object();
    n.put("type", d.type().label());
    n.put("name", d.name());
    ObjectNode fields = n.putObject("fields");
    d.fields().forEach(fields::put);
    n.put("confidence", d.confidence());
    ArrayNode sources = n.putArray("sources");
    d.sources().forEach(s -> sources.addObject().put("kind", s.kind()).put("id", s.id()));
    ArrayNode subjects = n.putArray("subject_ids");
    d.subjectIds().forEach(subjects::add);
    return n;
  }

  /** An entity write's result: {@code {"entity": ..., "conflicts": [...]}}. */
  public static ObjectNode written(EntityWritten w) {
    ObjectNode node = Json.object();
    node.set("entity", entity(w.entity()));
    ArrayNode conflicts = node.putArray("conflicts");
    w.conflicts().forEach(c -> conflicts.add(GovernWire.conflict(c)));
    return node;
  }

  /** Reads {@link #written(EntityWritten)}'s output. */
  public static EntityWritten written(JsonNode n) {
    List<Conflict> conflicts = new ArrayList<>();
    n.path("conflicts").forEach(c -> conflicts.add(GovernWire.conflict(c)));
    return new EntityWritten(entity(n.path("entity")), conflicts);
  }

  /** An interaction as a JSON object. */
  public static ObjectNode interaction(Interaction i) {
    ObjectNode n = Json.object();
    n.put("id", i.id());
    n.put("namespace", i.namespace().value());
    n.put("text", i.text());
    n.put("speaker", i.speaker());
    n.put("time", i.said().toString());
    n.put("captured_by", i.capturedBy());
    n.put("captured_at", i.capturedAt().toString());
    if (!i.subjectIds().isEmpty()) {
      ArrayNode subjects = n.putArray("subject_ids");
      i.subjectIds().forEach(subjects::add);
    }
    return n;
  }

  /** Reads {@link #interaction}'s output. */
  public static Interaction interaction(JsonNode n) {
    return new Interaction(
        n.path("id").asText(),
        Namespace.of(n.path("namespace").asText()),
        n.path("text").asText(),
        n.path("speaker").asText(),
        Instant.parse(n.path("time").asText()),
        n.path("captured_by").asText(),
        Instant.parse(n.path("captured_at").asText()),
        strings(n.path("subject_ids"))); // none in older journals
  }

  /**
   * A review-queue item: the record's own JSON with {@code kind} ({@code memory} or {@code
   * entity}), {@code source} (what the queue groups by) and {@code rule} (the rule that fired).
   */
  public static ObjectNode candidate(Candidate c) {
    ObjectNode n =
        c.memory().map(GovernWire::memory).orElseGet(() -> entity(c.entity().orElseThrow()));
    n.put("kind", c.kind());
    n.put("source", c.source());
    n.put("rule", c.rule());
    return n;
  }

  /** Reads {@link #candidate}'s output. */
  public static Candidate candidate(JsonNode n) {
    return n.path("kind").asText().equals("entity")
        ? Candidate.of(entity(n))
        : Candidate.of(GovernWire.memory(n));
  }

  /**
   * An extraction pass: {@code {"interaction": ..., "extractor_version", "candidates": [...],
   * "graduated": [...], "over_cap"}}.
   */
  public static ObjectNode extraction(Extraction x) {
    ObjectNode n = Json.object();
    x.interaction().ifPresent(i -> n.set("interaction", interaction(i)));
    x.wave().ifPresent(w -> n.put("wave", w));
    n.put("extractor_version", x.extractorVersion());
    ArrayNode items = n.putArray("candidates");
    x.candidates().forEach(c -> items.add(candidate(c)));
    ArrayNode graduated = n.putArray("graduated");
    x.graduated().forEach(m -> graduated.add(GovernWire.memory(m)));
    n.put("over_cap", x.overCap());
    return n;
  }

  /** The wire form of an ingest's waves: each its extraction, namespace and chunks read. */
  public static ArrayNode waves(List<GovernedRecall.IngestWave> waves) {
    ArrayNode out = Json.MAPPER.createArrayNode();
    for (GovernedRecall.IngestWave w : waves) {
      ObjectNode n = extraction(w.extraction());
      n.put("namespace", w.namespace().value());
      n.put("chunks", w.chunks());
      out.add(n);
    }
    return out;
  }

  /** Reads {@link #extraction}'s output. */
  public static Extraction extraction(JsonNode n) {
    List<Candidate> candidates = new ArrayList<>();
    n.path("candidates").forEach(c -> candidates.add(candidate(c)));
    List<Memory> graduated = new ArrayList<>();
    n.path("graduated").forEach(m -> graduated.add(GovernWire.memory(m)));
    Optional<Interaction> i =
        n.has("interaction") ? Optional.of(interaction(n.get("interaction"))) : Optional.empty();
    return new Extraction(
        i,
        text(n, "wave"),
        n.path("extractor_version").asText(),
        candidates,
        graduated,
        n.path("over_cap").asInt());
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(v -> out.add(v.asText()));
    return out;
  }

  private static Optional<String> text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
  }
}
