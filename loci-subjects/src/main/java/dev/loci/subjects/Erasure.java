package dev.loci.subjects;

import java.time.Instant;
import java.util.Objects;

/**
 * The fact of an erasure, all an erased subject's manifest keeps.
 *
 * @param at when the erasure was recorded
 * @param holder the holder of the legal capability that ran it
 * @param records how many records were erased
 */
public record Erasure(Instant at, String holder, int records) {
  /** Checks presence. */
  public Erasure {
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(holder, "holder");
  }
}
