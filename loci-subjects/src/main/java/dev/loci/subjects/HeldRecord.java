package dev.loci.subjects;

import dev.loci.Namespace;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One record a subject manifest lists: which layer holds it, what it is, where, and every journal
 * batch that wrote or changed it (its versions, by sequence number).
 *
 * @param layer the layer that holds it ({@code trace}, {@code pathway}, {@code govern})
 * @param kind what it is ({@code trace}, {@code pathway_trace}, {@code memory})
 * @param namespace its namespace
 * @param id its id within the layer and namespace
 * @param versions the sequence numbers of the batches that wrote or changed it, oldest first
 * @param lastWrite when it was last written
 */
public record HeldRecord(
    String layer,
    String kind,
    Namespace namespace,
    String id,
    List<Long> versions,
    Instant lastWrite) {
  /** Checks presence and copies the versions. */
  public HeldRecord {
    Objects.requireNonNull(layer, "layer");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(lastWrite, "lastWrite");
    versions = List.copyOf(versions);
  }
}
