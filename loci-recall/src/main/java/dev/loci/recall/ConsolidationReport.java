package dev.loci.recall;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a consolidation (or its undoing) did.
 *
 * @param runId the run's id, to undo it by; empty when nothing was written
 * @param examined how many episodic memories were looked at
 * @param summaries each semantic memory written (or removed, for an undo) with the episodes it
 *     summarizes
 */
public record ConsolidationReport(
    Optional<String> runId, int examined, Map<String, List<String>> summaries) {
  /** Copies. */
  public ConsolidationReport {
    Objects.requireNonNull(runId, "runId");
    Map<String, List<String>> copy = new LinkedHashMap<>();
    summaries.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    summaries = java.util.Collections.unmodifiableMap(copy);
  }
}
