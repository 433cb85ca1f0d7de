package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RecallQuery#lengthNorm()} is BM25's {@code b}, per query: how far a short text that merely
 * holds a question word (a one-word reaction) ranks above a longer one that says more.
 */
class LengthNormTest {
  private static final Namespace NS = Namespace.of("acme.chat");

  @TempDir Path tmp;
  private Loci loci;
  private RecallMemory recall;

  @BeforeEach
  void open() {
    loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open();
    recall = RecallMemory.of(loci);
    put("short", "Bo: elena!!");
    put(
        "long",
        "Ada: Elena suggested we keep the Sunday dinners going every week at the old place by the"
            + " river, with the whole family and the neighbours too");
    for (int i = 0; i < 8; i++) {
      put("other" + i, "Cy: something else entirely, number " + i);
    }
  }

  private void put(String id, String content) {
    recall.putNode(NS, MemoryNode.builder(id, "turn", content).build());
  }

  @AfterEach
  void close() {
    loci.close();
  }

  private List<String> lexical(double lengthNorm) {
    return recall
        .recall(
            NS,
            RecallQuery.builder("What did Elena suggest?", RecallMode.LEXICAL)
                .lengthNorm(lengthNorm)
                .build())
        .ids();
  }

  private double score(String id, double lengthNorm) {
    return recall
        .recall(
            NS,
            RecallQuery.builder("elena", RecallMode.LEXICAL).lengthNorm(lengthNorm).k(2).build())
        .items()
        .stream()
        .filter(i -> i.node().id().equals(id))
        .findFirst()
        .orElseThrow()
        .score();
  }

  @Test
  void recall_fullLengthNorm_ranksTheOneWordReactionFirst_noneRanksByTheWordsMatched() {
    assertThat(lexical(1).get(0)).isEqualTo("short");
    // "suggested" stems to the question's "suggest": with length ignored, two matches beat one
    assertThat(lexical(0).get(0)).isEqualTo("long");
  }

  @Test
  void recall_lengthNorm_scalesTheShortTextsLeadByLength() {
    // one match each: with b = 0 BM25 does not see length, so both score the same
    assertThat(score("short", 0)).isEqualTo(score("long", 0));
    assertThat(score("short", 0.75) - score("long", 0.75))
        .isGreaterThan(score("short", 0.5) - score("long", 0.5))
        .isGreaterThan(0);
    assertThat(RecallQuery.builder("q", RecallMode.LEXICAL).build().lengthNorm())
        .isEqualTo(RecallQuery.DEFAULT_LENGTH_NORM);
  }
}
