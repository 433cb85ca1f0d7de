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
 * An item's context ({@link MemoryNode#INDEX_CONTEXT}: the conversation pack's neighbouring turns)
 * is found by lexical search but counts {@link RecallQuery#contextWeight()} as much as the item's
 * own text, so the turn that says something ranks above the neighbours that only border it.
 */
class ContextWeightTest {
  private static final Namespace NS = Namespace.of("acme.chat");

  @TempDir Path tmp;
  private Loci loci;
  private RecallMemory recall;

  @BeforeEach
  void open() {
    loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open();
    recall = RecallMemory.of(loci);
    // three turns of one session, each with its neighbours as context, as the pack writes them
    turn("t1", "Ada: How was your weekend?", "| Bo: We adopted a greyhound from the shelter.");
    turn(
        "t2",
        "Bo: We adopted a greyhound from the shelter.",
        "| Ada: How was your weekend? | Ada: Lovely, what is her name?");
    turn("t3", "Ada: Lovely, what is her name?", "| Bo: We adopted a greyhound from the shelter.");
    turn("t4", "Cy: The greyhound track closed years ago.", "");
  }

  private void turn(String id, String content, String context) {
    MemoryNode.Builder b = MemoryNode.builder(id, "turn", content);
    if (!context.isEmpty()) {
      b.attribute(MemoryNode.INDEX_CONTEXT, context);
    }
    recall.putNode(NS, b.build());
  }

  @AfterEach
  void close() {
    loci.close();
  }

  private List<String> lexical(double contextWeight) {
    return recall
        .recall(
            NS,
            RecallQuery.builder("adopted greyhound shelter", RecallMode.LEXICAL)
                .contextWeight(contextWeight)
                .build())
        .ids();
  }

  @Test
  void contextWeight_ranksTheTurnThatSaysItFirst_neighboursAfter_noneWithoutContext() {
    List<String> byDefault = lexical(RecallQuery.DEFAULT_CONTEXT_WEIGHT);
    assertThat(byDefault.get(0)).isEqualTo("t2");
    assertThat(byDefault).contains("t1", "t3"); // found through their context, below the turn

    assertThat(lexical(0)).containsExactlyInAnyOrder("t2", "t4");
  }

  @Test
  void recall_returnsTheContentAlone_notTheContext() {
    RecallResult r =
        recall.recall(NS, RecallQuery.builder("greyhound", RecallMode.LEXICAL).build());

    assertThat(r.items())
        .filteredOn(i -> i.node().id().equals("t1"))
        .singleElement()
        .satisfies(i -> assertThat(i.node().content()).isEqualTo("Ada: How was your weekend?"));
  }
}
