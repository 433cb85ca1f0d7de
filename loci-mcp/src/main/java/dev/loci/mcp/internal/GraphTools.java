package dev.loci.mcp.internal;

import static dev.loci.mcp.internal.Schemas.array;
import static dev.loci.mcp.internal.Schemas.namespace;
import static dev.loci.mcp.internal.Schemas.object;
import static dev.loci.mcp.internal.Schemas.required;
import static dev.loci.mcp.internal.Schemas.string;
import static dev.loci.mcp.internal.Schemas.strings;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.mcp.internal.EntityGraph.Entity;
import dev.loci.mcp.internal.EntityGraph.Relation;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecordVersion;
import dev.loci.server.Role;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The nine tools of the reference MCP memory server ({@code @modelcontextprotocol/server-memory}),
 * with its argument and result shapes, over entity nodes and relation edges of the memory graph
 * (see {@link EntityGraph}). Each takes an optional {@code namespace} argument besides the
 * reference's; the results are the reference's, as structured content and as the text {@code
 * JSON.stringify(result, null, 2)} writes.
 */
public final class GraphTools {
  private static final EvidenceRef TOOL_SOURCE = EvidenceRef.of(EntityGraph.PACK);

  private final RecallMemory recall;

  /** Tools over {@code recall}. */
  public GraphTools(RecallMemory recall) {
    this.recall = recall;
  }

  private static Map<String, Object> entitySchema() {
    return object(
        false,
        required("name", string("The name of the entity")),
        required("entityType", string("The type of the entity")),
        required(
            "observations",
            strings("An array of observation contents associated with the entity")));
  }

  private static Map<String, Object> relationSchema() {
    return object(
        false,
        required("from", string("The name of the entity where the relation starts")),
        required("to", string("The name of the entity where the relation ends")),
        required("relationType", string("The type of the relation")));
  }

  private static Map<String, Object> graphSchema() {
    return object(
        false,
        required("entities", array("", entitySchema())),
        required("relations", array("", relationSchema())));
  }

  private static Map<String, Object> messageSchema() {
    return object(
        false,
        required("success", Map.of("type", "boolean")),
        required("message", Map.of("type", "string")));
  }

  private ToolSpec tool(
      String name,
      String title,
      String description,
      Map<String, Object> input,
      Map<String, Object> output,
      ToolSpec.Effect effect,
      ToolSpec.Handler handler) {
    Role role = effect == ToolSpec.Effect.READ ? Role.READER : Role.WRITER;
    return new ToolSpec(
        name, title, description, input, Optional.of(output), effect, role, handler);
  }

