package dev.loci;

import java.util.List;
import java.util.Objects;

/**
 * What an import did.
 *
 * @param lines how many non-blank lines the file had
 * @param applied how many operations were imported
 * @param skipped the lines not imported, each with the reason
 */
public record ImportReport(long lines, long applied, List<Skipped> skipped) {
  /** A line that was not imported. */
  public record Skipped(long line, String reason) {
    /** Checks presence. */
    public Skipped {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Copies the list. */
  public ImportReport {
    skipped = List.copyOf(skipped);
  }
}
