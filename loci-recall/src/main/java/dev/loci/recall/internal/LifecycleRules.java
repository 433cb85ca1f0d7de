package dev.loci.recall.internal;

import dev.loci.recall.LifecycleState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The lifecycle state machine and the arithmetic of stability. Pure functions of recorded values
 * and an instant: nothing here reads a clock, so the same journal gives the same states.
 *
 * <p>Design. A memory's stability is recorded as a value {@code s0} at an instant {@code t0} (its
 * first put for a memory never used, else its last reinforcement or negative feedback). At any
 * later instant it is {@code s0 * 2^(-(t - t0) / h)}, where {@code h} is the namespace half-life
 * times the kind factor (episodic 1, route 2, semantic 4) times {@code 1 + reinforcements}: each
 * use makes the next fading slower. A useful use moves stability {@value #GAIN} of the way to 1, a
 * use marked not useful halves it; both are in [0, 1] by construction.
 *
 * <p>States: {@code encoded} until the first useful use ({@code active}); {@code stabilizing} from
 * {@value #STABILIZING_USES} uses with stability at least {@value #STABILIZING_STABILITY}; {@code
 * consolidated} from {@value #CONSOLIDATED_USES} uses with stability at least {@value
 * #CONSOLIDATED_STABILITY}. A sweep moves any of those to {@code fading} when stability is below
 * {@value #FADING_BELOW}, and {@code fading} to {@code archived} below {@value #ARCHIVED_BELOW}; a
 * useful use brings a fading or archived memory back to {@code active}.
 */
public final class LifecycleRules {
  /** The stability of a memory never used. */
  public static final double INITIAL = 0.5;

  /** The share of the way to 1 a useful use moves stability. */
  public static final double GAIN = 0.35;

  /** Uses from which an active memory stabilizes. */
  public static final long STABILIZING_USES = 3;

  /** Stability from which an active memory stabilizes. */
  public static final double STABILIZING_STABILITY = 0.6;

  /** Uses from which a stabilizing memory is consolidated. */
  public static final long CONSOLIDATED_USES = 6;

  /** Stability from which a stabilizing memory is consolidated. */
  public static final double CONSOLIDATED_STABILITY = 0.85;

  /** Stability below which a sweep marks a memory fading. */
  public static final double FADING_BELOW = 0.2;

  /** Stability below which a sweep archives a fading memory. */
  public static final double ARCHIVED_BELOW = 0.05;

  private LifecycleRules() {}

  /**
   * The recorded lifecycle of one memory.
   *
   * @param state the recorded state
   * @param reinforcements how many useful uses
   * @param stability the stability at {@code since}
   * @param since when {@code stability} was recorded; empty means the memory's first put
   * @param lastAccess the last use, if any
   */
  public record Life(
      LifecycleState state,
      long reinforcements,
      double stability,
      Optional<Instant> since,
      Optional<Instant> lastAccess) {
    /** A memory never used. */
    public static final Life NEW =
        new Life(LifecycleState.ENCODED, 0, INITIAL, Optional.empty(), Optional.empty());
  }

  /** A change of state and why. */
  public record Step(LifecycleState from, LifecycleState to, String reason) {}

  /** How much longer than episodic memories a memory of {@code kind} lasts. */
  public static double kindFactor(String kind) {
    return switch (kind) {
      case "semantic" -> 4;
      case "route" -> 2;
      default -> 1;
    };
  }

  /** The effective half-life of {@code life}, in seconds. */
  public static double halfLifeSeconds(Life life, Duration halfLife, double kindFactor) {
    return halfLife.toMillis() / 1000.0 * kindFactor * (1 + life.reinforcements());
  }

  /** The stability of {@code life} at {@code now}; {@code born} stands in for an empty since. */
  public static double stability(
      Life life, Instant born, Duration halfLife, double kindFactor, Instant now) {
    Instant t0 = life.since().orElse(born);
    double seconds = Math.max(0, (now.toEpochMilli() - t0.toEpochMilli()) / 1000.0);
    double s =
        life.stability() * Math.pow(2, -seconds / halfLifeSeconds(life, halfLife, kindFactor));
    return clamp(s);
  }

  /** {@code v} in [0, 1]; NaN becomes 0. */
  public static double clamp(double v) {
    return v > 1 ? 1 : v >= 0 ? v : 0;
  }

  /** Stability after a use: {@code GAIN} of the way to 1 if useful, else halved. */
  public static double afterUse(double current, boolean useful) {
    return clamp(useful ? current + (1 - current) * GAIN : current / 2);
  }

  /**
   * The state changes a use causes, from {@code state}, with the counts after it; in order (a first
   * use of an encoded memory may not go further than active).
   */
  public static List<Step> onUse(
      LifecycleState state, boolean useful, long reinforcements, double stability) {
    List<Step> out = new ArrayList<>();
    LifecycleState s = state;
    if (!useful) {
      if (stability < FADING_BELOW && s != LifecycleState.FADING && s != LifecycleState.ARCHIVED) {
        out.add(new Step(s, LifecycleState.FADING, "marked not useful, " + stab(stability)));
      }
      return out;
    }
    if (s == LifecycleState.ENCODED) {
      out.add(new Step(s, LifecycleState.ACTIVE, "first useful use"));
      s = LifecycleState.ACTIVE;
    } else if (s == LifecycleState.FADING || s == LifecycleState.ARCHIVED) {
      out.add(new Step(s, LifecycleState.ACTIVE, "reinforced while " + s.wireName() + ", revived"));
      s = LifecycleState.ACTIVE;
    }
    if (s == LifecycleState.ACTIVE
        && reinforcements >= STABILIZING_USES
        && stability >= STABILIZING_STABILITY) {
      out.add(
          new Step(
              s, LifecycleState.STABILIZING, reinforcements + " useful uses, " + stab(stability)));
      s = LifecycleState.STABILIZING;
    }
    if (s == LifecycleState.STABILIZING
        && reinforcements >= CONSOLIDATED_USES
        && stability >= CONSOLIDATED_STABILITY) {
      out.add(
          new Step(
              s, LifecycleState.CONSOLIDATED, reinforcements + " useful uses, " + stab(stability)));
    }
    return out;
  }

  /**
   * The state changes time has caused by the time stability is {@code stability}, {@code idle}
   * after the memory's last recorded change.
   */
  public static List<Step> onTime(LifecycleState state, double stability, Duration idle) {
    List<Step> out = new ArrayList<>();
    LifecycleState s = state;
    String after = " after " + days(idle) + " without use";
    if (s != LifecycleState.FADING && s != LifecycleState.ARCHIVED && stability < FADING_BELOW) {
      out.add(
          new Step(
              s,
              LifecycleState.FADING,
              "decayed: " + stab(stability) + " below " + FADING_BELOW + after));
      s = LifecycleState.FADING;
    }
    if (s == LifecycleState.FADING && stability < ARCHIVED_BELOW) {
      out.add(
          new Step(
              s,
              LifecycleState.ARCHIVED,
              "decayed: " + stab(stability) + " below " + ARCHIVED_BELOW + after));
    }
    return out;
  }

  private static String stab(double s) {
    return String.format(Locale.ROOT, "stability %.3f", s);
  }

  private static String days(Duration d) {
    return String.format(Locale.ROOT, "%.1f days", d.toMillis() / 86_400_000.0);
  }
}
