package dev.loci.govern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.internal.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The wire format of governed records (snake_case JSON), the same in journal events, snapshots, the
 * HTTP API and the command line. Stateless.
 */
public final class GovernWire {
  private GovernWire() {}

  /** A memory as a JSON object. */
  public static ObjectNode memory(Memory m) {
    ObjectNode n = Json.object();
    n.put("id", m.id());
    n.put("namespace", m.namespace().value());
    n.put("type", m.type().label());
    n.put("content", m.content());
    n.put("confidence", m.confidence());
    n.put("status", m.status().label());
    m.slot().ifPresent(s -> n.put("slot", s));
    ArrayNode subjects = n.putArray("subject_ids");
    m.subjectIds().forEach(subjects::add);
    n.put("reinforcements", m.reinforcements());
    n.set("provenance", provenance(m.provenance()));
    if (m.status() == MemoryStatus.GRADUATED) {
      m.supersededBy().ifPresent(v -> n.put("graduated_to", v));
    } else {
      m.supersededBy().ifPresent(v -> n.put("superseded_by", v));
    }
    m.reason().ifPresent(v -> n.put("reason", v));
    n.put("version", m.version());
    n.put("created_at", m.createdAt().toString());
    n.put("updated_at", m.updatedAt().toString());
    return n;
  }

  /** Reads {@link #memory}'s output. */
  public static Memory memory(JsonNode n) {
    List<String> subjects = new ArrayList<>();
    n.path("subject_ids").forEach(s -> subjects.add(s.asText()));
    return new Memory(
        n.path("id").asText(),
        Namespace.of(n.path("namespace").asText()),
        MemoryType.of(n.path("type").asText(), "type"),
        n.path("content").asText(),
        n.path("confidence").asDouble(),
        MemoryStatus.of(n.path("status").asText(), "status"),
        text(n, "slot"),
        subjects,
        n.path("reinforcements").asInt(),
        provenance(n.path("provenance")),
        text(n, "superseded_by").or(() -> text(n, "graduated_to")),
        text(n, "reason"),
        n.path("version").asInt(),
        Instant.parse(n.path("created_at").asText()),
        Instant.parse(n.path("updated_at").asText()));
  }

  /** Provenance as a JSON object: actor, and rule, sources and extractor version if known. */
  public static ObjectNode provenance(Provenance pr) {
    ObjectNode p = Json.object();
    p.put("actor", pr.actor());
    pr.rule().ifPresent(v -> p.put("rule", v));
    pr.sourceInteraction().ifPresent(v -> p.put("source_interaction", v));
    pr.sourceChunk().ifPresent(v -> p.put("source_chunk", v));
    pr.extractorVersion().ifPresent(v -> p.put("extractor_version", v));
    return p;
  }

  /** Reads {@link #provenance(Provenance)}'s output. */
  public static Provenance provenance(JsonNode p) {
    return new Provenance(
        p.path("actor").asText(),
        text(p, "rule"),
        text(p, "source_interaction"),
        text(p, "source_chunk"),
        text(p, "extractor_version"));
  }

  /** A conflict as a JSON object. */
  public static ObjectNode conflict(Conflict c) {
    ObjectNode n = Json.object();
    n.put("id", c.id());
    n.put("namespace", c.namespace().value());
    n.put("slot_key", c.slotKey());
    ArrayNode members = n.putArray("members");
    c.members().forEach(members::add);
    n.put("status", c.status().label());
    c.prevailing().ifPresent(v -> n.put("prevailing", v));
    c.winner().ifPresent(v -> n.put("winner", v));
    c.decidedBy().ifPresent(v -> n.put("decided_by", v));
    n.put("opened_at", c.openedAt().toString());
    c.closedAt().ifPresent(v -> n.put("closed_at", v.toString()));
    return n;
  }

