package dev.loci.recall;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the days and periods a question names ("in May 2023", "on October 13, 2023", "in 2022", "in
 * June", "last week", "two months ago") into absolute periods, so recall can prefer what was said
 * in that time. Absolute dates come first: a full date ({@code 8 May, 2023}, {@code May 8, 2023},
 * {@code 2023-05-08}) is that day, a month with a year that month, a year after "in", "during",
 * "of", "since", "before" or "after" that year, and a month name after one of those words (or
 * "early", "mid", "late") with no year the latest such month that starts on or before the anchor.
 * Then the relative expressions of {@link TimeExpressions}, resolved against the anchor.
 * Overlapping matches keep the more specific one (a full date over its month and year). Stateless
 * and thread-safe.
 */
public final class QueryDates {
  private static final String MONTH =
      "(january|february|march|april|may|june|july|august|september|october|november|december"
          + "|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\\.?";
  private static final String YEAR = "((?:19|20)\\d{2})";
  private static final String LEAD = "(?:in|during|of|since|before|after|by|until|early|mid|late)";

  private static final Pattern ISO =
      Pattern.compile("\\b" + YEAR + "-(\\d{1,2})-(\\d{1,2})\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern DAY_MONTH_YEAR =
      Pattern.compile(
          "\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?" + MONTH + ",? " + YEAR + "\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern MONTH_DAY_YEAR =
      Pattern.compile(
          "\\b" + MONTH + " (\\d{1,2})(?:st|nd|rd|th)?,? " + YEAR + "\\b",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern MONTH_YEAR =
      Pattern.compile("\\b" + MONTH + ",? (?:of )?" + YEAR + "\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern LEAD_YEAR =
      Pattern.compile("\\b" + LEAD + "(?: the year)? " + YEAR + "\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern LEAD_MONTH =
      Pattern.compile("\\b" + LEAD + "[ -]" + MONTH + "\\b", Pattern.CASE_INSENSITIVE);

  private static final List<String> MONTHS =
      List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec");

  private QueryDates() {}

  /**
   * Every day or period {@code question} names, in order of appearance; {@code anchor} is the day
   * the question is asked from (relative expressions and month names without a year count back from
   * it).
   */
  public static List<TimeExpressions.Resolved> read(String question, LocalDate anchor) {
    Objects.requireNonNull(question, "question");
    Objects.requireNonNull(anchor, "anchor");
    boolean[] taken = new boolean[question.length()];
    List<Found> found = new ArrayList<>();
    Matcher m = ISO.matcher(question);
    while (m.find()) {
      day(m, m.group(1), Integer.parseInt(m.group(2)), m.group(3), taken, found);
    }
    m = DAY_MONTH_YEAR.matcher(question);
    while (m.find()) {
      day(m, m.group(3), month(m.group(2)), m.group(1), taken, found);
    }
    m = MONTH_DAY_YEAR.matcher(question);
    while (m.find()) {
      day(m, m.group(3), month(m.group(1)), m.group(2), taken, found);
    }
    m = MONTH_YEAR.matcher(question);
    while (m.find()) {
      YearMonth ym = YearMonth.of(Integer.parseInt(m.group(2)), month(m.group(1)));
      add(m, ym.atDay(1), ym.atEndOfMonth(), taken, found);
    }
    m = LEAD_YEAR.matcher(question);
    while (m.find()) {
      LocalDate first = LocalDate.of(Integer.parseInt(m.group(1)), 1, 1);
      add(m, first, first.with(TemporalAdjusters.lastDayOfYear()), taken, found);
    }
    m = LEAD_MONTH.matcher(question);
    while (m.find()) {
      // "may" is also a verb: only a capitalized May is the month
      if (m.group(1).equals("may")) {
        continue;
      }
      YearMonth ym = YearMonth.of(anchor.getYear(), month(m.group(1)));
      if (ym.atDay(1).isAfter(anchor)) {
        ym = ym.minusYears(1);
      }
      add(m, ym.atDay(1), ym.atEndOfMonth(), taken, found);
    }
    for (TimeExpressions.Resolved r : TimeExpressions.resolve(question, anchor)) {
      int at = question.indexOf(r.phrase());
      if (at >= 0 && free(taken, at, at + r.phrase().length())) {
        mark(taken, at, at + r.phrase().length());
        found.add(new Found(at, r));
      }
    }
    return found.stream().sorted(Comparator.comparingInt(Found::at)).map(Found::r).toList();
  }

  /**
   * Whether {@code day} falls in one of {@code periods}, or up to {@code slackDays} after its end
   * (people speak of a day some days after it).
   */
  public static boolean within(
      LocalDate day, List<TimeExpressions.Resolved> periods, int slackDays) {
    Objects.requireNonNull(day, "day");
    for (TimeExpressions.Resolved p : periods) {
      if (!day.isBefore(p.start()) && !day.isAfter(p.end().plusDays(slackDays))) {
        return true;
      }
    }
    return false;
  }

  private record Found(int at, TimeExpressions.Resolved r) {}

  private static void day(
      Matcher m, String year, int month, String day, boolean[] taken, List<Found> found) {
    LocalDate d;
    try {
      d = LocalDate.of(Integer.parseInt(year), month, Integer.parseInt(day));
    } catch (java.time.DateTimeException e) {
      return;
    }
    add(m, d, d, taken, found);
  }

  private static void add(
      Matcher m, LocalDate start, LocalDate end, boolean[] taken, List<Found> found) {
    if (free(taken, m.start(), m.end())) {
      mark(taken, m.start(), m.end());
      found.add(new Found(m.start(), new TimeExpressions.Resolved(m.group(), start, end)));
    }
  }

  private static int month(String name) {
    return MONTHS.indexOf(name.toLowerCase(Locale.ROOT).substring(0, 3)) + 1;
  }

  private static boolean free(boolean[] taken, int from, int to) {
    for (int i = from; i < to; i++) {
      if (taken[i]) {
        return false;
      }
    }
    return true;
  }

  private static void mark(boolean[] taken, int from, int to) {
    for (int i = from; i < to; i++) {
      taken[i] = true;
    }
  }
}