  /** The nine tools, in the reference server's order. */
  public List<ToolSpec> tools() {
    return List.of(
        tool(
            "create_entities",
            "Create Entities",
            "Create multiple new entities in the knowledge graph",
            object(false, required("entities", array("", entitySchema())), namespace()),
            object(false, required("entities", array("", entitySchema()))),
            ToolSpec.Effect.WRITE,
            this::createEntities),
        tool(
            "create_relations",
            "Create Relations",
            "Create multiple new relations between entities in the knowledge graph. Relations"
                + " should be in active voice",
            object(false, required("relations", array("", relationSchema())), namespace()),
            object(false, required("relations", array("", relationSchema()))),
            ToolSpec.Effect.WRITE,
            this::createRelations),
        tool(
            "add_observations",
            "Add Observations",
            "Add new observations to existing entities in the knowledge graph",
            object(
                false,
                required(
                    "observations",
                    array(
                        "",
                        object(
                            false,
                            required(
                                "entityName",
                                string("The name of the entity to add the observations to")),
                            required(
                                "contents", strings("An array of observation contents to add"))))),
                namespace()),
            object(
                false,
                required(
                    "results",
                    array(
                        "",
                        object(
                            false,
                            required("entityName", Map.of("type", "string")),
                            required("addedObservations", strings("")))))),
            ToolSpec.Effect.WRITE,
            this::addObservations),
        tool(
            "delete_entities",
            "Delete Entities",
            "Delete multiple entities and their associated relations from the knowledge graph",
            object(
                false,
                required("entityNames", strings("An array of entity names to delete")),
                namespace()),
            messageSchema(),
            ToolSpec.Effect.DESTRUCTIVE,
            this::deleteEntities),
        tool(
            "delete_observations",
            "Delete Observations",
            "Delete specific observations from entities in the knowledge graph",
            object(
                false,
                required(
                    "deletions",
                    array(
                        "",
                        object(
                            false,
                            required(
                                "entityName",
                                string("The name of the entity containing the observations")),
                            required(
                                "observations", strings("An array of observations to delete"))))),
                namespace()),
            messageSchema(),
            ToolSpec.Effect.DESTRUCTIVE,
            this::deleteObservations),
        tool(
            "delete_relations",
            "Delete Relations",
            "Delete multiple relations from the knowledge graph",
            object(
                false,
                required("relations", array("An array of relations to delete", relationSchema())),
                namespace()),
            messageSchema(),
            ToolSpec.Effect.DESTRUCTIVE,
            this::deleteRelations),
        tool(
            "read_graph",
            "Read Graph",
            "Read the entire knowledge graph",
            object(false, namespace()),
            graphSchema(),
            ToolSpec.Effect.READ,
            call -> graph(call, e -> true)),
        tool(
            "search_nodes",
            "Search Nodes",
            "Search for nodes in the knowledge graph based on a query",
            object(
                false,
                required(
                    "query",
                    string(
                        "The search query to match against entity names, types, and observation"
                            + " content")),
                namespace()),
            graphSchema(),
            ToolSpec.Effect.READ,
            this::searchNodes),
        tool(
            "open_nodes",
            "Open Nodes",
            "Open specific nodes in the knowledge graph by their names",
            object(
                false,
                required("names", strings("An array of entity names to retrieve")),
                namespace()),
            graphSchema(),
            ToolSpec.Effect.READ,
            this::openNodes));
  }

  // ---------------------------------------------------------------- writes

  private Reply createEntities(Call call) {
    Namespace ns = call.namespace();
    List<Entity> wanted = new ArrayList<>();
    for (Args e : call.args().requireObjects("entities")) {
      wanted.add(
          new Entity(
              EntityGraph.checkName(e.field("name"), e.requireString("name")),
              e.string("entityType").orElseThrow(() -> missing(e, "entityType")),
              e.requireStrings("observations")));
    }
    RecallMemory writer = recall.as(call.caller().actor());
    ArrayNode created = McpJson.MAPPER.createArrayNode();
    Set<String> seen = new LinkedHashSet<>();
    for (Entity e : wanted) {
      if (!seen.add(e.name()) || current(ns, e.name()).isPresent()) {
        continue; // the reference server ignores entities whose name exists
      }
      writer.putNode(ns, EntityGraph.node(e, TOOL_SOURCE));
      created.add(e.json());
    }
    return listed("entities", created);
  }

  private Reply createRelations(Call call) {
    Namespace ns = call.namespace();
    List<Relation> wanted = relations(call.args(), "relations");
    for (int i = 0; i < wanted.size(); i++) {
      Relation r = wanted.get(i);
      requireEntity(ns, r.from(), "relations[" + i + "].from");
      requireEntity(ns, r.to(), "relations[" + i + "].to");
    }
    RecallMemory writer = recall.as(call.caller().actor());
    ArrayNode created = McpJson.MAPPER.createArrayNode();
    Set<MemoryEdge.Key> seen = new LinkedHashSet<>();
    for (Relation r : wanted) {
      if (!seen.add(r.key())
          || liveEdge(ns, r.key()).flatMap(EntityGraph::relation).filter(r::equals).isPresent()) {
        continue; // the reference server ignores relations that exist
      }
      writer.putEdge(ns, EntityGraph.edge(r, EntityGraph.PACK));
      created.add(r.json());
    }
    return listed("relations", created);
  }

