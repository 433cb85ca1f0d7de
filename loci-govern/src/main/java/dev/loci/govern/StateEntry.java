package dev.loci.govern;

import java.time.Instant;
import java.util.Objects;

/**
 * One fact of trusted project state: the top of the trust order, set only by a reviewer.
 *
 * @param key the fact's name (1-128 characters of {@code [A-Za-z0-9_.:-]})
 * @param value the fact (1 to 4,000 characters)
 * @param setBy the reviewer who set it
 * @param setAt when
 */
public record StateEntry(String key, String value, String setBy, Instant setAt) {
  /** Checks presence. */
  public StateEntry {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(setBy, "setBy");
    Objects.requireNonNull(setAt, "setAt");
  }
}
