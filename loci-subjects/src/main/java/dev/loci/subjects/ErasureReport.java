package dev.loci.subjects;

import java.time.Duration;
import java.util.Objects;

/**
 * What an erasure did.
 *
 * @param records how many records were erased
 * @param batchesRewritten how many journal batches were rewritten without the content
 * @param took how long it took
 */
public record ErasureReport(int records, long batchesRewritten, Duration took) {
  /** Checks presence. */
  public ErasureReport {
    Objects.requireNonNull(took, "took");
  }
}
