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
    int slot = (int) (t.getEpochSecond() * 31 + t.getNano() / 1000) & (RECENT.length - 1);
    Formatted recent = RECENT[slot];
    if (recent != null && recent.at().equals(t)) {
      return recent.text();
    }
    String text = append(new StringBuilder(30), t).toString();
    RECENT[slot] = new Formatted(t, text);
    return text;
  }

  /**
   * Instants formatted lately, with their text, by a hash of the instant: the write path formats
   * each command's time three times (the trace's two timestamps, then the journal line's, after the
   * rest of its round is decided). Shared by every thread without locks: an entry is immutable, so
   * a thread sees a whole one or a stale one, and a miss only costs a format.
   */
  private record Formatted(Instant at, String text) {}

  private static final Formatted[] RECENT = new Formatted[64];

  /** Appends {@link #format(Instant)} of {@code t} without building intermediate strings. */
  public static StringBuilder append(StringBuilder sb, Instant t) {
    long seconds = t.getEpochSecond();
    long day = Math.floorDiv(seconds, 86_400L);
    int secOfDay = (int) Math.floorMod(seconds, 86_400L);
    LocalDate date = LocalDate.ofEpochDay(day);
    int year = date.getYear();
    if (year < 0 || year > 9999) {
      String iso = t.toString(); // rare: let the JDK write the extended year form
      return sb.append(iso, 0, iso.length() - 1).append('Z');
    }
    pad(sb, year, 4).append('-');
    pad(sb, date.getMonthValue(), 2).append('-');
    pad(sb, date.getDayOfMonth(), 2).append('T');
    pad(sb, secOfDay / 3600, 2).append(':');
    pad(sb, secOfDay / 60 % 60, 2).append(':');
    pad(sb, secOfDay % 60, 2).append('.');
    int nanos = t.getNano();
    if (nanos % 1000 == 0) {
      pad(sb, nanos / 1000, 6);
    } else {
      pad(sb, nanos, 9);
    }
    return sb.append('Z');
  }

  private static StringBuilder pad(StringBuilder sb, int value, int width) {
    for (int p = width - 1, scale = pow10(p); p >= 0; p--, scale /= 10) {
      sb.append((char) ('0' + value / scale % 10));
    }
    return sb;
  }

  private static int pow10(int p) {
    int v = 1;
    for (int i = 0; i < p; i++) {
      v *= 10;
    }
    return v;
  }

  /**
   * Parses a timestamp.
   *
   * @throws DateTimeParseException if the text is not an ISO-8601 instant
   */
  public static Instant parse(CharSequence text) {
    return parse(text, null);
  }

  /**
   * {@link #parse(CharSequence)}, answering {@code same} itself when the text stands for it: a
   * record's times often equal its batch's, and a million replayed records then share one instant.
   *
   * @param same the instant to answer if equal, or null
   * @throws DateTimeParseException if the text is not an ISO-8601 instant
   */
  static Instant parse(CharSequence text, Instant same) {
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
          if (same != null && same.getEpochSecond() == seconds && same.getNano() == micros * 1000) {
            return same;
          }
          return Instant.ofEpochSecond(seconds, micros * 1000L);
        } catch (java.time.DateTimeException e) {
          // an impossible date such as February 30: let Instant.parse report it
        }
      }
    }
    Instant parsed = Instant.parse(text);
    return parsed.equals(same) ? same : parsed;
  }

  /**
   * Parses the UTF-8 text of {@code b} from {@code from} to {@code to} as {@link
   * #parse(CharSequence)} does, reading the bytes in place when they are in the form {@link
   * #format} writes.
   *
   * @throws DateTimeParseException if the text is not an ISO-8601 instant
   */
  static Instant parse(byte[] b, int from, int to) {
    if (to - from == 27) {
      return parse(new Ascii(b, from, to));
    }
    return parse(new String(b, from, to - from, java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Bytes read as characters, one each; parse's fast path only accepts ASCII digits and marks. */
  private record Ascii(byte[] b, int from, int to) implements CharSequence {
    @Override
    public int length() {
      return to - from;
    }

    @Override
    public char charAt(int index) {
      return (char) (b[from + index] & 0xFF);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new Ascii(b, from + start, from + end);
    }

    @Override
    public String toString() {
      return new String(b, from, to - from, java.nio.charset.StandardCharsets.UTF_8);
    }
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
