package dev.loci.govern;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.ScoreWeights;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Governed records as nodes of the recall graph, scored by status. */
class GovernedRecallTest {
  private static final Namespace NS = Namespace.of("acme.alice");
  private static final Reviewer REVIEWER = new Reviewer("dpo");

  @TempDir Path dir;
  private Loci loci;
  private GovernedMemory gov;
  private GovernedEntities ents;
  private RecallMemory recall;

  @BeforeEach
  void open() {
    loci = Loci.builder().dataDir(dir).open();
    gov = GovernedMemory.of(loci);
    ents = GovernedEntities.of(loci);
    recall = RecallMemory.of(loci);
  }

  @AfterEach
  void close() {
    loci.close();
  }

  private List<String> ids(RecallMemory r, String text) {
    // trust-weighted (lifecycle-aware) weights: the only ones under which recall applies a strategy
    ScoreWeights weights = ScoreWeights.DEFAULT.withLifecycle(0.3, 0, 0, 0);
    return r
        .recall(NS, RecallQuery.builder(text, RecallMode.LEXICAL).k(10).weights(weights).build())
        .items()
        .stream()
        .map(RecallItem::node)
        .map(n -> n.id())
        .toList();
  }

  /** An active lunch memory superseded by another: the old one matches the query's words more. */
  private List<Memory> supersededLunch() {
    Memory old =
        gov.add(
                NS,
                MemoryDraft.of(
                    MemoryType.EPISODIC,
                    "Team lunch at the tea house on Friday with the tea tasting",
                    "a"),
                REVIEWER)
            .memory();
    Memory successor =
        gov.add(
                NS,
                MemoryDraft.of(MemoryType.EPISODIC, "Team lunch moved to the pizza place", "a"),
                REVIEWER)
            .memory();
    gov.supersede(NS, old.id(), successor.id(), REVIEWER);
    return List.of(old, successor);
  }

  @Test
  void supersededNeverOutranksItsActiveSuccessor_andGraduationAndRelationsAreEdges() {
    List<Memory> pair = supersededLunch();
    Memory old = pair.get(0);
    Memory successor = pair.get(1);
    Memory rule =
        gov.add(
                NS,
                MemoryDraft.of(MemoryType.PROJECT, "The kettle must be descaled weekly", "a"),
                REVIEWER)
            .memory();
    Memory graduated = gov.graduate(NS, rule.id());
    Entity kettle =
        ents.add(NS, EntityDraft.of(EntityType.SUBSYSTEM, "kettle", Map.of(), "a"), REVIEWER)
            .entity();
    ents.relate(NS, graduated.graduatedTo().orElseThrow(), RelationType.PART_OF, kettle.id());

    GovernedRecall bridge = GovernedRecall.of(gov, ents, recall);
    assertThat(bridge.sync(NS)).isZero(); // every write already put its nodes and edges

    String query = "tea house tea tasting team lunch";
    // lifecycle scoring: trust 0.1 against 1 is not enough, the superseded record matches more
    // words and ranks first
    List<String> plain = ids(recall, query);
    assertThat(plain.indexOf("memory:" + old.id()))
        .isLessThan(plain.indexOf("memory:" + successor.id()));
    // governed scoring: never above its active successor
    List<String> governed = ids(recall.withScoring(GovernedScoring.INSTANCE), query);
    assertThat(governed).contains("memory:" + successor.id());
    assertThat(governed.indexOf("memory:" + old.id()))
        .isNotEqualTo(0)
        .satisfiesAnyOf(
            i -> assertThat(i).isEqualTo(-1),
            i -> assertThat(i).isGreaterThan(governed.indexOf("memory:" + successor.id())));

    assertThat(recall.edges(NS, "memory:" + old.id()))
        .extracting(MemoryEdge::edgeType, MemoryEdge::to)
        .contains(org.assertj.core.groups.Tuple.tuple("superseded_by", "memory:" + successor.id()));
    assertThat(recall.edges(NS, "memory:" + rule.id()))
        .extracting(MemoryEdge::edgeType)
        .contains("graduated_into");
    assertThat(recall.edges(NS, "entity:" + graduated.graduatedTo().get()))
        .extracting(MemoryEdge::edgeType)
        .contains("part_of");
    assertThat(recall.node(NS, "memory:" + old.id()).orElseThrow().attributes())
        .containsEntry("record_status", "superseded");
  }

