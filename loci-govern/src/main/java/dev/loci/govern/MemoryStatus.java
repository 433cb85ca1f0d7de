package dev.loci.govern;

import dev.loci.InvalidRequestException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where a memory stands: {@code candidate -> active -> superseded | invalid}, and {@code graduated}
 * for a memory frozen behind the entity it became. Only a reviewer moves a candidate on; nothing is
 * ever promoted automatically.
 */
public enum MemoryStatus {
  /** Proposed (by an extractor, an agent, a person), waiting in the review queue. */
  CANDIDATE,
  /** Trusted: promoted by a reviewer, or written active by one. */
  ACTIVE,
  /** Replaced by a newer memory; kept as history. */
  SUPERSEDED,
  /** Rejected or invalidated, with a reason; kept as history. */
  INVALID,
  /** Frozen behind the entity it graduated into. */
  GRADUATED;

  /** The name on the wire: {@code candidate} etc. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a label.
   *
   * @throws InvalidRequestException naming {@code field} and the five labels
   */
  public static MemoryStatus of(String text, String field) {
    for (MemoryStatus s : values()) {
      if (s.label().equals(text)) {
        return s;
      }
    }
    throw new InvalidRequestException(
        field,
        "expected one of "
            + Arrays.stream(values()).map(MemoryStatus::label).collect(Collectors.joining(", "))
            + ", found '"
            + text
            + "'");
  }
}
