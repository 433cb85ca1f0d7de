package dev.loci.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How the reference MCP memory server's knowledge graph lives in Loci's memory graph.
 *
 * <p>An entity is a node with id {@code entity:<name>} and type {@code entity}; its name, entity
 * type and observations (a JSON array, in order) are attributes, and its content, which recall
 * indexes, is the name and type followed by one observation per line. A relation is an edge between
 * two entity nodes, followed both ways by recall; its edge type is the relation type in lower
 * snake_case, and the relation type exactly as given is the section of its source reference. So
 * every entity and relation has versions, is found by recall, and appears on evidence paths. Two
 * relation types that read the same in snake_case ({@code works at}, {@code works_at}) between the
 * same two entities are one edge.
 */
public final class EntityGraph {
  /** The prefix of entity node ids. */
  public static final String ID_PREFIX = "entity:";

  /** The node type of entities. */
  public static final String NODE_TYPE = "entity";

  /** The pack attribute, and the source path of what the tools write. */
  public static final String PACK = "mcp-memory";

  private static final int MAX_NAME = 256 - ID_PREFIX.length();
  private static final double RELATION_WEIGHT = 0.6;

  private EntityGraph() {}

  /**
   * An entity of the reference server.
   *
   * @param name unique in its namespace
   * @param entityType its type, as given
   * @param observations what is known about it, in order
   */
  public record Entity(String name, String entityType, List<String> observations) {
    /** Copies the observations. */
    public Entity {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(entityType, "entityType");
      observations = List.copyOf(observations);
    }

    /** The entity as the reference server writes it. */
    public ObjectNode json() {
      ObjectNode n = McpJson.object();
      n.put("name", name);
      n.put("entityType", entityType);
      ArrayNode obs = n.putArray("observations");
      observations.forEach(obs::add);
      return n;
    }

    /** This entity with other observations. */
    public Entity withObservations(List<String> observations) {
      return new Entity(name, entityType, observations);
    }
  }

  /**
   * A relation of the reference server.
   *
   * @param from the entity it starts at
   * @param to the entity it ends at
   * @param relationType its type, as given (active voice)
   */
  public record Relation(String from, String to, String relationType) {
    /** Checks presence. */
    public Relation {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(relationType, "relationType");
    }

    /** The relation as the reference server writes it. */
    public ObjectNode json() {
      return McpJson.object().put("from", from).put("to", to).put("relationType", relationType);
    }

    /** The key of its edge. */
    public MemoryEdge.Key key() {
      return new MemoryEdge.Key(id(from), edgeType(relationType), id(to));
    }
  }

  /** The node id of entity {@code name}. */
  public static String id(String name) {
    return ID_PREFIX + name;
  }

  /**
   * Checks an entity name can be a node id.
   *
   * @throws InvalidRequestException naming {@code field}
   */
  public static String checkName(String field, String name) {
    if (name.isBlank()
        || name.length() > MAX_NAME
        || name.chars().anyMatch(Character::isISOControl)) {
      throw new InvalidRequestException(
          field,
          "expected a name of 1-"
              + MAX_NAME
              + " characters without control characters, found '"
              + (name.length() > 60 ? name.substring(0, 60) + "..." : name)
              + "'");
    }
    return name;
  }

  /** The node of {@code e}, citing {@code source}. */
  public static MemoryNode node(Entity e, EvidenceRef source) {
    StringBuilder content = new StringBuilder(e.name());
    if (!e.entityType().isBlank()) {
      content.append(" (").append(e.entityType()).append(')');
    }
    e.observations().forEach(o -> content.append('\n').append(o));
    return MemoryNode.builder(id(e.name()), NODE_TYPE, content.toString())
        .attribute("name", e.name())
        .attribute("entity_type", e.entityType())
        .attribute("observations", McpJson.compact(McpJson.MAPPER.valueToTree(e.observations())))
        .attribute("pack", PACK)
        .sourceRef(source)
        .build();
  }

  /** The entity {@code n} holds, if it is an entity node. */
  public static Optional<Entity> entity(MemoryNode n) {
    String name = n.attributes().get("name");
    String type = n.attributes().get("entity_type");
    String obs = n.attributes().get("observations");
    if (!n.type().equals(NODE_TYPE) || name == null || type == null || obs == null) {
      return Optional.empty();
    }
    try {
      JsonNode arr = McpJson.MAPPER.readTree(obs);
      List<String> out = new ArrayList<>();
      arr.forEach(o -> out.add(o.asText()));
      return Optional.of(new Entity(name, type, out));
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /** The edge of {@code r}, citing {@code path} with the relation type as its section. */
  public static MemoryEdge edge(Relation r, String path) {
    return new MemoryEdge(
        id(r.from()),
        id(r.to()),
        edgeType(r.relationType()),
        RELATION_WEIGHT,
        1,
        true,
        Optional.of(
            new EvidenceRef(
                path, Optional.of(r.relationType()), Optional.empty(), Optional.empty())));
  }

  /** The relation {@code e} holds, if it joins two entity nodes. */
  public static Optional<Relation> relation(MemoryEdge e) {
    if (!e.from().startsWith(ID_PREFIX) || !e.to().startsWith(ID_PREFIX)) {
      return Optional.empty();
    }
    String type = e.sourceRef().flatMap(EvidenceRef::section).orElse(e.edgeType());
    return Optional.of(
        new Relation(
            e.from().substring(ID_PREFIX.length()), e.to().substring(ID_PREFIX.length()), type));
  }

  /**
   * The edge type of a relation type: lower case, every run of other characters than {@code
   * [a-z0-9]} one {@code _}, starting with a letter, at most 63 characters.
   */
  public static String edgeType(String relationType) {
    String t =
        relationType
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^a-z0-9]+", "_")
            .replaceAll("^_+|_+$", "");
    if (t.isEmpty() || !Character.isLetter(t.charAt(0))) {
      t = "r_" + t;
    }
    return t.length() > 63 ? t.substring(0, 63) : t;
  }
}
