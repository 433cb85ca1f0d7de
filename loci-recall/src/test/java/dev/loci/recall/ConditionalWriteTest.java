package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Durability;
import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Page;
import dev.loci.StaleVersionException;
import dev.loci.recall.spi.SourceDocument;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conditional writes (put and remove with the version the caller read), node pages, graph stats and
 * multi-document ingest, through the facade and a real data directory.
 */
class ConditionalWriteTest {
  private static final LegalCapability LEGAL = new LegalCapability("test");
  private static final Namespace NS = Namespace.of("acme.docs");

  @TempDir Path tmp;
  private Loci loci;
  private RecallMemory recall;

  @BeforeEach
  void setUp() {
    loci = Loci.builder().dataDir(tmp).durability(Durability.none()).open();
    recall = RecallMemory.of(loci);
  }

  @AfterEach
  void tearDown() {
    loci.close();
  }

  private static MemoryNode node(String id, String content) {
    return MemoryNode.builder(id, "clause", content).build();
  }

  @Test
  void putNode_expectedCurrentVersion_writes_staleVersion_refusedAndChangesNothing() {
    recall.putNode(NS, node("c:1", "v1"));
    RecordVersion<MemoryNode> v2 = recall.putNode(NS, node("c:1", "v2"), 1);
    long seq = loci.lastSeq();

    assertThat(v2.version()).isEqualTo(2);
    assertThatThrownBy(() -> recall.putNode(NS, node("c:1", "v3"), 1))
        .isInstanceOfSatisfying(
            StaleVersionException.class,
            e -> {
              assertThat(e.expected()).isEqualTo("1");
              assertThat(e.actual()).isEqualTo("2");
            })
        .hasMessageStartingWith("id: node 'c:1' is at version 2");
    assertThat(loci.lastSeq()).isEqualTo(seq);
    assertThat(recall.node(NS, "c:1")).map(MemoryNode::content).contains("v2");
  }

  @Test
  void conditionalWrites_onARemovedOrAbsentRecord_areStale() {
    recall.putNode(NS, node("a", "alpha"));
    recall.putNode(NS, node("b", "beta"));
    RecordVersion<MemoryNode> removed = recall.removeNode(NS, "b", 1);

    assertThat(removed.removed()).isTrue();
    assertThatThrownBy(() -> recall.putNode(NS, node("b", "beta"), 2))
        .isInstanceOfSatisfying(
            StaleVersionException.class, e -> assertThat(e.actual()).isEqualTo("none (removed)"));
    assertThatThrownBy(() -> recall.removeNode(NS, "ghost", 1))
        .isInstanceOfSatisfying(
            StaleVersionException.class, e -> assertThat(e.actual()).isEqualTo("none"));
    assertThat(recall.node(NS, "b")).isEmpty();
  }

  @Test
  void edges_conditionalPutAndRemove_checkTheEdgesOwnVersion() {
    recall.putNode(NS, node("a", "alpha"));
    recall.putNode(NS, node("b", "beta"));
    MemoryEdge e = MemoryEdge.of("a", "b", "references", 0.5);
    recall.putEdge(NS, e);

    RecordVersion<MemoryEdge> v2 = recall.putEdge(NS, MemoryEdge.of("a", "b", "references", 1), 1);

    assertThat(v2.version()).isEqualTo(2);
    assertThatThrownBy(() -> recall.removeEdge(NS, e.key(), 1))
        .isInstanceOf(StaleVersionException.class)
        .hasMessageStartingWith("edge: edge a -references-> b is at version 2");
    assertThat(recall.removeEdge(NS, e.key(), 2).removed()).isTrue();
    assertThat(recall.edges(NS, "a")).isEmpty();
  }