  private Reply addObservations(Call call) {
    Namespace ns = call.namespace();
    List<Args> items = call.args().requireObjects("observations");
    Map<String, Entity> entities = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    List<List<String>> contents = new ArrayList<>();
    for (Args o : items) {
      String name = o.string("entityName").orElseThrow(() -> missing(o, "entityName"));
      names.add(name);
      contents.add(o.requireStrings("contents"));
      if (!entities.containsKey(name)) {
        entities.put(
            name,
            current(ns, name)
                .flatMap(v -> EntityGraph.entity(v.value()))
                .orElseThrow(
                    () ->
                        new ToolError(
                            "not-found",
                            Optional.of(o.field("entityName")),
                            "Entity with name " + name + " not found")));
      }
    }
    RecallMemory writer = recall.as(call.caller().actor());
    ArrayNode results = McpJson.MAPPER.createArrayNode();
    for (int i = 0; i < names.size(); i++) {
      Entity e = entities.get(names.get(i));
      List<String> obs = new ArrayList<>(e.observations());
      List<String> added = new ArrayList<>();
      for (String c : contents.get(i)) {
        if (!obs.contains(c)) {
          obs.add(c);
          added.add(c);
        }
      }
      Entity updated = e.withObservations(obs);
      if (!added.isEmpty()) {
        put(writer, ns, updated);
      }
      entities.put(e.name(), updated);
      ObjectNode r = results.addObject().put("entityName", names.get(i));
      ArrayNode a = r.putArray("addedObservations");
      added.forEach(a::add);
    }
    return listed("results", results);
  }

  private Reply deleteEntities(Call call) {
    Namespace ns = call.namespace();
    List<String> names = call.args().requireStrings("entityNames");
    RecallMemory writer = recall.as(call.caller().actor());
    for (String name : new LinkedHashSet<>(names)) {
      if (current(ns, name).isPresent()) {
        writer.removeNode(ns, EntityGraph.id(name)); // its edges go with it; history is kept
      }
    }
    return message("Entities deleted successfully");
  }

  private Reply deleteObservations(Call call) {
    Namespace ns = call.namespace();
    List<Args> items = call.args().requireObjects("deletions");
    List<String> names = new ArrayList<>();
    List<List<String>> gone = new ArrayList<>();
    for (Args d : items) {
      names.add(d.string("entityName").orElseThrow(() -> missing(d, "entityName")));
      gone.add(d.requireStrings("observations"));
    }
    RecallMemory writer = recall.as(call.caller().actor());
    for (int i = 0; i < names.size(); i++) {
      Optional<Entity> e = current(ns, names.get(i)).flatMap(v -> EntityGraph.entity(v.value()));
      if (e.isEmpty()) {
        continue; // the reference server skips entities it does not know
      }
      List<String> drop = gone.get(i);
      List<String> kept = e.get().observations().stream().filter(o -> !drop.contains(o)).toList();
      if (kept.size() != e.get().observations().size()) {
        put(writer, ns, e.get().withObservations(kept));
      }
    }
    return message("Observations deleted successfully");
  }

  private Reply deleteRelations(Call call) {
    Namespace ns = call.namespace();
    List<Relation> gone = relations(call.args(), "relations");
    RecallMemory writer = recall.as(call.caller().actor());
    for (Relation r : new LinkedHashSet<>(gone)) {
      if (liveEdge(ns, r.key()).flatMap(EntityGraph::relation).filter(r::equals).isPresent()) {
        writer.removeEdge(ns, r.key());
      }
    }
    return message("Relations deleted successfully");
  }

  // ---------------------------------------------------------------- reads

  private Reply searchNodes(Call call) {
    String q = call.args().string("query").orElseThrow(() -> missing(call.args(), "query"));
    String query = q.toLowerCase(Locale.ROOT);
    return graph(
        call,
        e ->
            e.name().toLowerCase(Locale.ROOT).contains(query)
                || e.entityType().toLowerCase(Locale.ROOT).contains(query)
                || e.observations().stream()
                    .anyMatch(o -> o.toLowerCase(Locale.ROOT).contains(query)));
  }