  /** Reads {@link #conflict}'s output. */
  public static Conflict conflict(JsonNode n) {
    List<String> members = new ArrayList<>();
    n.path("members").forEach(s -> members.add(s.asText()));
    return new Conflict(
        n.path("id").asText(),
        Namespace.of(n.path("namespace").asText()),
        n.path("slot_key").asText(),
        members,
        Conflict.Status.valueOf(n.path("status").asText().toUpperCase(java.util.Locale.ROOT)),
        text(n, "winner"),
        text(n, "decided_by"),
        Instant.parse(n.path("opened_at").asText()),
        text(n, "closed_at").map(Instant::parse));
  }

  /** A write's result: {@code {"memory": ..., "conflicts": [...]}}. */
  public static ObjectNode written(Written w) {
    ObjectNode node = Json.object();
    node.set("memory", memory(w.memory()));
    ArrayNode conflicts = node.putArray("conflicts");
    w.conflicts().forEach(c -> conflicts.add(conflict(c)));
    return node;
  }

  /** A context pack: budget, tokens used, the tokenizer's name, and the slots with their items. */
  public static ObjectNode contextPack(ContextPack pack) {
    ObjectNode node = Json.object();
    node.put("budget_tokens", pack.budgetTokens());
    node.put("used_tokens", pack.usedTokens());
    node.put("tokenizer", "cl100k_base");
    ArrayNode slots = node.putArray("slots");
    for (ContextPack.Slot s : pack.slots()) {
      ObjectNode slot = slots.addObject();
      slot.put("name", s.name());
      slot.put("allotted_tokens", s.allottedTokens());
      slot.put("used_tokens", s.usedTokens());
      ArrayNode items = slot.putArray("items");
      for (ContextPack.Item it : s.items()) {
        items
            .addObject()
            .put("kind", it.kind())
            .put("id", it.id())
            .put("text", it.text())
            .put("tokens", it.tokens())
            .put("provenance", it.provenance());
      }
    }
    return node;
  }

  /** Reads {@link #written}'s output. */
  public static Written written(JsonNode n) {
    List<Conflict> conflicts = new ArrayList<>();
    n.path("conflicts").forEach(c -> conflicts.add(conflict(c)));
    return new Written(memory(n.path("memory")), conflicts);
  }

  /** Reads {@link #contextPack}'s output. */
  public static ContextPack contextPack(JsonNode n) {
    List<ContextPack.Slot> slots = new ArrayList<>();
    for (JsonNode s : n.path("slots")) {
      List<ContextPack.Item> items = new ArrayList<>();
      for (JsonNode it : s.path("items")) {
        items.add(
            new ContextPack.Item(
                it.path("kind").asText(),
                it.path("id").asText(),
                it.path("text").asText(),
                it.path("tokens").asInt(),
                it.path("provenance").asText()));
      }
      slots.add(
          new ContextPack.Slot(
              s.path("name").asText(),
              s.path("allotted_tokens").asInt(),
              s.path("used_tokens").asInt(),
              items));
    }
    return new ContextPack(n.path("budget_tokens").asInt(), n.path("used_tokens").asInt(), slots);
  }

  /**
   * A draft as the body of a request that proposes it ({@code POST /v1/ns/{ns}/memories}); the
   * server records the caller's credential as the provenance, not the draft's.
   */
  public static ObjectNode draft(MemoryDraft d) {
    ObjectNode n = Json.object();
    n.put("type", d.type().label());
    n.put("content", d.content());
    n.put("confidence", d.confidence());
    d.slot().ifPresent(s -> n.put("slot", s));
    ArrayNode subjects = n.putArray("subject_ids");
    d.subjectIds().forEach(subjects::add);
    return n;
  }

  /** A state entry as a JSON object. */
  public static ObjectNode state(StateEntry e) {
    ObjectNode n = Json.object();
    n.put("key", e.key());
    n.put("value", e.value());
    n.put("set_by", e.setBy());
    n.put("set_at", e.setAt().toString());
    return n;
  }

  /** Reads {@link #state}'s output. */
  public static StateEntry state(JsonNode n) {
    return new StateEntry(
        n.path("key").asText(),
        n.path("value").asText(),
        n.path("set_by").asText(),
        Instant.parse(n.path("set_at").asText()));
  }

  private static Optional<String> text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
  }
}
