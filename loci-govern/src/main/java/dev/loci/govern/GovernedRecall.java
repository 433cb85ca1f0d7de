package dev.loci.govern;

import dev.loci.Namespace;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallMemory;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Governed memories and entities as nodes of the recall graph (DESIGN.md section 2): their records
 * stay in the governed layer, with their own lifecycle; recall gets a node per record ({@code
 * memory:<id>}, type {@code governed_memory}; {@code entity:<id>}, type {@code governed_entity})
 * with its text, confidence and status, and edges for what links them: {@code graduated_into} from
 * a memory to the entity it became, {@code superseded_by} from a record to its successor, and each
 * entity relationship under its own type. Recall scored with {@link GovernedScoring} then never
 * ranks a superseded or invalid record above its active successor.
 *
 * <p>{@link #sync} writes only the nodes and edges that changed (recall keeps an unchanged put as
 * it is), so it is cheap to run after every review session or on a schedule. Thread-safe.
 */
public final class GovernedRecall {
  /** The attribute that marks a governed node. */
  public static final String GOVERNED = "governed";

  /** The attribute holding the record's own status label. */
  public static final String RECORD_STATUS = "record_status";

  private final GovernedMemory memories;
  private final GovernedEntities entities;
  private final RecallMemory recall;

  private GovernedRecall(GovernedMemory memories, GovernedEntities entities, RecallMemory recall) {
    this.memories = memories;
    this.entities = entities;
    this.recall = recall;
  }

  /** The bridge from governed records to {@code recall}'s graph. */
  public static GovernedRecall of(
      GovernedMemory memories, GovernedEntities entities, RecallMemory recall) {
    return new GovernedRecall(
        Objects.requireNonNull(memories, "memories"),
        Objects.requireNonNull(entities, "entities"),
        Objects.requireNonNull(recall, "recall"));
  }

  /** The recall node id of a memory. */
  public static String nodeId(Memory m) {
    return "memory:" + m.id();
  }

  /** The recall node id of an entity. */
  public static String nodeId(Entity e) {
    return "entity:" + e.id();
  }

  /**
   * Puts every governed record of {@code ns} into the recall graph as it stands now, and the edges
   * between them; returns how many nodes and edges changed.
   */
  public int sync(Namespace ns) {
    int changed = 0;
    List<Memory> ms = memories.list(ns, Optional.empty(), Optional.empty());
    List<Entity> es = entities.list(ns, Optional.empty(), Optional.empty());
    for (Memory m : ms) {
      changed += put(ns, node(m));
    }
    for (Entity e : es) {
      changed += put(ns, node(e));
    }
    for (Memory m : ms) {
      for (MemoryEdge e : edges(m)) {
        changed += edge(ns, e);
      }
    }
    for (Entity e : es) {
      for (MemoryEdge x : edges(e)) {
        changed += edge(ns, x);
      }
    }
    return changed;
  }

  /** {@link #sync} for every namespace with governed records; returns the changes. */
  public int syncAll() {
    int changed = 0;
    for (Namespace ns : memories.namespaces()) {
      changed += sync(ns);
    }
    return changed;
  }

  /**
   * The ingestion-wave trigger: one extraction pass over the recall nodes ingested from {@code
   * documents} ({@link #ingestedChunks}). The wave's report is written under the data directory
   * ({@link GovernedMemory#extractWave}).
   *
   * @throws dev.loci.InvalidRequestException naming {@code documents} if no node came from them
   */
  public Extraction extractIngested(
      Namespace ns, List<String> documents, dev.loci.govern.spi.ExtractionTarget target) {
    List<ExtractionChunk> chunks = ingestedChunks(ns, documents);
    if (chunks.isEmpty()) {
      throw new dev.loci.InvalidRequestException(
          "documents",
          "expected documents ingested into " + ns + ", found no node from " + documents);
    }
    return memories.extractWave(ns, chunks, target);
  }

  /**
   * One ingestion wave an ingest ran by itself.
   *
   * @param namespace where the documents went
   * @param chunks how many chunks the wave read
   * @param extraction what it proposed; its report is under the data directory
   */
  public record IngestWave(Namespace namespace, int chunks, Extraction extraction) {
    /** Checks presence. */
    public IngestWave {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(extraction, "extraction");
    }
  }

  /** The same bridge, recording {@code actor} as the author of the waves it runs. */
  public GovernedRecall as(String actor) {
    return new GovernedRecall(memories.as(actor), entities, recall);
  }

  /** The documents {@code reports} ingested, by namespace they went into, in report order. */
  public static java.util.Map<Namespace, List<String>> ingested(
      List<dev.loci.recall.IngestReport> reports) {
    java.util.Map<Namespace, List<String>> out = new java.util.LinkedHashMap<>();
    for (dev.loci.recall.IngestReport r : reports) {
      for (Namespace ns : r.namespaces()) {
        out.computeIfAbsent(ns, k -> new java.util.ArrayList<>()).add(r.source());
      }
    }
    return out;
  }

  /**
   * The ingestion-wave trigger every ingest runs (HTTP {@code POST ingest}, {@code loci ingest},
   * the MCP {@code ingest} tool): each namespace of {@code documents} whose {@value
   * GovernedMemory#EXTRACT_ON_INGEST} setting names a target gets one wave ({@link #extractWave})
   * over the chunks ingested from its documents, if there are any; returns the waves run.
   */
  public List<IngestWave> afterIngest(java.util.Map<Namespace, List<String>> documents) {
    return afterIngest(documents, memories::extractOnIngest);
  }

