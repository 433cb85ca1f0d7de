package dev.loci.pathway;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.Objects;

/**
 * The 32-bucket {@code pathway_vec} of spec section 4: an L2-normalized bag-of-tokens hash. On the
 * wire it is a JSON array of 32 numbers.
 *
 * @param values the 32 bucket values; copied in and out, so instances are immutable
 */
public record PathwayVec(float[] values) {
  /** The fixed dimension of spec v1. */
  public static final int DIMENSION = 32;

  /**
   * Checks the dimension and that every value is finite, and copies the array.
   *
   * @throws IllegalArgumentException if there are not exactly 32 finite values
   */
  public PathwayVec {
    Objects.requireNonNull(values, "values");
    if (values.length != DIMENSION) {
      throw new IllegalArgumentException(
          "pathway_vec must have " + DIMENSION + " values, found " + values.length);
    }
    values = values.clone();
    for (int i = 0; i < DIMENSION; i++) {
      if (!Float.isFinite(values[i])) {
        throw new IllegalArgumentException(
            "pathway_vec values must be finite, found " + values[i] + " at index " + i);
      }
    }
  }

  /** A vector of the given 32 values. */
  @JsonCreator
  public static PathwayVec of(float... values) {
    return new PathwayVec(values);
  }

  /** A copy of the 32 bucket values. */
  @Override
  @JsonValue
  public float[] values() {
    return values.clone();
  }

  /** The value of bucket {@code index}, 0 to 31. */
  public float get(int index) {
    return values[index];
  }

  /** The cosine similarity to {@code other}; 0 when either vector is all zeros. */
  public double cosine(PathwayVec other) {
    double dot = 0;
    double a = 0;
    double b = 0;
    for (int i = 0; i < DIMENSION; i++) {
      dot += (double) values[i] * other.values[i];
      a += (double) values[i] * values[i];
      b += (double) other.values[i] * other.values[i];
    }
    return a == 0 || b == 0 ? 0 : dot / Math.sqrt(a * b);
  }

  /**
   * Equal when the values are equal element by element ({@link Arrays#equals(float[], float[])}).
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof PathwayVec other && Arrays.equals(values, other.values);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(values);
  }

  @Override
  public String toString() {
    return "PathwayVec" + Arrays.toString(values);
  }
}
