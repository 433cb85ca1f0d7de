package dev.loci.govern.spi;

import dev.loci.InvalidRequestException;
import java.util.Locale;

/** What an extraction pass proposes: memory candidates, entity candidates, or both. */
public enum ExtractionTarget {
  /** Memory candidates only. */
  MEMORY,
  /** Entity candidates only. */
  ENTITIES,
  /** Both, side by side in the review queue. */
  BOTH;

  /** The name on the wire. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether memory candidates are wanted. */
  public boolean memories() {
    return this != ENTITIES;
  }

  /** Whether entity candidates are wanted. */
  public boolean entities() {
    return this != MEMORY;
  }

  /**
   * Parses {@code memory}, {@code entities} or {@code both}.
   *
   * @throws InvalidRequestException naming {@code field}
   */
  public static ExtractionTarget of(String text, String field) {
    for (ExtractionTarget t : values()) {
      if (t.label().equals(text)) {
        return t;
      }
    }
    throw new InvalidRequestException(
        field, "expected memory, entities or both, found '" + text + "'");
  }
}
