package dev.loci.subjects;

import java.util.List;

/**
 * What a retention sweep found and, unless it was a dry run, erased.
 *
 * @param dryRun whether nothing was erased
 * @param expired the records past retention (each once, even if it names several subjects)
 * @param held how many records past retention a legal hold kept
 */
public record SweepReport(boolean dryRun, List<Expiry> expired, int held) {
  /** Copies the list. */
  public SweepReport {
    expired = List.copyOf(expired);
  }
}
