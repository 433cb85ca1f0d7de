package dev.loci.govern;

import java.time.Instant;
import java.util.Objects;

/**
 * One field of an entity in one of its versions: the field keeps its own version number, which
 * moves only when its value changes, so "when did the rated pressure last change, and from what" is
 * answered per field.
 *
 * @param value the field's value
 * @param version 1 when first set, one more per change of value
 * @param updatedAt when the value was set
 * @param updatedBy who set it
 */
public record EntityField(String value, int version, Instant updatedAt, String updatedBy) {
  /** Checks presence and the version. */
  public EntityField {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(updatedBy, "updatedBy");
    if (version < 1) {
      throw new IllegalArgumentException("a field's version is 1 or more, found " + version);
    }
  }
}
