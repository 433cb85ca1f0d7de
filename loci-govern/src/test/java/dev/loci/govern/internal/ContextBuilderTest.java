package dev.loci.govern.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ContextBuilderTest {
  /** The fast confidence format writes what the {@code Formatter} it replaced wrote. */
  @Test
  void twoDecimals_equalsStringFormat_forConfidences() {
    long seed = 20261126L;
    Random r = new Random(seed);
    double[] edges = {0, 1, 0.005, 0.015, 0.125, 0.135, 0.245, 0.5, 0.555, 0.995, 0.9999, 1e-9};
    for (double d : edges) {
      assertThat(ContextBuilder.twoDecimals(d))
          .as("value %s", d)
          .isEqualTo(String.format(Locale.ROOT, "%.2f", d));
    }
    double c = 0.5;
    for (int i = 0; i < 200_000; i++) {
      double d =
          switch (i % 3) {
            case 0 -> r.nextDouble();
            case 1 -> Math.round(r.nextDouble() * 1000) / 1000.0; // three decimals, ties at .xx5
            default -> c = Math.min(1.0, c + (1.0 - c) * 0.2); // reinforcement's raises
          };
      if (i % 60 == 2) {
        c = r.nextDouble();
      }
      assertThat(ContextBuilder.twoDecimals(d))
          .as("value %s (seed %d)", d, seed)
          .isEqualTo(String.format(Locale.ROOT, "%.2f", d));
    }
  }
}
