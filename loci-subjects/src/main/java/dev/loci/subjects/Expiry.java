package dev.loci.subjects;

import java.util.Objects;

/**
 * A record the retention sweep found past its retention.
 *
 * @param record the record
 * @param retainDays the retention that applied
 * @param rule where it came from: {@code subject} or {@code namespace}
 */
public record Expiry(HeldRecord record, int retainDays, String rule) {
  /** Checks presence. */
  public Expiry {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(rule, "rule");
  }
}
