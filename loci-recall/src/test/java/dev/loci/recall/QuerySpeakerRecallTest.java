package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Query-side speakers through the facade: a person the question names lifts the items said by them
 * ({@link RecallQuery#SPEAKER}), in the fusing modes, without dropping the others.
 */
class QuerySpeakerRecallTest {
  private static final Namespace NS = Namespace.of("team.chat");

  @TempDir Path tmp;
  private Loci loci;
  private RecallMemory recall;

  @BeforeEach
  void setUp() {
    loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open();
    recall = RecallMemory.of(loci);
    // Bo's turn matches the words best; only Ada's was said by Ada
    put("bo", "Bo", "the pottery class starts soon");
    put("ada", "Ada", "my pottery class begins next monday");
    for (int i = 0; i < 6; i++) {
      put("other" + i, i % 2 == 0 ? "Ada" : "Bo", "lunch plans and the weather number " + i);
    }
    recall.putNode(NS, MemoryNode.builder("note", "note", "a note about pottery").build());
  }

  @AfterEach
  void tearDown() {
    loci.close();
  }

  private void put(String id, String speaker, String text) {
    recall.putNode(
        NS,
        MemoryNode.builder(id, "turn", speaker + ": " + text)
            .attribute(RecallQuery.SPEAKER, speaker)
            .attribute(RecallQuery.SESSION, id)
            .build());
  }

  private RecallResult ask(String question, RecallMode mode) {
    return recall.recall(NS, RecallQuery.builder(question, mode).k(10).build());
  }

  @Test
  void recall_questionNamingASpeaker_liftsWhatTheySaid() {
    assertThat(ask("When does the pottery class start?", RecallMode.HYBRID).ids().get(0))
        .isEqualTo("bo");

    RecallResult named = ask("When does Ada's pottery class start?", RecallMode.HYBRID);

    assertThat(named.ids().get(0)).isEqualTo("ada");
    // a boost, not a filter: Bo's turn and the note without a speaker are still there
    assertThat(named.ids()).contains("bo", "note");
  }

  @Test
  void recall_graphModes_startFromTheSameLift() {
    for (RecallMode mode : new RecallMode[] {RecallMode.PPR, RecallMode.WEIGHTED_GRAPH}) {
      assertThat(ask("When does Ada's pottery class start?", mode).ids().get(0))
          .as(mode.toString())
          .isEqualTo("ada");
    }
  }

  @Test
  void recall_questionNamingBothSpeakersOrNeither_liftsNobody() {
    RecallResult plain = ask("When does the pottery class start?", RecallMode.HYBRID);

    assertThat(ask("When do Ada and Bo's pottery class start?", RecallMode.HYBRID).ids())
        .as("both named: every candidate with a speaker has one named; nothing to tell apart")
        .startsWith("bo");
    assertThat(ask("When does the adamant pottery class start?", RecallMode.HYBRID).ids())
        .as("a word that only contains a name does not name it")
        .isEqualTo(plain.ids());
  }
}
