package dev.loci.internal;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Timestamps as Loci writes them: UTC with six fraction digits ({@code
 * 2026-11-22T10:00:00.123456Z}); the engine's own clock readings are truncated to microseconds.
 * Parsing takes a fast path for exactly that shape, because replay reads millions of them, and
 * falls back to {@link Instant#parse} for anything else ISO-8601.
 */
public final class Timestamps {
  private Timestamps() {}

  /** Truncates to microseconds, the precision every stored timestamp has. */
  public static Instant truncate(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MICROS);
  }

  /**
   * Formats in UTC with six fraction digits, or nine when the instant has sub-microsecond digits
   * (only imported timestamps do).
   */
  public static String format(Instant t) {
    String base = t.minusNanos(t.getNano()).toString(); // 2026-11-22T10:00:00Z
    int nanos = t.getNano();
    boolean micro = nanos % 1000 == 0;
    String digits = Integer.toString(micro ? nanos / 1000 : nanos);
    int width = micro ? 6 : 9;
    StringBuilder sb = new StringBuilder(base.length() + width + 1);
    sb.append(base, 0, base.length() - 1).append('.');
    for (int i = digits.length(); i < width; i++) {
      sb.append('0');
    }
    return sb.append(digits).append('Z').toString();
  }

  /**
   * Parses a timestamp.
   *
   * @throws DateTimeParseException if the text is not an ISO-8601 instant
   */
  public static Instant parse(CharSequence text) {
    if (text.length() == 27
        && text.charAt(4) == '-'
        && text.charAt(7) == '-'
        && text.charAt(10) == 'T'
        && text.charAt(13) == ':'
        && text.charAt(16) == ':'
        && text.charAt(19) == '.'
        && text.charAt(26) == 'Z') {
      int year = digits(text, 0, 4);
      int month = digits(text, 5, 7);
      int day = digits(text, 8, 10);
      int hour = digits(text, 11, 13);
      int minute = digits(text, 14, 16);
      int second = digits(text, 17, 19);
      int micros = digits(text, 20, 26);
      if (year >= 0
          && month >= 1
          && month <= 12
          && day >= 1
          && day <= 31
          && hour >= 0
          && hour < 24
          && minute >= 0
          && minute < 60
          && second >= 0
          && second < 60
          && micros >= 0) {
        try {
          long epochDay = LocalDate.of(year, month, day).toEpochDay();
          long seconds = epochDay * 86_400L + hour * 3600L + minute * 60L + second;
          return Instant.ofEpochSecond(seconds, micros * 1000L);
        } catch (java.time.DateTimeException e) {
          // an impossible date such as February 30: let Instant.parse report it
        }
      }
    }
    return Instant.parse(text);
  }

  private static int digits(CharSequence s, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}
