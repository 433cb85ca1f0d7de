package dev.loci.recall;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves English relative time expressions against the date a text was written ("yesterday",
 * "last Saturday", "two weeks ago", "next month") into absolute days or periods, by a table of
 * rules, each a pattern and a function of the anchor date. Weeks run Monday to Sunday; "last
 * Saturday" is the latest Saturday before the anchor day and "next Saturday" the first after it;
 * "this Saturday" is the Saturday of the anchor's week, and "next weekend" the weekend of next week
 * (as "next week" is); a count of weeks ago is a day (the anchor minus seven days each), a count of
 * months or years ago is that whole month or year. A weekday with no "last", "this" or "next" is
 * left alone (it may mean either way). Stateless and thread-safe.
 */
public final class TimeExpressions {
  /**
   * One resolved expression.
   *
   * @param phrase the words as written
   * @param start the first day of the period
   * @param end the last day (the same as {@code start} for a single day)
   */
  public record Resolved(String phrase, LocalDate start, LocalDate end) {
    /** Checks the order. */
    public Resolved {
      Objects.requireNonNull(phrase, "phrase");
      if (end.isBefore(start)) {
        throw new IllegalArgumentException("expected start <= end, found " + start + " " + end);
      }
    }

    /**
     * The period in words, as people write dates: {@code 7 May 2023}, {@code May 2023}, {@code
     * 2023}, or {@code 1 May 2023 to 7 May 2023}.
     */
    public String words() {
      if (start.equals(end)) {
        return inWords(start);
      }
      if (start.getDayOfMonth() == 1
          && end.equals(start.with(TemporalAdjusters.lastDayOfMonth()))) {
        return monthInWords(start);
      }
      if (start.getDayOfYear() == 1 && end.equals(start.with(TemporalAdjusters.lastDayOfYear()))) {
        return String.valueOf(start.getYear());
      }
      return inWords(start) + " to " + inWords(end);
    }
  }

  private interface Rule {
    Resolved apply(Matcher m, LocalDate anchor);
  }

  private static final String WEEKDAY =
      "(monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
  private static final String COUNT =
      "(\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of)";
  private static final Map<String, Integer> NUMBERS =
      Map.ofEntries(
          Map.entry("a", 1),
          Map.entry("an", 1),
          Map.entry("one", 1),
          Map.entry("two", 2),
          Map.entry("a couple of", 2),
          Map.entry("three", 3),
          Map.entry("four", 4),
          Map.entry("five", 5),
          Map.entry("six", 6),
          Map.entry("seven", 7),
          Map.entry("eight", 8),
          Map.entry("nine", 9),
          Map.entry("ten", 10),
          Map.entry("eleven", 11),
          Map.entry("twelve", 12));

  /** The rules, longest phrases first so "the day before yesterday" wins over "yesterday". */
  private static final List<Map.Entry<Pattern, Rule>> RULES =
      List.of(
          rule("the day before yesterday", (m, a) -> day(m, a.minusDays(2))),
          rule("the day after tomorrow", (m, a) -> day(m, a.plusDays(2))),
          rule(COUNT + " (day|week|month|year)s? ago", TimeExpressions::ago),
          rule("in " + COUNT + " (day|week|month|year)s?", TimeExpressions::ahead),
          rule("(last|this|next) " + WEEKDAY, TimeExpressions::weekday),
          rule("(last|this|next) weekend", TimeExpressions::weekend),
          rule("(last|this|next) (week|month|year)", TimeExpressions::period),
          rule("yesterday", (m, a) -> day(m, a.minusDays(1))),
          rule("(today|tonight|this morning|this afternoon|this evening)", (m, a) -> day(m, a)),
          rule("tomorrow", (m, a) -> day(m, a.plusDays(1))));

