package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A semantic-correctness flag of spec section 2.5 (ADR-021): exactly nine values, written on the
 * wire under their PascalCase names ({@code UnitMismatch}, ...), the way the Rust implementation's
 * unit enum serializes. Parsing is case-sensitive.
 */
public enum SemanticFlag {
  /** Quantities in different units mixed. */
  UNIT_MISMATCH("UnitMismatch"),
  /** A value of one type used as another. */
  TYPE_CONFUSION("TypeConfusion"),
  /** A nullable value treated as always present, or the reverse. */
  NULLABLE_CONFUSION("NullableConfusion"),
  /** An off-by-one error. */
  OFF_BY_ONE("OffByOne"),
  /** A reference to something renamed, moved or removed. */
  STALE_REFERENCE("StaleReference"),
  /** A stub or placeholder posing as an implementation. */
  PSEUDO_IMPL("PseudoImpl"),
  /** Code that never runs. */
  DEAD_CODE("DeadCode"),
  /** A warning that is noise, not a finding. */
  WARNING_NOISE("WarningNoise"),
  /** A layer or module boundary crossed. */
  BOUNDARY_VIOLATION("BoundaryViolation");

  private final String wireName;

  SemanticFlag(String wireName) {
    this.wireName = wireName;
  }

  /** The name this flag has in JSON and in {@code flag:} tokens, for example {@code OffByOne}. */
  @JsonValue
  public String wireName() {
    return wireName;
  }

  /**
   * The flag whose wire name is {@code wireName}.
   *
   * @throws IllegalArgumentException naming the nine accepted names if there is no such flag
   */
  @JsonCreator
  public static SemanticFlag of(String wireName) {
    Objects.requireNonNull(wireName, "wireName");
    for (SemanticFlag flag : values()) {
      if (flag.wireName.equals(wireName)) {
        return flag;
      }
    }
    throw new IllegalArgumentException(
        "expected one of "
            + Arrays.stream(values()).map(SemanticFlag::wireName).collect(Collectors.joining(", "))
            + "; found \""
            + wireName
            + "\"");
  }
}
