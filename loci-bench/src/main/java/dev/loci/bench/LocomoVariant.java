package dev.loci.bench;

import dev.loci.recall.RecallMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One Loci system of a LoCoMo run: a mode with the query-time knobs it is asked with.
 *
 * @param mode the recall mode
 * @param lexicalShare the lexical share in fusion (ignored by modes that do not fuse)
 * @param sessionCap the session cap, 0 for none
 * @param contextWeight how much a match in a turn's neighbours counts in the lexical ranking
 *     (ignored by modes that do not rank lexically)
 * @param lengthNorm BM25's length normalization of the lexical ranking (ignored likewise)
 * @param name the system's name in reports: the mode's wire name, then the knobs that vary in the
 *     run's grid, for example {@code ppr ls=0.7 cap=2}
 */
record LocomoVariant(
    RecallMode mode,
    double lexicalShare,
    int sessionCap,
    double contextWeight,
    double lengthNorm,
    String name) {
  LocomoVariant {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(name, "name");
  }

  /** Whether a mode combines a lexical and an embedding ranking, so the share matters. */
  static boolean fuses(RecallMode mode) {
    return mode == RecallMode.HYBRID || mode.usesGraph();
  }

  /** Whether a mode ranks lexically, so the context weight matters. */
  static boolean ranksLexically(RecallMode mode) {
    return mode == RecallMode.LEXICAL || fuses(mode);
  }

  /**
   * Every mode with every share (fusing modes only; the others take the first), every cap, every
   * context weight and every length norm (modes that rank lexically only), in mode order; a knob is
   * named only when the grid has more than one value of it.
   */
  static List<LocomoVariant> grid(
      List<RecallMode> modes,
      List<Double> shares,
      List<Integer> caps,
      List<Double> weights,
      List<Double> norms) {
    List<LocomoVariant> out = new ArrayList<>();
    for (RecallMode m : modes) {
      List<Double> ms = fuses(m) ? shares : List.of(shares.get(0));
      List<Double> mw = ranksLexically(m) ? weights : List.of(weights.get(0));
      List<Double> mn = ranksLexically(m) ? norms : List.of(norms.get(0));
      for (double share : ms) {
        for (int cap : caps) {
          for (double weight : mw) {
            for (double norm : mn) {
              StringBuilder name = new StringBuilder(m.wireName());
              if (ms.size() > 1) {
                name.append(" ls=").append(plain(share));
              }
              if (caps.size() > 1) {
                name.append(" cap=").append(cap);
              }
              if (mw.size() > 1) {
                name.append(" cw=").append(plain(weight));
              }
              if (mn.size() > 1) {
                name.append(" b=").append(plain(norm));
              }
              out.add(new LocomoVariant(m, share, cap, weight, norm, name.toString()));
            }
          }
        }
      }
    }
    return out;
  }

  /** A number as short as it reads: 0.7, 1, 0.25. */
  static String plain(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