  @Test
  void aPromoteIsInTheGraphAtOnce_inTheSameBatch_andReplayRebuildsTheSameGraph() {
    Memory candidate =
        gov.propose(NS, MemoryDraft.of(MemoryType.PREFERENCE, "I prefer oolong tea", "a")).memory();
    assertThat(recall.node(NS, "memory:" + candidate.id()).orElseThrow().attributes())
        .containsEntry("record_status", "candidate");
    long before = loci.lastSeq();
    gov.promote(NS, candidate.id(), REVIEWER);
    assertThat(loci.lastSeq()).isEqualTo(before + 1); // one batch: record and node
    assertThat(recall.node(NS, "memory:" + candidate.id()).orElseThrow().attributes())
        .containsEntry("record_status", "active")
        .containsEntry("status", "trusted");
    assertThat(ids(recall, "oolong tea")).containsExactly("memory:" + candidate.id());
    Entity req =
        ents.propose(
                NS, EntityDraft.of(EntityType.REQUIREMENT, "kettle boils in 90 s", Map.of(), "a"))
            .entity();
    assertThat(recall.node(NS, "entity:" + req.id())).isPresent();
    List<Memory> pair = supersededLunch();
    assertThat(recall.edges(NS, "memory:" + pair.get(0).id()))
        .extracting(MemoryEdge::edgeType, MemoryEdge::to)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("superseded_by", "memory:" + pair.get(1).id()));
    List<dev.loci.recall.MemoryNode> graph = recall.nodes(NS);
    int edges = recall.edgeCount(NS);

    loci.close();
    loci = Loci.builder().dataDir(dir).open();
    recall = RecallMemory.of(loci);
    assertThat(recall.nodes(NS)).containsExactlyInAnyOrderElementsOf(graph);
    assertThat(recall.edgeCount(NS)).isEqualTo(edges);
  }

  @Test
  void underTheDefaultWeightsTooASupersededRecordRanksAfterItsActiveSuccessor() {
    List<Memory> pair = supersededLunch();
    Memory old = pair.get(0);
    Memory successor = pair.get(1);
    recall.putNode(
        NS,
        dev.loci.recall.MemoryNode.builder(
                "plain-note", "note", "tea house tea tasting team lunch notes")
            .build());
    GovernedRecall.of(gov, ents, recall).sync(NS);
    String query = "tea house tea tasting team lunch";
    java.util.function.Function<RecallMemory, List<String>> ranked =
        r ->
            r
                .recall(NS, RecallQuery.builder(query, RecallMode.LEXICAL).k(10).build())
                .items()
                .stream()
                .map(i -> i.node().id())
                .toList();
    // the default weights weigh no lifecycle factor: by words alone the superseded record wins
    List<String> plain = ranked.apply(recall);
    assertThat(plain.indexOf("memory:" + old.id()))
        .isNotNegative()
        .isLessThan(plain.indexOf("memory:" + successor.id()));
    List<String> governed = ranked.apply(recall.withScoring(GovernedScoring.INSTANCE));
    assertThat(governed.indexOf("memory:" + old.id()))
        .isGreaterThan(governed.indexOf("memory:" + successor.id()));
    // a node that is not governed keeps its place among the current items
    assertThat(governed.stream().filter(id -> !id.equals("memory:" + old.id())))
        .containsExactlyElementsOf(
            plain.stream().filter(id -> !id.equals("memory:" + old.id())).toList());
  }
}
