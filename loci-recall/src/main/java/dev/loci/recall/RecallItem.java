package dev.loci.recall;

import java.util.Objects;

/**
 * One recalled node with its score and the path that explains it.
 *
 * @param node the node as it is now
 * @param score the score it is ranked by, the path's final score
 * @param path how recall reached it
 */
public record RecallItem(MemoryNode node, double score, MemoryPath path) {
  /** Checks presence. */
  public RecallItem {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(path, "path");
  }
}
