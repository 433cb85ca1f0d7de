package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Durability;
import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.recall.internal.RecallJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Nodes and edges as versioned journal records, through the facade and a real data directory. */
class RecallMemoryTest {
  private static final LegalCapability LEGAL = new LegalCapability("test");
  static final Namespace NS = Namespace.of("acme.docs");

  @TempDir Path tmp;
  private Loci loci;
  private RecallMemory recall;

  @BeforeEach
  void setUp() {
    open();
  }

  @AfterEach
  void tearDown() {
    loci.close();
  }

  private void open() {
    loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open();
    recall = RecallMemory.of(loci);
  }

  private void reopen() {
    loci.close();
    open();
  }

  static MemoryNode node(String id, String content) {
    return MemoryNode.builder(id, "clause", content)
        .sourceRef(EvidenceRef.of("contract.md", "Payment", 3, 4))
        .build();
  }

  private String journal() throws IOException {
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> files = Files.list(tmp.resolve("journal"))) {
      for (Path f : files.sorted().toList()) {
        sb.append(Files.readString(f));
      }
    }
    return sb.toString();
  }

  @Test
  void putNode_changedContent_bumpsTheVersionAndKeepsThePrevious() {
    RecordVersion<MemoryNode> v1 = recall.putNode(NS, node("c:1", "pay within 30 days"));
    RecordVersion<MemoryNode> v2 = recall.putNode(NS, node("c:1", "pay within 45 days"));

    assertThat(v1.version()).isEqualTo(1);
    assertThat(v2.version()).isEqualTo(2);
    assertThat(recall.node(NS, "c:1")).map(MemoryNode::content).contains("pay within 45 days");
    assertThat(recall.nodeHistory(NS, "c:1", LEGAL))
        .extracting(v -> v.value().content())
        .containsExactly("pay within 45 days", "pay within 30 days");
  }

  @Test
  void putNode_unchanged_appendsNothing() {
    recall.putNode(NS, node("c:1", "pay within 30 days"));
    long seq = loci.lastSeq();

    RecordVersion<MemoryNode> again = recall.putNode(NS, node("c:1", "pay within 30 days"));

    assertThat(again.version()).isEqualTo(1);
    assertThat(loci.lastSeq()).isEqualTo(seq);
  }

  @Test
  void removeNode_removesItsEdgesInOneBatch_keepsHistory_andAPutRevivesIt() {
    recall.putNode(NS, node("a", "alpha"));
    recall.putNode(NS, node("b", "beta"));
    recall.putEdge(NS, MemoryEdge.of("a", "b", "references", 0.8));
    long seq = loci.lastSeq();

    RecordVersion<MemoryNode> removed = recall.removeNode(NS, "a");

    assertThat(loci.lastSeq()).isEqualTo(seq + 1);
    assertThat(removed.removed()).isTrue();
    assertThat(removed.version()).isEqualTo(2);
    assertThat(recall.node(NS, "a")).isEmpty();
    assertThat(recall.edges(NS, "b")).isEmpty();
    MemoryEdge.Key key = new MemoryEdge.Key("a", "references", "b");
    assertThat(recall.edgeHistory(NS, key, LEGAL))
        .extracting(RecordVersion::removed)
        .containsExactly(true, false);
    assertThat(recall.recall(NS, RecallQuery.builder("alpha", RecallMode.LEXICAL).build()).items())
        .isEmpty();

    assertThat(recall.putNode(NS, node("a", "alpha")).version()).isEqualTo(3);
    assertThat(recall.recall(NS, RecallQuery.builder("alpha", RecallMode.LEXICAL).build()).ids())
        .containsExactly("a");
  }

  @Test
  void removeEdge_keepsTheNodes() {
    recall.putNode(NS, node("a", "alpha"));
    recall.putNode(NS, node("b", "beta"));
    MemoryEdge e = MemoryEdge.of("a", "b", "references", 0.8);
    recall.putEdge(NS, e);

    recall.removeEdge(NS, e.key());

    assertThat(recall.edges(NS, "a")).isEmpty();
    assertThat(recall.nodes(NS)).hasSize(2);
    assertThatThrownBy(() -> recall.removeEdge(NS, e.key()))
        .isInstanceOf(NotFoundException.class)
        .hasMessageStartingWith("edge:");
  }

  @Test
  void putEdge_toAMissingNode_isRefusedNamingTheEnd_andChangesNothing() {
    recall.putNode(NS, node("a", "alpha"));
    long seq = loci.lastSeq();

    assertThatThrownBy(() -> recall.putEdge(NS, MemoryEdge.of("a", "ghost", "references", 0.5)))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("to"))
        .hasMessageContaining("ghost");
    assertThat(loci.lastSeq()).isEqualTo(seq);
  }

  @Test
  void removeNode_missing_isNotFoundNamingId() {
    assertThatThrownBy(() -> recall.removeNode(NS, "nope"))
        .isInstanceOfSatisfying(
            NotFoundException.class, e -> assertThat(e.field()).isEqualTo("id"));
    assertThatThrownBy(() -> recall.nodeHistory(NS, "nope", LEGAL))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void namespaces_neverSeeEachOthersRecords() {
    recall.putNode(NS, node("a", "alpha"));
    Namespace other = Namespace.of("acme.other");

    assertThat(recall.node(other, "a")).isEmpty();
    for (RecallMode mode : RecallMode.values()) {
      assertThat(recall.recall(other, RecallQuery.builder("alpha", mode).build()).items())
          .as(mode.wireName())
          .isEmpty();
    }
  }

  @Test
  void records_areJournaledAsSnakeCaseEvents() throws IOException {
    recall.putNode(NS, node("c:1", "pay within 30 days"));
    recall.putNode(NS, node("c:2", "withhold disputed amounts"));
    recall.putEdge(NS, MemoryEdge.of("c:2", "c:1", "exception_to", 0.9).bothWays());

    String journal = journal();
    assertThat(journal)
        .contains("\"type\":\"recall.node_put\"", "\"type\":\"recall.edge_put\"")
        .contains("\"usage_count\":0", "\"decay_factor\":1.0", "\"source_ref\":{")
        .contains("\"edge_type\":\"exception_to\"", "\"bidirectional\":true");
  }

  @Test
  void reopen_rebuildsRecordsHistoryAndBothIndexes_fromTheJournal_andFromASnapshot() {
    recall.putNode(NS, node("c:1", "pay within 30 days"));
    recall.putNode(NS, node("c:1", "pay every invoice within 45 days"));
    recall.putNode(NS, node("c:2", "withhold disputed amounts"));
    recall.putEdge(NS, MemoryEdge.of("c:2", "c:1", "exception_to", 0.9));
    RecallQuery query = RecallQuery.builder("invoice days", RecallMode.HYBRID).build();
    RecallResult before = recall.recall(NS, query);

    reopen(); // replays the journal
    assertThat(recall.nodeHistory(NS, "c:1", LEGAL)).hasSize(2);
    assertThat(recall.recall(NS, query)).isEqualTo(before);

    loci.snapshot();
    reopen(); // restores the snapshot
    assertThat(recall.nodeHistory(NS, "c:1", LEGAL))
        .extracting(RecordVersion::version)
        .containsExactly(2, 1);
    assertThat(recall.edges(NS, "c:1")).hasSize(1);
    assertThat(recall.recall(NS, query)).isEqualTo(before);
  }

  @Test
  void values_validateAndNameTheField() {
    assertField(() -> MemoryNode.builder("a", "clause", "x").importance(1.5).build(), "importance");
    assertField(() -> MemoryNode.builder("a", "clause", " ").build(), "content");
    assertField(() -> MemoryNode.builder("", "clause", "x").build(), "id");
    assertField(() -> MemoryNode.builder("a", "Clause", "x").build(), "type");
    assertField(() -> MemoryNode.builder("a", "clause", "x").usageCount(-1).build(), "usage_count");
    assertField(() -> MemoryEdge.of("a", "a", "references", 0.5), "to");
    assertField(() -> MemoryEdge.of("a", "b", "references", -0.1), "weight");
    assertField(() -> MemoryEdge.of("a", "b", "refers to", 0.5), "edge_type");
    assertField(() -> new EvidenceRef.Span(4, 3), "span");
    assertField(() -> RecallQuery.builder("q", RecallMode.PPR).restart(1).build(), "restart");
    assertField(
        () -> RecallQuery.builder("q", RecallMode.HYBRID).lexicalShare(1.5).build(),
        "lexical_share");
    assertField(() -> RecallMode.parse("fuzzy"), "mode");
    assertField(() -> ScoreWeights.parse("semantic=x", ScoreWeights.DEFAULT), "weights.semantic");
  }

  @Test
  void json_roundTripsInSnakeCase_andABadFieldIsNamed() {
    MemoryNode n =
        MemoryNode.builder("c:1", "clause", "text")
            .attribute("risk_cues", "breach")
            .usageCount(3)
            .sourceRef(EvidenceRef.of("f.md", "S", 1, 2).withChars(0, 10))
            .build();
    JsonNode tree = RecallJson.tree(n);

    assertThat(tree.fieldNames())
        .toIterable()
        .contains("usage_count", "decay_factor", "source_ref");
    assertThat(RecallJson.read(tree, MemoryNode.class, "node")).isEqualTo(n);

    ((com.fasterxml.jackson.databind.node.ObjectNode) tree).put("risk", 7);
    assertField(() -> RecallJson.read(tree, MemoryNode.class, "node"), "risk");
  }

  private static void assertField(Runnable r, String field) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  @Test
  void weightedGraph_appliesTheFormula_withRequestWeightsOverPackWeights() {
    recall.putNode(NS, MemoryNode.builder("seed", "clause", "alpha beta").importance(0.5).build());
    recall.putNode(
        NS,
        MemoryNode.builder("far", "clause", "gamma")
            .importance(0.2)
            .risk(0.6)
            .novelty(0.1)
            .build());
    recall.putEdge(NS, MemoryEdge.of("seed", "far", "references", 0.8));
    ScoreWeights w = new ScoreWeights(0.5, 0.3, 0.1, 0.1);

    RecallResult r =
        recall.recall(
            NS,
            RecallQuery.builder("alpha beta", RecallMode.WEIGHTED_GRAPH)
                .weights(w)
                .seeds(1)
                .build());

    // seed: semantic 1 (best of both lists) * 0.5 + importance 0.5 * 0.1
    // far: structural 1 * 0.8 * 0.3 + anomaly max(0.6, 0.1) * 0.1 + importance 0.2 * 0.1
    assertThat(r.ids()).containsExactly("seed", "far");
    assertThat(r.items().get(0).score()).isCloseTo(0.55, within(1e-9));
    RecallItem far = r.items().get(1);
    assertThat(far.score()).isCloseTo(0.32, within(1e-9));
    assertThat(far.path().steps()).extracting(PathStep::nodeId).containsExactly("seed", "far");
    assertThat(far.path().steps()).extracting(PathStep::via).containsExactly("seed", "references");
    assertThat(far.path().steps().get(1).components())
        .containsEntry("semantic", 0.0)
        .containsEntry("structural", 0.8)
        .containsEntry("anomaly", 0.6)
        .containsEntry("importance", 0.2);
    assertThat(far.path().finalAnswer()).isEqualTo("gamma");
    assertThat(r.weights()).isEqualTo(w);

    RecallResult structuralOnly =
        recall.recall(
            NS,
            RecallQuery.builder("alpha beta", RecallMode.WEIGHTED_GRAPH)
                .weights(new ScoreWeights(0, 1, 0, 0))
                .seeds(1)
                .build());
    assertThat(structuralOnly.ids()).containsExactly("far");
    assertThat(structuralOnly.items().get(0).score()).isCloseTo(0.8, within(1e-9));
  }

  @Test
  void recall_usesThePackWeightsOfTheNamespace_unlessTheRequestGivesSome() {
    recall.ingest(
        NS,
        DomainPacks.named("markdown:contract"),
        DemoCorpus.documents().get(0).document(),
        RecallMemory.Progress.NONE);

    RecallResult r = recall.recall(NS, RecallQuery.builder("penalty", RecallMode.LEXICAL).build());

    assertThat(r.weights()).isEqualTo(DomainPacks.named("markdown:contract").weights());
    assertThat(r.weights()).isNotEqualTo(ScoreWeights.DEFAULT);
  }

  @Test
  void ppr_ranksOnlyTheNodesWithinTheHopLimit_atLeastThree_withAPathToEach() {
    List<String> chain = List.of("a", "b", "c", "d", "e");
    for (int i = 0; i < chain.size(); i++) {
      recall.putNode(NS, node(chain.get(i), i == 0 ? "alpha" : "unrelated " + i));
      if (i > 0) {
        recall.putEdge(NS, MemoryEdge.of(chain.get(i - 1), chain.get(i), "references", 0.8));
      }
    }

    RecallResult one =
        recall.recall(NS, RecallQuery.builder("alpha", RecallMode.PPR).seeds(1).hops(1).build());
    RecallResult four =
        recall.recall(NS, RecallQuery.builder("alpha", RecallMode.PPR).seeds(1).hops(4).build());

    // within 3 hops (the least ppr walks) d has no links left, so its mass restarts at a:
    // a = 0.15 + 0.85 d, b = 0.85 a, c = 0.85 b, d = 0.85 c, so a = 0.15 / (1 - 0.85^4)
    assertThat(one.activation()).containsOnlyKeys("a", "b", "c", "d");
    assertThat(one.activation().get("a")).isCloseTo(0.15 / (1 - Math.pow(0.85, 4)), within(1e-9));
    assertThat(four.activation()).containsOnlyKeys("a", "b", "c", "d", "e");
    assertThat(four.items())
        .filteredOn(i -> i.node().id().equals("e"))
        .singleElement()
        .satisfies(
            i ->
                assertThat(i.path().steps())
                    .extracting(PathStep::nodeId)
                    .containsExactly("a", "b", "c", "d", "e"));
  }

  @Test
  void spreadingAndPpr_reportTheActivationSnapshot_flatModesDoNot() {
    recall.putNode(NS, node("a", "alpha"));
    recall.putNode(NS, node("b", "beta"));
    recall.putEdge(NS, MemoryEdge.of("a", "b", "references", 0.8));

    RecallResult spread =
        recall.recall(NS, RecallQuery.builder("alpha", RecallMode.ACTIVATION_SPREADING).build());
    RecallResult ppr = recall.recall(NS, RecallQuery.builder("alpha", RecallMode.PPR).build());
    RecallResult lexical =
        recall.recall(NS, RecallQuery.builder("alpha", RecallMode.LEXICAL).build());

    // a is the only seed, semantic 1; b gets 1 * 0.8 * 0.7
    assertThat(spread.activation()).containsOnlyKeys("a", "b");
    assertThat(spread.activation().get("b")).isCloseTo(0.56, within(1e-9));
    assertThat(spread.items().get(1).path().steps())
        .extracting(PathStep::via)
        .containsExactly("seed", "references");
    assertThat(ppr.activation().keySet()).containsExactly("a", "b");
    assertThat(lexical.activation()).isEmpty();
    assertThat(lexical.items().get(0).path().supportingEvidence())
        .containsExactly(EvidenceRef.of("contract.md", "Payment", 3, 4));
  }

  @Test
  void recall_returnsTheSameShapeInEveryMode() {
    recall.putNode(NS, node("a", "alpha"));
    for (RecallMode mode : RecallMode.values()) {
      RecallResult r = recall.recall(NS, RecallQuery.builder("alpha", mode).build());
      assertThat(r.mode()).isEqualTo(mode);
      assertThat(r.ids()).as(mode.wireName()).containsExactly("a");
      assertThat(r.items().get(0).path().steps().get(0).via()).isEqualTo(PathStep.SEED);
      assertThat(r.items().get(0).path().query()).isEqualTo("alpha");
    }
  }
}