  @Test
  void concurrentWritersExpectingTheSameVersion_exactlyOneWins() throws Exception {
    recall.putNode(NS, node("c:1", "v1"));
    int writers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Boolean>> outcomes = new ArrayList<>();
    try {
      for (int i = 0; i < writers; i++) {
        String content = "writer " + i;
        outcomes.add(
            pool.submit(
                () -> {
                  go.await();
                  try {
                    recall.putNode(NS, node("c:1", content), 1);
                    return true;
                  } catch (StaleVersionException e) {
                    return false;
                  }
                }));
      }
      go.countDown();
      int won = 0;
      for (Future<Boolean> f : outcomes) {
        won += f.get() ? 1 : 0;
      }
      assertThat(won).isEqualTo(1);
      assertThat(recall.nodeHistory(NS, "c:1", LEGAL)).hasSize(2);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void nodes_pagesInPutOrder_skipRemoved_andResumeAfterTheCursor() {
    for (int i = 0; i < 5; i++) {
      recall.putNode(NS, node("n" + i, "text " + i));
    }
    recall.removeNode(NS, "n1");

    Page<RecordVersion<MemoryNode>> first = recall.nodes(NS, 2, Optional.empty());
    recall.removeNode(NS, "n2"); // the cursor's own node going away keeps the page stable
    Page<RecordVersion<MemoryNode>> second = recall.nodes(NS, 2, first.nextCursor());

    assertThat(first.items()).extracting(v -> v.value().id()).containsExactly("n0", "n2");
    assertThat(second.items()).extracting(v -> v.value().id()).containsExactly("n3", "n4");
    assertThat(second.nextCursor()).isEmpty();
    assertThatThrownBy(() -> recall.nodes(NS, 2, Optional.of("garbage!")))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("cursor"));
    assertThatThrownBy(() -> recall.nodes(NS, 0, Optional.empty()))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("limit"));
    assertThat(recall.nodes(Namespace.of("empty"), 10, Optional.empty()).items()).isEmpty();
  }

  @Test
  void stats_countLiveAndRemovedByType() {
    recall.putNode(NS, node("a", "alpha"));
    recall.putNode(NS, MemoryNode.builder("b", "step", "beta").build());
    recall.putNode(NS, node("c", "gamma"));
    recall.putEdge(NS, MemoryEdge.of("a", "b", "references", 0.5));
    recall.removeNode(NS, "c");

    GraphStats s = recall.stats(NS);

    assertThat(s.nodes()).isEqualTo(2);
    assertThat(s.edges()).isEqualTo(1);
    assertThat(s.removedNodes()).isEqualTo(1);
    assertThat(s.nodeTypes()).containsExactly(Map.entry("clause", 1), Map.entry("step", 1));
    assertThat(s.edgeTypes()).containsExactly(Map.entry("references", 1));
  }

  @Test
  void ingestSeveral_oneUnreadable_refusedNamingIt_andNothingWritten() {
    long seq = loci.lastSeq();
    List<SourceDocument> docs =
        List.of(
            new SourceDocument("a.json", "{\"conv\":{}}"),
            new SourceDocument("b.json", "{not json"));

    assertIngestRefused("conversation", docs, "documents[1].path");
    List<SourceDocument> twice =
        List.of(new SourceDocument("a.md", "1. one"), new SourceDocument("a.md", "2. two"));
    assertIngestRefused("markdown:contract", twice, "documents[1].path");

    assertThat(loci.lastSeq()).isEqualTo(seq);
  }

