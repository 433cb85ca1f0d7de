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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The bundled contract and runbook: multi-hop questions whose second piece of evidence shares no
 * word with the question are answered by the graph modes and missed by the flat ones.
 */
class DemoCorpusTest {
  static final int K = 5;

  @TempDir Path tmp;
  private Loci loci;
  private RecallMemory recall;

  @BeforeEach
  void setUp() {
    loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open();
    recall = RecallMemory.of(loci);
    for (DemoCorpus.Document d : DemoCorpus.documents()) {
      recall.ingest(ns(d.label()), d.domainPack(), d.document(), RecallMemory.Progress.NONE);
    }
  }

  @AfterEach
  void tearDown() {
    loci.close();
  }

  private static Namespace ns(String label) {
    return Namespace.of("demo." + label);
  }

  private List<String> top(DemoCorpus.Question q, RecallMode mode) {
    return recall.recall(ns(q.label()), RecallQuery.builder(q.question(), mode).k(K).build()).ids();
  }

  private static List<DemoCorpus.Question> multiHop() {
    return DemoCorpus.questions().stream().filter(DemoCorpus.Question::multiHop).toList();
  }

  @Test
  void corpus_hasMultiHopQuestionsWhoseSecondEvidenceSharesNoWord() {
    assertThat(multiHop()).hasSizeGreaterThanOrEqualTo(4);
    for (DemoCorpus.Question q : multiHop()) {
      String second = recall.node(ns(q.label()), q.gold().get(1)).orElseThrow().content();
      assertThat(HashingEmbeddingProvider.words(second))
          .as(q.id())
          .doesNotContainAnyElementsOf(HashingEmbeddingProvider.words(q.question()));
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = RecallMode.class,
      names = {"STRUCTURE_ONLY", "WEIGHTED_GRAPH", "ACTIVATION_SPREADING", "PPR"})
  void graphModes_findBothPiecesOfEveryMultiHopAnswer(RecallMode mode) {
    for (DemoCorpus.Question q : multiHop()) {
      assertThat(top(q, mode)).as(q.id() + " " + mode).containsAll(q.gold());
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = RecallMode.class,
      names = {"LEXICAL", "EMBEDDING", "HYBRID"})
  void flatModes_missTheEvidenceReachableOnlyThroughAnEdge(RecallMode mode) {
    for (DemoCorpus.Question q : multiHop()) {
      List<String> top = top(q, mode);
      assertThat(top).as(q.id() + " " + mode).contains(q.gold().get(0));
      assertThat(top).as(q.id() + " " + mode).doesNotContain(q.gold().get(1));
    }
  }
}
