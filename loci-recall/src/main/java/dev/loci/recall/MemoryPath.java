package dev.loci.recall;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A replayable explanation of how recall moved from the query to one piece of evidence: the steps
 * from a seed to the recalled node, the evidence of the nodes on the way, the recalled node's
 * content as the answer, and the final score.
 *
 * @param query the query text
 * @param steps at least one step; the first is a {@link PathStep#SEED}, the last the recalled node
 * @param supportingEvidence the source references of the nodes on the path, recalled node first
 * @param finalAnswer the recalled node's content
 * @param finalScore the score the item is ranked by
 */
public record MemoryPath(
    String query,
    List<PathStep> steps,
    List<EvidenceRef> supportingEvidence,
    String finalAnswer,
    double finalScore) {
  /** Checks presence and copies the lists. */
  public MemoryPath {
    Objects.requireNonNull(query, "query");
    steps = List.copyOf(steps);
    supportingEvidence = List.copyOf(supportingEvidence);
    Objects.requireNonNull(finalAnswer, "finalAnswer");
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("a path needs at least one step");
    }
  }

  /**
   * The path on one line, as a model or a person reads it: {@code seed a (0.810) -references-> b
   * (0.620)}, the nodes with their scores and the edge types followed between them.
   */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    for (PathStep s : steps) {
      if (s.via().equals(PathStep.SEED)) {
        sb.append("seed ");
      } else {
        sb.append(" -").append(s.via()).append("-> ");
      }
      sb.append(s.nodeId()).append(String.format(Locale.ROOT, " (%.3f)", s.score()));
    }
    return sb.toString();
  }

  /**
   * The source references of the supporting evidence as {@link EvidenceRef#describe} reads, each
   * once, in order.
   */
  public List<String> sources() {
    return supportingEvidence.stream().map(EvidenceRef::describe).distinct().toList();
  }
}