  /**
   * {@link #afterIngest(java.util.Map)} with {@code target} in every namespace whatever its setting
   * (a request's {@code extract} parameter).
   */
  public List<IngestWave> afterIngest(
      java.util.Map<Namespace, List<String>> documents,
      dev.loci.govern.spi.ExtractionTarget target) {
    Objects.requireNonNull(target, "target");
    return afterIngest(documents, ns -> Optional.of(target));
  }

  private List<IngestWave> afterIngest(
      java.util.Map<Namespace, List<String>> documents,
      java.util.function.Function<Namespace, Optional<dev.loci.govern.spi.ExtractionTarget>>
          target) {
    List<IngestWave> waves = new java.util.ArrayList<>();
    documents.forEach(
        (ns, docs) -> {
          Optional<dev.loci.govern.spi.ExtractionTarget> t = target.apply(ns);
          if (t.isEmpty()) {
            return;
          }
          List<ExtractionChunk> chunks = ingestedChunks(ns, docs);
          if (!chunks.isEmpty()) {
            waves.add(new IngestWave(ns, chunks.size(), memories.extractWave(ns, chunks, t.get())));
          }
        });
    return waves;
  }

  /**
   * The chunks of an ingestion wave over {@code documents} (the {@code source_ref} paths an ingest
   * reported): the recall nodes ingested from them, each a chunk of its document with the node's
   * subject ids, in the order recall holds them; governed nodes and nodes longer than an
   * interaction are left out. Empty if no node came from them.
   */
  public List<ExtractionChunk> ingestedChunks(Namespace ns, List<String> documents) {
    java.util.Set<String> wanted = java.util.Set.copyOf(documents);
    List<ExtractionChunk> chunks = new java.util.ArrayList<>();
    for (MemoryNode n : recall.nodes(ns)) {
      if (n.sourceRef().isPresent()
          && wanted.contains(n.sourceRef().get().path())
          && !n.attributes().containsKey(GOVERNED)
          && n.content().length() <= Interaction.MAX_TEXT) {
        chunks.add(
            new ExtractionChunk(
                n.id(), Optional.of(n.sourceRef().get().path()), n.content(), n.subjectIds()));
      }
    }
    return chunks;
  }

  private int put(Namespace ns, MemoryNode node) {
    Optional<MemoryNode> live = recall.node(ns, node.id());
    if (live.isPresent() && live.get().equals(node)) {
      return 0;
    }
    recall.putNode(ns, node);
    return 1;
  }

  private int edge(Namespace ns, MemoryEdge e) {
    if (recall.node(ns, e.to()).isEmpty()) {
      return 0; // a pointer to a record of another kind (trusted state): no node to link
    }
    boolean known =
        recall.edges(ns, e.from()).stream()
            .anyMatch(
                x ->
                    x.to().equals(e.to())
                        && x.edgeType().equals(e.edgeType())
                        && x.from().equals(e.from()));
    if (known) {
      return 0;
    }
    recall.putEdge(ns, e);
    return 1;
  }

  /**
   * The edges leaving memory {@code m}'s node: {@code graduated_into} the entity it became, {@code
   * superseded_by} the memory that replaced it.
   */
  static List<MemoryEdge> edges(Memory m) {
    if (m.status() == MemoryStatus.GRADUATED && m.supersededBy().isPresent()) {
      return List.of(
          MemoryEdge.of(nodeId(m), "entity:" + m.supersededBy().get(), "graduated_into", 1.0));
    }
    if (m.status() == MemoryStatus.SUPERSEDED
        && m.supersededBy().filter(s -> !s.startsWith(Conflict.STATE)).isPresent()) {
      return List.of(
          MemoryEdge.of(nodeId(m), "memory:" + m.supersededBy().get(), "superseded_by", 1.0));
    }
    return List.of();
  }

  /**
   * The edges leaving entity {@code e}'s node: {@code superseded_by} its successor and each active
   * relationship under its own type.
   */
  static List<MemoryEdge> edges(Entity e) {
    List<MemoryEdge> out = new java.util.ArrayList<>();
    if (e.status() == EntityStatus.SUPERSEDED
        && e.supersededBy().filter(s -> !s.startsWith(Conflict.STATE)).isPresent()) {
      out.add(MemoryEdge.of(nodeId(e), "entity:" + e.supersededBy().get(), "superseded_by", 1.0));
    }
    for (Relationship r : e.relationships()) {
      if (r.active()) {
        out.add(MemoryEdge.of(nodeId(e), "entity:" + r.target(), r.type().label(), 1.0));
      }
    }
    return out;
  }

  static MemoryNode node(Memory m) {
    return MemoryNode.builder(nodeId(m), "governed_memory", m.content())
        .confidence(m.confidence())
        .attribute(GOVERNED, "true")
        .attribute(RECORD_STATUS, m.status().label())
        .attribute("status", recallStatus(m.status().label()))
        .attribute("memory_type", m.type().label())
        .subjectIds(m.subjectIds())
        .build();
  }

  static MemoryNode node(Entity e) {
    return MemoryNode.builder(nodeId(e), "governed_entity", e.text())
        .confidence(e.confidence())
        .attribute(GOVERNED, "true")
        .attribute(RECORD_STATUS, e.status().label())
        .attribute("status", recallStatus(e.status().label()))
        .attribute("entity_type", e.type().label())
        .subjectIds(e.subjectIds())
        .build();
  }

  /** The status words recall's trust component knows. */
  private static String recallStatus(String label) {
    return switch (label) {
      case "active" -> "trusted";
      case "candidate" -> "candidate";
      case "invalid" -> "rejected";
      default -> "superseded";
    };
  }
}
