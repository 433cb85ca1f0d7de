package dev.loci;

import java.time.Duration;
import java.util.Objects;

/**
 * When an appended batch counts as written. {@link #always()} (the default) fsyncs before a write
 * is acknowledged, sharing one fsync among concurrent writers (group commit); {@link
 * #interval(Duration)} acknowledges once the bytes reach the operating system and fsyncs in the
 * background at that interval, so a power loss can drop up to one interval of acknowledged writes;
 * {@link #none()} leaves flushing to the operating system.
 *
 * @param mode which policy
 * @param interval the background fsync interval for {@link Mode#INTERVAL}, zero otherwise
 */
public record Durability(Mode mode, Duration interval) {
  /** The three policies. */
  public enum Mode {
    /** fsync before acknowledging. */
    ALWAYS,
    /** fsync in the background every {@code interval}. */
    INTERVAL,
    /** never fsync except when closing or rolling a segment. */
    NONE
  }

  /** Checks the interval fits the mode. */
  public Durability {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(interval, "interval");
    if (mode == Mode.INTERVAL && (interval.isNegative() || interval.isZero())) {
      throw new IllegalArgumentException(
          "durability interval must be positive, found " + interval.toMillis() + " ms");
    }
    if (mode != Mode.INTERVAL && !interval.isZero()) {
      throw new IllegalArgumentException("durability " + mode + " takes no interval");
    }
  }

  /** fsync before every acknowledgement, with group commit. */
  public static Durability always() {
    return new Durability(Mode.ALWAYS, Duration.ZERO);
  }

  /** fsync in the background every {@code interval}. */
  public static Durability interval(Duration interval) {
    return new Durability(Mode.INTERVAL, interval);
  }

  /** Never fsync on the write path. */
  public static Durability none() {
    return new Durability(Mode.NONE, Duration.ZERO);
  }

  /**
   * Parses {@code always}, {@code none} or {@code interval=<ms>}.
   *
   * @throws InvalidRequestException naming {@code durability} if the text is none of these
   */
  public static Durability parse(String text) {
    Objects.requireNonNull(text, "text");
    if (text.equals("always")) {
      return always();
    }
    if (text.equals("none")) {
      return none();
    }
    if (text.startsWith("interval=")) {
      try {
        long ms = Long.parseLong(text.substring("interval=".length()));
        if (ms > 0) {
          return interval(Duration.ofMillis(ms));
        }
      } catch (NumberFormatException e) {
        // falls through to the error below
      }
    }
    throw new InvalidRequestException(
        "durability",
        "expected 'always', 'none' or 'interval=<milliseconds>' with a positive number, found '"
            + text
            + "'");
  }

  @Override
  public String toString() {
    return mode == Mode.INTERVAL ? "interval=" + interval.toMillis() : mode.name().toLowerCase();
  }
}
