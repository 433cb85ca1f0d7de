package dev.loci.recall;

import dev.loci.Namespace;
import java.util.List;
import java.util.Objects;

/**
 * What ingesting one file did. Counts cover every namespace the file wrote to (a LoCoMo file holds
 * one conversation per child namespace).
 *
 * @param source the file as given
 * @param pack the domain pack's name
 * @param namespaces the namespaces written to, in order
 * @param nodes how many nodes the file holds
 * @param edges how many edges the file holds
 * @param written how many nodes and edges were new or changed (0 when the file was ingested before
 *     unchanged)
 * @param removed how many nodes an earlier ingest of the same file made that it no longer holds
 * @param batches how many journal batches were appended
 * @param skipped what the pack could not use, and why
 */
public record IngestReport(
    String source,
    String pack,
    List<Namespace> namespaces,
    int nodes,
    int edges,
    int written,
    int removed,
    int batches,
    List<Skipped> skipped) {
  /** Checks presence and copies the lists. */
  public IngestReport {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(pack, "pack");
    namespaces = List.copyOf(namespaces);
    skipped = List.copyOf(skipped);
  }

  /**
   * Something a domain pack left out.
   *
   * @param where the place in the file, for example {@code line 12} or {@code conv-26/session_20}
   * @param reason why, for people
   */
  public record Skipped(String where, String reason) {
    /** Checks presence. */
    public Skipped {
      Objects.requireNonNull(where, "where");
      Objects.requireNonNull(reason, "reason");
    }
  }
}
