package dev.loci.recall;

import java.util.Objects;

/**
 * A typed link between two palace memories, or from a memory to its space ({@link
 * LinkType#LOCATED_IN}, where {@code to} is a space id).
 *
 * @param from the memory it starts at
 * @param to the memory (or space) it ends at
 * @param type the palace link type
 * @param edgeType the recall edge type it stands for ({@code located_in} for a place)
 * @param weight how strongly it carries relevance, in [0, 1]
 */
public record MemoryLink(String from, String to, LinkType type, String edgeType, double weight) {
  /** Checks presence. */
  public MemoryLink {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(to, "to");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(edgeType, "edgeType");
  }

  /** The palace link an edge of the recall graph stands for. */
  public static MemoryLink of(MemoryEdge e) {
    return new MemoryLink(
        e.from(), e.to(), LinkType.ofEdgeType(e.edgeType()), e.edgeType(), e.weight());
  }
}