  private static final String MONTH =
      "(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
  // year first, with dashes (ISO 8601, also followed by "T" and a time) or slashes
  private static final Pattern ISO =
      Pattern.compile("(?<![\\d./-])(\\d{4})([-/])(\\d{1,2})\\2(\\d{1,2})(?![\\d./-])");
  private static final Pattern DAY_MONTH_YEAR =
      Pattern.compile(
          "\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?" + MONTH + ",? (\\d{4})\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern MONTH_DAY_YEAR =
      Pattern.compile(
          "\\b" + MONTH + " (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b", Pattern.CASE_INSENSITIVE);

  private TimeExpressions() {}

  /**
   * A day as people write it, whatever form it was read from: {@code 8 May 2023} (day, the month's
   * English name in full, year), the form {@link Resolved#words()} uses for a day.
   */
  public static String inWords(LocalDate day) {
    return day.getDayOfMonth() + " " + monthInWords(day);
  }

  private static String monthInWords(LocalDate d) {
    return d.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + d.getYear();
  }

  /**
   * The first absolute date written in {@code text}: year first ({@code 2024-03-04}, also with a
   * time as in {@code 2024-03-04T09:15:00Z}, or {@code 2024/03/04}), day month year ({@code 8 May,
   * 2023}, {@code 2nd of February 2024}) or month day year ({@code May 8, 2023}), month names in
   * full or cut to three letters; empty if there is none or it is no real date.
   */
  public static java.util.Optional<LocalDate> readDate(String text) {
    Objects.requireNonNull(text, "text");
    List<LocalDate> found = new ArrayList<>();
    int first = Integer.MAX_VALUE;
    Matcher m = ISO.matcher(text);
    if (m.find()) {
      first = m.start();
      found.add(date(m.group(1), monthNumber(m.group(3)), m.group(4)));
    }
    m = DAY_MONTH_YEAR.matcher(text);
    if (m.find() && m.start() < first) {
      first = m.start();
      found.add(0, date(m.group(3), monthOf(m.group(2)), m.group(1)));
    }
    m = MONTH_DAY_YEAR.matcher(text);
    if (m.find() && m.start() < first) {
      found.add(0, date(m.group(3), monthOf(m.group(1)), m.group(2)));
    }
    return found.isEmpty()
        ? java.util.Optional.empty()
        : java.util.Optional.ofNullable(found.get(0));
  }

  private static int monthNumber(String digits) {
    return Integer.parseInt(digits);
  }

  private static int monthOf(String prefix) {
    List<String> months =
        List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");
    return months.indexOf(prefix.toLowerCase(Locale.ROOT).substring(0, 3)) + 1;
  }

  private static LocalDate date(String year, int month, String day) {
    try {
      return LocalDate.of(Integer.parseInt(year), month, Integer.parseInt(day));
    } catch (java.time.DateTimeException e) {
      return null;
    }
  }

  private static Map.Entry<Pattern, Rule> rule(String regex, Rule rule) {
    return Map.entry(
        Pattern.compile("\\b" + regex + "\\b", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE),
        rule);
  }

  /**
   * Every relative time expression in {@code text} resolved against {@code anchor}, in order of
   * appearance; overlapping matches keep the one found by the earlier rule.
   */
  public static List<Resolved> resolve(String text, LocalDate anchor) {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(anchor, "anchor");
    boolean[] taken = new boolean[text.length()];
    List<int[]> at = new ArrayList<>();
    List<Resolved> found = new ArrayList<>();
    for (Map.Entry<Pattern, Rule> r : RULES) {
      Matcher m = r.getKey().matcher(text);
      while (m.find()) {
        if (free(taken, m.start(), m.end())) {
          for (int i = m.start(); i < m.end(); i++) {
            taken[i] = true;
          }
          at.add(new int[] {m.start(), found.size()});
          found.add(r.getValue().apply(m, anchor));
        }
      }
    }
    at.sort((x, y) -> Integer.compare(x[0], y[0]));
    return at.stream().map(p -> found.get(p[1])).toList();
  }

  private static boolean free(boolean[] taken, int from, int to) {
    for (int i = from; i < to; i++) {
      if (taken[i]) {
        return false;
      }
    }
    return true;
  }

  private static Resolved day(Matcher m, LocalDate d) {
    return new Resolved(m.group(), d, d);
  }

  private static int count(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    return NUMBERS.containsKey(w) ? NUMBERS.get(w) : Integer.parseInt(w);
  }

  private static Resolved ago(Matcher m, LocalDate a) {
    return shifted(m, a, -count(m.group(1)), m.group(2));
  }

  private static Resolved ahead(Matcher m, LocalDate a) {
    return shifted(m, a, count(m.group(1)), m.group(2));
  }

  private static Resolved shifted(Matcher m, LocalDate a, int n, String unit) {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "day" -> day(m, a.plusDays(n));
      case "week" -> day(m, a.plusWeeks(n));
      case "month" -> month(m, a.plusMonths(n));
      default -> year(m, a.plusYears(n));
    };
  }

  private static Resolved month(Matcher m, LocalDate d) {
    LocalDate first = d.withDayOfMonth(1);
    return new Resolved(m.group(), first, first.with(TemporalAdjusters.lastDayOfMonth()));
  }

  private static Resolved year(Matcher m, LocalDate d) {
    LocalDate first = d.withDayOfYear(1);
    return new Resolved(m.group(), first, first.with(TemporalAdjusters.lastDayOfYear()));
  }

  private static int direction(String which) {
    return switch (which.toLowerCase(Locale.ROOT)) {
      case "last" -> -1;
      case "next" -> 1;
      default -> 0;
    };
  }

  private static Resolved weekday(Matcher m, LocalDate a) {
    DayOfWeek dow = DayOfWeek.valueOf(m.group(2).toUpperCase(Locale.ROOT));
    LocalDate d =
        switch (direction(m.group(1))) {
          case -1 -> a.with(TemporalAdjusters.previous(dow));
          case 1 -> a.with(TemporalAdjusters.next(dow));
          default ->
              a.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))
                  .with(TemporalAdjusters.nextOrSame(dow));
        };
    return day(m, d);
  }

  private static Resolved weekend(Matcher m, LocalDate a) {
    LocalDate monday =
        a.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusWeeks(direction(m.group(1)));
    return new Resolved(m.group(), monday.plusDays(5), monday.plusDays(6));
  }

  private static Resolved period(Matcher m, LocalDate a) {
    int dir = direction(m.group(1));
    return switch (m.group(2).toLowerCase(Locale.ROOT)) {
      case "week" -> {
        LocalDate monday =
            a.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)).plusWeeks(dir);
        yield new Resolved(m.group(), monday, monday.plusDays(6));
      }
      case "month" -> month(m, a.plusMonths(dir));
      default -> year(m, a.plusYears(dir));
    };
  }
}
