package dev.loci.ui.internal;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/** Small formatting helpers the templates call. */
public final class Html {
  private static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private Html() {}

  /** {@code s} encoded for a URL query value. */
  public static String url(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** An instant as {@code 2026-11-22 10:00:00 UTC}. */
  public static String when(Instant t) {
    return WHEN.format(t);
  }

  /** An optional instant, or a dash. */
  public static String when(Optional<Instant> t) {
    return t.map(Html::when).orElse("—");
  }

  /** How long ago {@code t} was, roughly: {@code 5 min ago}. */
  public static String ago(Instant t) {
    long s = Math.max(0, Duration.between(t, Instant.now()).toSeconds());
    if (s < 60) {
      return s + " s ago";
    }
    if (s < 3600) {
      return s / 60 + " min ago";
    }
    if (s < 86_400) {
      return s / 3600 + " h ago";
    }
    return s / 86_400 + " d ago";
  }

  /** A count with thousands separators. */
  public static String n(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A size in bytes as {@code 1.2 MiB}. */
  public static String bytes(long b) {
    if (b < 1024) {
      return b + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = b;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** A ratio as a percentage with no decimals, or a dash when there is nothing to divide. */
  public static String pct(long part, long whole) {
    return whole == 0 ? "—" : Math.round(100.0 * part / whole) + " %";
  }

  /** A score with three decimals. */
  public static String score(double d) {
    return String.format(Locale.ROOT, "%.3f", d);
  }

  /** The first {@code max} characters of {@code s}, with an ellipsis if cut. */
  public static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max) + "…";
  }
}
