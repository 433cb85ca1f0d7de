package dev.loci.recall;

import java.time.Instant;
import java.util.Objects;

/**
 * One version of a node or an edge: its value, its number in the record's history, when it was
 * written, and whether this version is the record's removal (which keeps the last value).
 *
 * @param value the record as of this version
 * @param version 1 for the first put, one more for every change or removal after it
 * @param at when the write that made this version was accepted
 * @param removed whether this version removed the record
 * @param <T> {@link MemoryNode} or {@link MemoryEdge}
 */
public record RecordVersion<T>(T value, int version, Instant at, boolean removed) {
  /** Checks presence and that the version is positive. */
  public RecordVersion {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(at, "at");
    if (version < 1) {
      throw new IllegalArgumentException("version must be 1 or more, found " + version);
    }
  }
}