  /** Ingesting {@code docs} into exactly {@link #NS} fails naming {@code field}. */
  private void assertIngestRefused(String pack, List<SourceDocument> docs, String field) {
    assertThatThrownBy(
            () ->
                recall.ingest(
                    NamespaceScope.exactly(NS),
                    DomainPacks.named(pack),
                    docs,
                    RecallMemory.Progress.NONE))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo(field));
  }

  @Test
  void ingestSeveral_aConversationOutsideTheScope_refused_insideItWritesChildNamespaces() {
    String conversation =
        "[{\"sample_id\":\"c1\",\"conversation\":{\"speaker_a\":\"A\",\"speaker_b\":\"B\","
            + "\"session_1_date_time\":\"1:56 pm on 8 May, 2023\",\"session_1\":[{\"speaker\":\"A\","
            + "\"dia_id\":\"D1:1\",\"text\":\"hello there\"}]}}]";
    List<SourceDocument> docs = List.of(new SourceDocument("c.json", conversation));
    long seq = loci.lastSeq();

    assertIngestRefused("conversation", docs, "documents[0]");
    assertThat(loci.lastSeq()).isEqualTo(seq);

    List<IngestReport> reports =
        recall.ingest(
            new NamespaceScope(NS, true),
            DomainPacks.named("conversation"),
            docs,
            RecallMemory.Progress.NONE);
    assertThat(reports.get(0).namespaces()).containsExactly(Namespace.of("acme.docs.c1"));
    assertThat(recall.node(Namespace.of("acme.docs.c1"), "D1:1")).isPresent();
  }

  @Test
  void wire_readsNodesEdgesQueriesAndIngests_namingTheOffendingMember() {
    MemoryNode n =
        RecallWire.readNode(
            "c:1",
            "{\"type\":\"clause\",\"content\":\"pay\",\"risk\":0.5,\"attributes\":{\"k\":\"v\"},"
                + "\"source_ref\":{\"path\":\"a.md\",\"section\":\"Pay\",\"lines\":{\"start\":1,\"end\":2}}}");
    assertThat(n.risk()).isEqualTo(0.5);
    assertThat(n.confidence()).isEqualTo(1);
    assertThat(n.sourceRef()).contains(EvidenceRef.of("a.md", "Pay", 1, 2));
    assertThat(RecallWire.readEdge("{\"from\":\"a\",\"to\":\"b\",\"edge_type\":\"next\"}"))
        .isEqualTo(MemoryEdge.of("a", "b", "next", 1));
    RecallQuery q =
        RecallWire.readQuery(
            "{\"query\":\"q\",\"mode\":\"ppr\",\"k\":3,\"weights\":{\"anomaly\":1}}");
    assertThat(q.mode()).isEqualTo(RecallMode.PPR);
    assertThat(q.weights()).contains(new ScoreWeights(0.5, 0.3, 1, 0.1));
    assertThat(q.lexicalShare()).isEqualTo(0.5);
    assertThat(RecallWire.readQuery("{\"query\":\"q\",\"lexical_share\":0.8}").lexicalShare())
        .isEqualTo(0.8);

    assertField(() -> RecallWire.readNode("x", "{\"type\":\"clause\"}"), "content");
    assertField(
        () -> RecallWire.readNode("x", "{\"type\":\"c\",\"content\":\"y\",\"risk\":2}"), "risk");
    assertField(
        () -> RecallWire.readNode("x", "{\"type\":\"c\",\"content\":\"y\",\"source_ref\":{}}"),
        "source_ref.path");
    assertField(() -> RecallWire.readEdge("{\"from\":\"a\",\"to\":\"b\"}"), "edge_type");
    assertField(() -> RecallWire.readQuery("{\"query\":\"q\",\"k\":0}"), "k");
    assertField(() -> RecallWire.readQuery("{\"query\":\"q\",\"mode\":\"psychic\"}"), "mode");
    assertField(
        () -> RecallWire.readQuery("{\"query\":\"q\",\"weights\":{\"semantic\":\"x\"}}"),
        "weights.semantic");
    assertField(() -> RecallWire.readQuery("{\"query\":\"q\",\"top\":1}"), "top");
    assertField(
        () -> RecallWire.readQuery("{\"query\":\"q\",\"lexical_share\":2}"), "lexical_share");
    assertThat(RecallWire.readQuery("{\"query\":\"q\",\"session_cap\":2}").sessionCap())
        .isEqualTo(2);
    assertThat(RecallWire.readQuery("{\"query\":\"q\"}").contextWeight())
        .isEqualTo(RecallQuery.DEFAULT_CONTEXT_WEIGHT);
    assertThat(RecallWire.readQuery("{\"query\":\"q\",\"context_weight\":0}").contextWeight())
        .isZero();
    assertField(
        () -> RecallWire.readQuery("{\"query\":\"q\",\"context_weight\":1.5}"), "context_weight");
    assertThat(RecallWire.readQuery("{\"query\":\"q\"}").lengthNorm())
        .isEqualTo(RecallQuery.DEFAULT_LENGTH_NORM);
    assertThat(RecallWire.readQuery("{\"query\":\"q\",\"length_norm\":0.75}").lengthNorm())
        .isEqualTo(0.75);
    assertField(
        () -> RecallWire.readQuery("{\"query\":\"q\",\"length_norm\":-0.1}"), "length_norm");
    assertField(() -> RecallWire.readQuery("{\"query\":\"q\",\"session_cap\":-1}"), "session_cap");
    RecallQuery dated = RecallWire.readQuery("{\"query\":\"q\",\"as_of\":\"2024-05-13\"}");
    assertThat(dated.asOf()).contains(java.time.LocalDate.of(2024, 5, 13));
    assertThat(RecallWire.readQuery(RecallWire.writeQuery(dated))).isEqualTo(dated);
    assertField(() -> RecallWire.readQuery("{\"query\":\"q\",\"as_of\":\"13 May\"}"), "as_of");
    assertField(() -> RecallWire.readQuery("{\"query\":\"q\",\"as_of\":20240513}"), "as_of");
    assertField(
        () ->
            RecallWire.readIngest(
                "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"a.md\"}]}"),
        "documents[0].text");
    assertField(() -> RecallWire.readIngest("{\"pack\":\"poem\",\"documents\":[]}"), "pack");
  }

  private static void assertField(Runnable r, String field) {
    assertThatThrownBy(r::run)
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo(field));
  }
}
