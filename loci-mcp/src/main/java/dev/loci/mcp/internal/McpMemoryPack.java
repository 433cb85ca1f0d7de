package dev.loci.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.mcp.internal.EntityGraph.Entity;
import dev.loci.mcp.internal.EntityGraph.Relation;
import dev.loci.recall.EvidenceRef;
import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code mcp-memory} domain pack: the JSON Lines file of the reference MCP memory server
 * ({@code memory.jsonl}), one {@code {"type":"entity","name":...,"entityType":...,
 * "observations":[...]}} or {@code {"type":"relation","from":...,"to":...,"relationType":...}} per
 * line, read into the entity nodes and relation edges the {@code create_entities} and {@code
 * create_relations} tools write (see {@link EntityGraph}), each citing its line of the file.
 *
 * <p>What the reference server would also keep but a memory graph cannot hold is reported as
 * skipped, never fatal: lines that are not such objects, a repeated entity name (the first wins), a
 * relation whose ends are not both entities of the file, a relation from an entity to itself, and a
 * repeated relation.
 */
public final class McpMemoryPack implements DomainPack {
  /** The pack's name, and the {@code --format} of {@code loci import}. */
  public static final String NAME = EntityGraph.PACK;

  /** A pack; stateless. */
  public McpMemoryPack() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ScoreWeights weights() {
    return new ScoreWeights(0.6, 0.3, 0.0, 0.1);
  }

  @Override
  public Ingestion read(SourceDocument doc) {
    Map<String, MemoryNode> nodes = new LinkedHashMap<>();
    List<MemoryEdge> edges = new ArrayList<>();
    List<IngestReport.Skipped> skipped = new ArrayList<>();
    List<Relation> relations = new ArrayList<>();
    List<Integer> relationLines = new ArrayList<>();
    String[] lines = doc.text().split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i].strip();
      if (line.isEmpty()) {
        continue;
      }
      int no = i + 1;
      String where = doc.path() + ", line " + no;
      JsonNode item;
      try {
        item = McpJson.MAPPER.readTree(line);
      } catch (JsonProcessingException e) {
        skipped.add(new IngestReport.Skipped(where, "not JSON: " + e.getOriginalMessage()));
        continue;
      }
      String type = item != null && item.isObject() ? item.path("type").asText("") : "";
      try {
        switch (type) {
          case "entity" -> {
            Entity e = entity(item);
            if (nodes.containsKey(EntityGraph.id(e.name()))) {
              skipped.add(new IngestReport.Skipped(where, "entity '" + e.name() + "' repeats"));
            } else {
              nodes.put(
                  EntityGraph.id(e.name()), EntityGraph.node(e, cite(doc, no, Optional.empty())));
            }
          }
          case "relation" -> {
            relations.add(relation(item));
            relationLines.add(no);
          }
          default ->
              skipped.add(
                  new IngestReport.Skipped(
                      where, "expected an object with type entity or relation"));
        }
      } catch (InvalidRequestException e) {
        skipped.add(new IngestReport.Skipped(where, e.getMessage()));
      }
    }
    Set<MemoryEdge.Key> keys = new HashSet<>();
    for (int i = 0; i < relations.size(); i++) {
      Relation r = relations.get(i);
      String where = doc.path() + ", line " + relationLines.get(i);
      if (!nodes.containsKey(EntityGraph.id(r.from()))
          || !nodes.containsKey(EntityGraph.id(r.to()))) {
        skipped.add(
            new IngestReport.Skipped(
                where,
                "relation " + r.from() + " -> " + r.to() + " names an entity the file lacks"));
      } else if (r.from().equals(r.to())) {
        skipped.add(new IngestReport.Skipped(where, "relation from an entity to itself"));
      } else if (!keys.add(r.key())) {
        skipped.add(new IngestReport.Skipped(where, "relation repeats an earlier one"));
      } else {
        MemoryEdge e = EntityGraph.edge(r, doc.path());
        edges.add(e.withSource(cite(doc, relationLines.get(i), Optional.of(r.relationType()))));
      }
    }
    return new Ingestion(
        List.of(new Ingestion.Graph(Optional.empty(), List.copyOf(nodes.values()), edges)),
        skipped);
  }

  private static EvidenceRef cite(SourceDocument doc, int line, Optional<String> section) {
    return new EvidenceRef(
        doc.path(), section, Optional.of(new EvidenceRef.Span(line, line)), Optional.empty());
  }

  private static Entity entity(JsonNode item) {
    String name = EntityGraph.checkName("name", text(item, "name"));
    List<String> observations = new ArrayList<>();
    JsonNode obs = item.get("observations");
    if (obs != null && !obs.isNull()) {
      if (!obs.isArray()) {
        throw new InvalidRequestException("observations", "expected an array of strings");
      }
      obs.forEach(o -> observations.add(o.asText()));
    }
    return new Entity(name, item.path("entityType").asText(""), observations);
  }

  private static Relation relation(JsonNode item) {
    return new Relation(text(item, "from"), text(item, "to"), item.path("relationType").asText(""));
  }

  private static String text(JsonNode item, String name) {
    JsonNode v = item.get(name);
    if (v == null || !v.isTextual()) {
      throw new InvalidRequestException(name, "expected a string");
    }
    return v.asText();
  }
}
