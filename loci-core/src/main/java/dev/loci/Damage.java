package dev.loci;

import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * One problem found in the data directory while opening or verifying it.
 *
 * @param kind what sort of problem
 * @param file the file it is in
 * @param offset the byte offset in {@code file}, or -1 when it concerns the whole file
 * @param seq the batch sequence number involved, when known
 * @param detail what is wrong, in words
 */
public record Damage(Kind kind, Path file, long offset, OptionalLong seq, String detail) {
  /** The sorts of problem. */
  public enum Kind {
    /**
     * Bad lines at the very end of the last segment, after the last good one: what a crash leaves
     * of writes that were cut short and never acknowledged. Opening truncates them. Bit rot in the
     * final line of a quiet journal looks the same and cannot be told apart; a line with a valid
     * checksum, which a cut-short write cannot produce, is never treated as torn.
     */
    TORN_TAIL(false),
    /** A line that fails to parse, fails its checksum, or repeats a sequence number; skipped. */
    BAD_LINE(true),
    /** Sequence numbers jump: batches are missing between two good lines. */
    SEQUENCE_GAP(true),
    /** A good batch whose events could not be applied (they refer to a skipped batch). */
    APPLY_ERROR(true),
    /** A snapshot file that is damaged or incomplete; an older snapshot or the journal is used. */
    BAD_SNAPSHOT(true);

    private final boolean lossy;

    Kind(boolean lossy) {
      this.lossy = lossy;
    }

    /** Whether this kind means committed data may be missing, so verification must fail. */
    public boolean lossy() {
      return lossy;
    }
  }

  /** Checks presence. */
  public Damage {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(seq, "seq");
    Objects.requireNonNull(detail, "detail");
  }

  @Override
  public String toString() {
    return kind
        + " "
        + file
        + (offset >= 0 ? " @" + offset : "")
        + (seq.isPresent() ? " seq " + seq.getAsLong() : "")
        + ": "
        + detail;
  }
}
