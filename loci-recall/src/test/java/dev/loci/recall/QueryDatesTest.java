package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryDatesTest {
  /** A Monday in October. */
  private static final LocalDate ANCHOR = LocalDate.of(2023, 10, 16);

  private static List<String> read(String question) {
    return QueryDates.read(question, ANCHOR).stream()
        .map(r -> r.phrase() + " = " + r.start() + "/" + r.end())
        .toList();
  }

  @Test
  void read_fullDates_areDays() {
    assertThat(read("What did she paint on October 13, 2023?"))
        .containsExactly("October 13, 2023 = 2023-10-13/2023-10-13");
    assertThat(read("What did he buy on 1 February, 2023 and on 2023-03-04?"))
        .containsExactly(
            "1 February, 2023 = 2023-02-01/2023-02-01", "2023-03-04 = 2023-03-04/2023-03-04");
  }

  @Test
  void read_monthsAndYears_arePeriods() {
    assertThat(read("What class did Maria start in December 2023?"))
        .containsExactly("December 2023 = 2023-12-01/2023-12-31");
    assertThat(read("How often did they go to the beach in 2022?"))
        .containsExactly("in 2022 = 2022-01-01/2022-12-31");
    // a bare number is not a year, nor is a year inside a date
    assertThat(read("Who scored 2023 points?")).isEmpty();
  }

  @Test
  void read_monthWithoutYear_isTheLatestOneNotAfterTheAnchor() {
    assertThat(read("When did Melanie go camping in June?"))
        .containsExactly("in June = 2023-06-01/2023-06-30");
    assertThat(read("What happened in early November?"))
        .containsExactly("early November = 2022-11-01/2022-11-30");
    // "may" the verb is no month; "May" after "in" is
    assertThat(read("What may she do in the spring?")).isEmpty();
    assertThat(read("Where was she going in May?"))
        .containsExactly("in May = 2023-05-01/2023-05-31");
  }

  @Test
  void read_relativeExpressions_resolveAgainstTheAnchor() {
    assertThat(read("Where did John go on a road trip last year?"))
        .containsExactly("last year = 2022-01-01/2022-12-31");
    assertThat(read("What did he do two weeks ago?"))
        .containsExactly("two weeks ago = 2023-10-02/2023-10-02");
  }

  @Test
  void read_noTime_isEmpty() {
    assertThat(read("What is Caroline's identity?")).isEmpty();
  }

  @Test
  void within_countsTheSlackAfterThePeriodOnly() {
    List<TimeExpressions.Resolved> may = QueryDates.read("in May 2023", ANCHOR);
    assertThat(QueryDates.within(LocalDate.of(2023, 5, 20), may, 0)).isTrue();
    assertThat(QueryDates.within(LocalDate.of(2023, 6, 5), may, 0)).isFalse();
    assertThat(QueryDates.within(LocalDate.of(2023, 6, 5), may, 7)).isTrue();
    assertThat(QueryDates.within(LocalDate.of(2023, 4, 30), may, 7)).isFalse();
  }
}
