package dev.loci.recall.spi;

import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link DomainPack} made of one file: one or more graphs and what it skipped.
 *
 * @param graphs the graphs, each bound for the target namespace or a child of it
 * @param skipped what the pack could not use, and why
 */
public record Ingestion(List<Graph> graphs, List<IngestReport.Skipped> skipped) {
  /** Copies the lists. */
  public Ingestion {
    graphs = List.copyOf(graphs);
    skipped = List.copyOf(skipped);
  }

  /**
   * Nodes and edges bound for one namespace. Every edge's ends are among the nodes.
   *
   * @param childLabel a label to append to the target namespace (for example a conversation's
   *     {@code conv-26}), or empty for the target namespace itself
   * @param nodes the nodes, unique by id
   * @param edges the edges, unique by key
   */
  public record Graph(Optional<String> childLabel, List<MemoryNode> nodes, List<MemoryEdge> edges) {
    /** Checks presence and copies the lists. */
    public Graph {
      Objects.requireNonNull(childLabel, "childLabel");
      nodes = List.copyOf(nodes);
      edges = List.copyOf(edges);
    }
  }
}
