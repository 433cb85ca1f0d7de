package dev.loci.mcp.internal;

import static dev.loci.mcp.internal.Schemas.array;
import static dev.loci.mcp.internal.Schemas.namespace;
import static dev.loci.mcp.internal.Schemas.number;
import static dev.loci.mcp.internal.Schemas.object;
import static dev.loci.mcp.internal.Schemas.oneOf;
import static dev.loci.mcp.internal.Schemas.optional;
import static dev.loci.mcp.internal.Schemas.required;
import static dev.loci.mcp.internal.Schemas.string;
import static dev.loci.mcp.internal.Schemas.strings;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.SubjectIds;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityType;
import dev.loci.govern.EntityWire;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.GovernedEntities;
import dev.loci.govern.Provenance;
import dev.loci.govern.SourceRef;
import dev.loci.server.Role;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The governed-entity tools: {@code propose_entity}, {@code list_entities} and {@code show_entity},
 * each one call on {@link GovernedEntities}. These are the typed engineering facts of the review
 * queue (requirements, constraints, decisions, facts, parameters, subsystems), not the free-form
 * knowledge-graph entities of {@code create_entities}; a proposal is a candidate a person promotes
 * with {@code promote}.
 */
public final class EntityTools {
  private static final List<String> TYPES =
      Arrays.stream(EntityType.values()).map(EntityType::label).toList();
  private static final List<String> STATUSES =
      Arrays.stream(EntityStatus.values()).map(EntityStatus::label).toList();

  private final GovernedEntities entities;

  /** Tools over {@code entities}. */
  public EntityTools(GovernedEntities entities) {
    this.entities = entities;
  }

  /** The tools, in the order {@code tools/list} shows them. */
  public List<ToolSpec> tools() {
    return List.of(
        new ToolSpec(
            "propose_entity",
            "Propose a governed entity",
            "Propose a typed engineering fact (requirement, constraint, decision, fact, parameter"
                + " or subsystem) with its fields and sources. It becomes a candidate in the"
                + " review queue that a person promotes; the same entity proposed again is"
                + " reinforced, not stored twice. Returns the entity and any conflict it opens.",
            object(
                true,
                required("type", oneOf("The entity type.", TYPES)),
                required("name", string("What it is called (1-200 chars), e.g. rated pressure.")),
                optional(
                    "fields",
                    Map.of(
                        "type",
                        "object",
                        "additionalProperties",
                        Map.of("type", "string"),
                        "description",
                        "Its fields by name ([a-z][a-z0-9_]{0,63}), e.g. {\"value\": \"16 bar\"}.")),
                optional("confidence", number("How sure, 0 to 1 (default 0.5).", 0, 1)),
                optional(
                    "sources",
                    array(
                        "Where it comes from: {kind, id} with kind interaction, chunk, document,"
                            + " result or memory.",
                        object(
                            true,
                            required(
                                "kind", oneOf("The source kind.", List.copyOf(SourceRef.KINDS))),
                            required("id", string("The source's id."))))),
                optional(
                    "subject_ids",
                    strings(
                        "The people it is about, by id (subject manifests list it, erasure erases"
                            + " it).")),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.WRITE,
            Role.WRITER,
            this::propose),
        new ToolSpec(
            "list_entities",
            "List governed entities",
            "List the governed entities of the namespace, newest version of each, filtered by type"
                + " and status when given (active ones are trusted; candidates await review).",
            object(
                true,
                optional("type", oneOf("Only entities of this type.", TYPES)),
                optional("status", oneOf("Only entities in this status.", STATUSES)),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.READ,
            Role.READER,
            this::list),
        new ToolSpec(
            "show_entity",
            "Show a governed entity",
            "Show one governed entity with every version, newest first: its fields (each with its"
                + " own version), status, sources and relationships over time.",
            object(true, required("id", string("The entity id.")), namespace()),
            Optional.empty(),
            ToolSpec.Effect.READ,
            Role.READER,
            this::show));
  }

  private Reply propose(Call call) {
    Args a =
        call.args()
            .allowOnly(
                Set.of(
                    "type",
                    "name",
                    "fields",
                    "confidence",
                    "sources",
                    "subject_ids",
                    Call.NAMESPACE));
    String actor = call.caller().actor();
    EntityDraft draft =
        new EntityDraft(
            EntityType.of(a.requireString("type"), a.field("type")),
            a.requireString("name"),
            fields(a),
            a.number("confidence").orElse(0.5),
            sources(a),
            Provenance.of(actor),
            Optional.empty(),
            SubjectIds.check(a.field("subject_ids"), a.strings("subject_ids").orElse(List.of())));
    EntityWritten w = entities.as(actor).propose(call.namespace(), draft);
    return Reply.json(EntityWire.written(w));
  }

  private static Map<String, String> fields(Args a) {
    Optional<Object> raw = a.raw("fields");
    if (raw.isEmpty()) {
      return Map.of();
    }
    if (!(raw.get() instanceof Map<?, ?> m)) {
      throw new InvalidRequestException(
          a.field("fields"),
          "expected an object of string values, such as {\"value\": \"16 bar\"}");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!(e.getValue() instanceof String v)) {
        throw new InvalidRequestException(
            a.field("fields") + "." + e.getKey(), "expected a string value");
      }
      out.put(String.valueOf(e.getKey()), v);
    }
    return out;
  }

  private static List<SourceRef> sources(Args a) {
    if (!a.has("sources")) {
      return List.of();
    }
    List<SourceRef> out = new ArrayList<>();
    for (Args s : a.requireObjects("sources")) {
      s.allowOnly(Set.of("kind", "id"));
      String kind = s.requireString("kind");
      if (!SourceRef.KINDS.contains(kind)) {
        throw new InvalidRequestException(
            s.field("kind"), "expected one of " + SourceRef.KINDS + ", found '" + kind + "'");
      }
      out.add(new SourceRef(kind, s.requireString("id")));
    }
    return out;
  }

  private Reply list(Call call) {
    Args a = call.args().allowOnly(Set.of("type", "status", Call.NAMESPACE));
    Namespace ns = call.namespace();
    Optional<EntityType> type = a.string("type").map(t -> EntityType.of(t, a.field("type")));
    Optional<EntityStatus> status =
        a.string("status").map(s -> EntityStatus.of(s, a.field("status")));
    ObjectNode out = McpJson.object().put("namespace", ns.value());
    ArrayNode items = out.putArray("items");
    entities.list(ns, type, status).forEach(e -> items.add(EntityWire.entity(e)));
    return Reply.json(out);
  }

  private Reply show(Call call) {
    Args a = call.args().allowOnly(Set.of("id", Call.NAMESPACE));
    List<Entity> history = entities.history(call.namespace(), a.requireString("id"));
    ObjectNode out = EntityWire.entity(history.get(0));
    ArrayNode versions = out.putArray("history");
    history.forEach(e -> versions.add(EntityWire.entity(e)));
    return Reply.json(out);
  }
}
