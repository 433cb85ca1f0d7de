package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.util.Locale;

/**
 * Where a palace memory is in its life: {@code encoded -> active -> stabilizing -> consolidated}
 * while it is used, and {@code fading -> archived} when its stability drops. Archived memories are
 * kept (their history stays readable) but leave default recall.
 */
public enum LifecycleState {
  /** Written, never used. */
  ENCODED,
  /** Used at least once. */
  ACTIVE,
  /** Used repeatedly, stability rising. */
  STABILIZING,
  /** Used often enough to be lasting knowledge. */
  CONSOLIDATED,
  /** Its stability fell below the fading threshold. */
  FADING,
  /** Its stability fell below the archive threshold: out of default recall. */
  ARCHIVED;

  /** The lower-case name used on the wire. */
  @com.fasterxml.jackson.annotation.JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The state of wire name {@code name}.
   *
   * @throws InvalidRequestException naming {@code state} if there is no such state
   */
  public static LifecycleState parse(String name) {
    for (LifecycleState s : values()) {
      if (s.wireName().equals(name)) {
        return s;
      }
    }
    throw new InvalidRequestException(
        "state",
        "expected encoded, active, stabilizing, consolidated, fading or archived, found '"
            + name
            + "'");
  }

  @Override
  public String toString() {
    return wireName();
  }
}
