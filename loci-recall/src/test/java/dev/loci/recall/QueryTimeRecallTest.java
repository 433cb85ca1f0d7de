package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Query-side time through the facade: a day or period named in the question lifts the items dated
 * in it by {@link RecallQuery#TIME}, in the fusing modes, without dropping the others.
 */
class QueryTimeRecallTest {
  private static final Namespace NS = Namespace.of("team.chat");

  @TempDir Path tmp;
  private Loci loci;
  private RecallMemory recall;

  @BeforeEach
  void setUp() {
    loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open();
    recall = RecallMemory.of(loci);
    // the March turn matches the words best; only the April one was said in April
    put(
        "march",
        "2024-03-27 10:05",
        "the export job crashed again, the export job ran out of memory");
    put("april", "2024-04-10 16:30", "the export job processed the invoices fine");
    put("may", "2024-05-13 09:45", "the pager fired once while you were away");
    put("june", "2023-06-02 11:00", "we moved the export job to the new server");
    for (int i = 0; i < 6; i++) {
      put("other" + i, "2024-03-04 09:15", "lunch plans and the weather number " + i);
    }
  }

  @AfterEach
  void tearDown() {
    loci.close();
  }

  private void put(String id, String time, String text) {
    recall.putNode(
        NS,
        MemoryNode.builder(id, "turn", text)
            .attribute(RecallQuery.TIME, time)
            .attribute(RecallQuery.SESSION, id)
            .build());
  }

  private RecallResult ask(String question, RecallMode mode) {
    return recall.recall(
        NS, RecallQuery.builder(question, mode).k(5).asOf(LocalDate.of(2024, 5, 13)).build());
  }

  @Test
  void recall_questionNamingAMonth_liftsTheItemsDatedInIt() {
    assertThat(ask("What happened to the export job?", RecallMode.HYBRID).ids().get(0))
        .isEqualTo("march");

    RecallResult dated = ask("What happened to the export job in April 2024?", RecallMode.HYBRID);

    assertThat(dated.ids().get(0)).isEqualTo("april");
    // a boost, not a filter: the undated matches are still there
    assertThat(dated.ids()).contains("march", "june");
  }

  @Test
  void recall_graphModes_startFromTheSameLift() {
    assertThat(ask("What happened to the export job in April 2024?", RecallMode.PPR).ids().get(0))
        .isEqualTo("april");
    assertThat(
            ask("What happened to the export job in April 2024?", RecallMode.WEIGHTED_GRAPH)
                .ids()
                .get(0))
        .isEqualTo("april");
  }

  @Test
  void recall_monthWithoutAYear_countsBackFromTheQueryDay() {
    String question = "Where did the export job go in June?";
    // from 13 May 2024, "in June" is June 2023, when the export job moved; from 1 July 2024 it is
    // June 2024, when nothing was said, so nothing is lifted
    int asOfMay = rankOf("june", question, LocalDate.of(2024, 5, 13));
    int asOfJuly = rankOf("june", question, LocalDate.of(2024, 7, 1));

    assertThat(asOfMay).isLessThan(asOfJuly);
    assertThat(asOfJuly).isGreaterThan(0);
  }

  private int rankOf(String id, String question, LocalDate asOf) {
    return recall
        .recall(NS, RecallQuery.builder(question, RecallMode.HYBRID).k(10).asOf(asOf).build())
        .ids()
        .indexOf(id);
  }
}