  private Reply openNodes(Call call) {
    Set<String> names = new LinkedHashSet<>(call.args().requireStrings("names"));
    return graph(call, e -> names.contains(e.name()));
  }

  /**
   * The entities of the namespace that {@code keep} accepts, in the order first created, and the
   * relations between two of them.
   */
  private Reply graph(Call call, Predicate<Entity> keep) {
    Namespace ns = call.namespace();
    ArrayNode entities = McpJson.MAPPER.createArrayNode();
    ArrayNode relations = McpJson.MAPPER.createArrayNode();
    Set<String> kept = new LinkedHashSet<>();
    for (MemoryNode n : recall.nodes(ns)) {
      if (n.id().startsWith(EntityGraph.ID_PREFIX)) {
        Optional<Entity> e = EntityGraph.entity(n).filter(keep);
        if (e.isPresent()) {
          kept.add(n.id());
          entities.add(e.get().json());
        }
      }
    }
    for (String id : kept) {
      for (MemoryEdge edge : recall.edges(ns, id)) {
        if (edge.from().equals(id) && kept.contains(edge.to())) {
          EntityGraph.relation(edge).ifPresent(r -> relations.add(r.json()));
        }
      }
    }
    ObjectNode out = McpJson.object();
    out.set("entities", entities);
    out.set("relations", relations);
    return new Reply(McpJson.pretty(out), out);
  }

  // ---------------------------------------------------------------- helpers

  private static List<Relation> relations(Args args, String name) {
    List<Relation> out = new ArrayList<>();
    for (Args r : args.requireObjects(name)) {
      String from = EntityGraph.checkName(r.field("from"), r.requireString("from"));
      String to = EntityGraph.checkName(r.field("to"), r.requireString("to"));
      if (from.equals(to)) {
        throw new InvalidRequestException(
            r.field("to"), "a relation joins two different entities; found '" + to + "' twice");
      }
      out.add(
          new Relation(
              from, to, r.string("relationType").orElseThrow(() -> missing(r, "relationType"))));
    }
    return out;
  }

  private void requireEntity(Namespace ns, String name, String field) {
    if (current(ns, name).isEmpty()) {
      throw new ToolError(
          "not-found",
          Optional.of(field),
          field + ": no entity '" + name + "' in " + ns + "; create it with create_entities first");
    }
  }

  /** The live node of entity {@code name}, if any. */
  private Optional<RecordVersion<MemoryNode>> current(Namespace ns, String name) {
    return recall
        .node(ns, EntityGraph.id(name))
        .map(n -> recall.nodeVersion(ns, n.id()))
        .filter(v -> !v.removed());
  }

  private Optional<MemoryEdge> liveEdge(Namespace ns, MemoryEdge.Key key) {
    try {
      RecordVersion<MemoryEdge> v = recall.edgeVersion(ns, key);
      return v.removed() ? Optional.empty() : Optional.of(v.value());
    } catch (dev.loci.NotFoundException e) {
      return Optional.empty();
    }
  }

  /** Puts the new version of an entity, keeping the source of the version it replaces. */
  private void put(RecallMemory writer, Namespace ns, Entity e) {
    EvidenceRef source =
        recall
            .node(ns, EntityGraph.id(e.name()))
            .flatMap(MemoryNode::sourceRef)
            .orElse(TOOL_SOURCE);
    writer.putNode(ns, EntityGraph.node(e, source));
  }

  private static InvalidRequestException missing(Args a, String name) {
    return new InvalidRequestException(a.field(name), "required: expected a string, found nothing");
  }

  /** {@code {"<member>": items}}, with the items as the reference server's text. */
  private static Reply listed(String member, ArrayNode items) {
    ObjectNode out = McpJson.object();
    out.set(member, items);
    return new Reply(McpJson.pretty(items), out);
  }

  private static Reply message(String message) {
    ObjectNode out = McpJson.object().put("success", true).put("message", message);
    return new Reply(message, out);
  }
}
