package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimeExpressionsTest {
  /** A Monday. */
  private static final LocalDate MONDAY = LocalDate.of(2023, 5, 8);

  private static List<String> words(String text) {
    return TimeExpressions.resolve(text, MONDAY).stream()
        .map(r -> r.phrase() + " = " + r.words())
        .toList();
  }

  @Test
  void resolve_daysAroundTheAnchor() {
    assertThat(words("We got back yesterday and fly out again tomorrow."))
        .containsExactly("yesterday = 7 May 2023", "tomorrow = 9 May 2023");
    assertThat(words("The parcel came the day before yesterday, not today."))
        .containsExactly("the day before yesterday = 6 May 2023", "today = 8 May 2023");
  }

  @Test
  void resolve_weekdaysWithLastThisNext_bareWeekdayLeftAlone() {
    assertThat(words("Last Saturday we hiked; this Friday I rest; next Saturday we sail."))
        .containsExactly(
            "Last Saturday = 6 May 2023",
            "this Friday = 12 May 2023",
            "next Saturday = 13 May 2023");
    assertThat(words("On Saturday the shop is shut.")).isEmpty();
    // "last Monday" on a Monday is the Monday a week before, never the anchor itself
    assertThat(words("last Monday")).containsExactly("last Monday = 1 May 2023");
  }

  @Test
  void resolve_countsAgoAndAhead() {
    assertThat(words("I started two weeks ago and finish in 3 days."))
        .containsExactly("two weeks ago = 24 April 2023", "in 3 days = 11 May 2023");
    assertThat(words("She moved three months ago, a couple of years ago we met."))
        .containsExactly("three months ago = February 2023", "a couple of years ago = 2021");
  }

  @Test
  void resolve_periods() {
    assertThat(words("Last week was busy, next month is calmer, and last year was worse."))
        .containsExactly(
            "Last week = 1 May 2023 to 7 May 2023", "next month = June 2023", "last year = 2022");
    // weekends are those of the weeks "last week", "this week" and "next week" name
    assertThat(words("What a great weekend. This weekend or next weekend?"))
        .containsExactly(
            "This weekend = 13 May 2023 to 14 May 2023",
            "next weekend = 20 May 2023 to 21 May 2023");
  }

  @Test
  void resolve_wordsInsideOtherWords_areNoExpressions() {
    assertThat(words("The todays app and yesterdays news; nextweek.")).isEmpty();
  }

  @Test
  void inWords_dayMonthNameYear() {
    assertThat(TimeExpressions.inWords(MONDAY)).isEqualTo("8 May 2023");
    assertThat(TimeExpressions.inWords(LocalDate.of(2024, 12, 31))).isEqualTo("31 December 2024");
  }

  @Test
  void readDate_theFormatsPeopleWrite() {
    assertThat(TimeExpressions.readDate("1:56 pm on 8 May, 2023")).contains(MONDAY);
    assertThat(TimeExpressions.readDate("2024-03-04 09:15")).contains(LocalDate.of(2024, 3, 4));
    assertThat(TimeExpressions.readDate("2 February 2024, 8:30 pm"))
        .contains(LocalDate.of(2024, 2, 2));
    assertThat(TimeExpressions.readDate("Sept 3, 2022 at noon")).contains(LocalDate.of(2022, 9, 3));
    assertThat(TimeExpressions.readDate("2023-05-08T13:56:00Z")).contains(MONDAY);
    assertThat(TimeExpressions.readDate("2023/05/08 1:56 pm")).contains(MONDAY);
    assertThat(TimeExpressions.readDate("Monday, May 8th, 2023")).contains(MONDAY);
    assertThat(TimeExpressions.readDate("8th of May 2023")).contains(MONDAY);
    assertThat(TimeExpressions.readDate("2023-05/08")).as("mixed separators").isEmpty();
    assertThat(TimeExpressions.readDate("version 12023-05-08")).as("no year of 5 digits").isEmpty();
    assertThat(TimeExpressions.readDate("31 February 2024")).isEmpty();
    assertThat(TimeExpressions.readDate("sometime in spring")).isEmpty();
  }
}
