package dev.loci.bench;

import java.time.Duration;
import java.util.Locale;

/**
 * How benchmark reports write numbers and strings: grouped rates and counts for Markdown, plain
 * numbers and quoted strings for JSON. Locale-independent.
 */
final class Format {
  private Format() {}

  /** A rate rounded to a whole number, with thousands separators: {@code 12,345}. */
  static String rate(double perSecond) {
    return String.format(Locale.ROOT, "%,.0f", perSecond);
  }

  /** A count with thousands separators. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code v} with exactly {@code decimals} decimals. */
  static String fixed(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /** A byte count in MiB with one decimal: {@code 352.8 MiB}. */
  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
  }

  /** A duration in seconds as a JSON number. */
  static String seconds(Duration d) {
    return number(d.toNanos() / 1e9);
  }

  /** A JSON number: whole values without a fraction, others with 4 decimals, NaN as null. */
  static String number(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return "null";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%.4f", v);
  }

  /** A JSON string literal. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"').toString();
  }

  /** One Markdown table row. */
  static void row(StringBuilder b, String... cells) {
    b.append("|");
    for (String c : cells) {
      b.append(' ').append(c).append(" |");
    }
    b.append('\n');
  }
}
