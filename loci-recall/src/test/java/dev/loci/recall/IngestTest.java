package dev.loci.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.Durability;
import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.NotFoundException;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.SourceDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Domain packs end to end: what files become, idempotence, batching and re-ingesting edits. */
class IngestTest {
  private static final LegalCapability LEGAL = new LegalCapability("test");
  static final Namespace NS = Namespace.of("acme");

  static final String CONTRACT =
      """
      # Terms

      Intro paragraph about the parties.

      ## Payment
      3 The buyer pays within 30 days.
      4. Notwithstanding clause 3, the buyer may withhold disputed sums
         while the dispute lasts.
      5) Unless agreed otherwise, invoices are in euros.
      6. Late payment is a breach; see section 9.
      4. A second clause four.

      ## Exit
      7. Either party may terminate and must indemnify the other.
      """;

  static final String RUNBOOK =
      """
      # Disk full

      1. Check free space on the volume.
      2. If the cleanup fails, page the storage on-call and escalate to step 3.
      3. Call the incident commander.
      """;

  @TempDir Path tmp;
  private Loci loci;
  private RecallMemory recall;

  @BeforeEach
  void setUp() {
    loci = Loci.builder().dataDir(tmp.resolve("data")).durability(Durability.none()).open();
    recall = RecallMemory.of(loci);
  }

  @AfterEach
  void tearDown() {
    loci.close();
  }

  static String numbered(int units) {
    StringBuilder b = new StringBuilder("# Sec\n\n");
    for (int i = 1; i <= units; i++) {
      b.append(i).append(". Item ").append(i).append(" ships.\n\n");
    }
    return b.toString();
  }

  @Test
  void ingest_longSection_writesABoundedNeighbourhoodNotAClique() {
    IngestReport r =
        recall.ingest(
            NS,
            DomainPacks.named("markdown:contract"),
            new SourceDocument("d.md", numbered(2000)),
            RecallMemory.Progress.NONE);

    assertThat(r.nodes()).isEqualTo(2000);
    // one section of 2,000 units: a clique wrote 2,000,999 edges; the neighbourhood writes at most
    // 8 same_section edges per unit each way, plus next_unit
    assertThat(r.edges()).isLessThan(2000 * 18).isGreaterThan(2000);
  }

  @Test
  void ingest_atEachLimit_writes_andOnePast_refusesNamingTheLimitAndWritesNothing() {
    IngestLimits tight = new IngestLimits(200, 2, 3, 40);
    RecallMemory bounded = recall.withIngestLimits(tight);
    DomainPack pack = DomainPacks.named("markdown:contract");
    String three = "1. a\n\n2. b\n\n3. c\n"; // 3 units, 18 bytes
    IngestReport ok =
        bounded.ingest(NS, pack, new SourceDocument("ok.md", three), RecallMemory.Progress.NONE);
    assertThat(ok.nodes()).isEqualTo(3);
    int edges = ok.edges();
    // exactly at the edge limit is allowed too
    recall
        .withIngestLimits(new IngestLimits(200, 2, 3, edges))
        .ingest(NS, pack, new SourceDocument("ok.md", three), RecallMemory.Progress.NONE);
    long seq = loci.lastSeq();

    record Case(String limit, Runnable call) {}
    for (Case c :
        List.of(
            new Case(
                "ingest_units_per_document",
                () ->
                    bounded.ingest(
                        NS,
                        pack,
                        new SourceDocument("four.md", three + "\n4. d\n"),
                        RecallMemory.Progress.NONE)),
            new Case(
                "ingest_bytes_per_document",
                () ->
                    bounded.ingest(
                        NS,
                        pack,
                        new SourceDocument("big.md", "1. " + "x".repeat(300)),
                        RecallMemory.Progress.NONE)),
            new Case(
                "ingest_edges_per_document",
                () ->
                    recall
                        .withIngestLimits(new IngestLimits(200, 2, 3, edges - 1))
                        .ingest(
                            NS,
                            pack,
                            new SourceDocument("edges.md", three),
                            RecallMemory.Progress.NONE)),
            new Case(
                "ingest_documents_per_request",
                () ->
                    bounded.ingest(
                        NamespaceScope.exactly(NS),
                        pack,
                        List.of(
                            new SourceDocument("a.md", "1. a\n"),
                            new SourceDocument("b.md", "1. b\n"),
                            new SourceDocument("c.md", "1. c\n")),
                        RecallMemory.Progress.NONE)))) {
      assertThatThrownBy(c.call()::run)
          .isInstanceOf(dev.loci.LimitExceededException.class)
          .hasMessageContaining(c.limit())
          .satisfies(
              e -> assertThat(((dev.loci.LimitExceededException) e).limit()).isEqualTo(c.limit()));
    }
    assertThat(loci.lastSeq()).isEqualTo(seq);
  }

  private IngestReport ingest(String pack, String path, String text) {
    return recall.ingest(
        NS, DomainPacks.named(pack), new SourceDocument(path, text), RecallMemory.Progress.NONE);
  }

  private Map<String, MemoryNode> nodes(Namespace ns) {
    return recall.nodes(ns).stream().collect(Collectors.toMap(MemoryNode::id, n -> n));
  }

  private List<String> edges(Namespace ns, String id, String type) {
    return recall.edges(ns, id).stream()
        .filter(e -> e.edgeType().equals(type))
        .map(e -> e.from() + ">" + e.to())
        .toList();
  }

  @Test
  void markdownContract_unitsByNumberOrParagraph_withSectionsSpansAndCues() {
    IngestReport r = ingest("markdown:contract", "docs/terms.md", CONTRACT);

    Map<String, MemoryNode> n = nodes(NS);
    assertThat(n)
        .containsOnlyKeys("terms:p1", "terms:3", "terms:4", "terms:5", "terms:6", "terms:7");
    assertThat(n.get("terms:p1").type()).isEqualTo("paragraph");
    assertThat(n.get("terms:3").type()).isEqualTo("clause");
    assertThat(n.get("terms:4").content())
        .isEqualTo(
            "Notwithstanding clause 3, the buyer may withhold disputed sums while the dispute lasts.");
    EvidenceRef ref = n.get("terms:4").sourceRef().orElseThrow();
    assertThat(ref.path()).isEqualTo("docs/terms.md");
    assertThat(ref.section()).contains("Payment");
    assertThat(ref.lines()).contains(new EvidenceRef.Span(7, 8));
    assertThat(CONTRACT.substring(ref.chars().get().start(), ref.chars().get().end()))
        .startsWith("4. Notwithstanding")
        .endsWith("dispute lasts.");
    assertThat(n.get("terms:7").attributes())
        .containsEntry("risk_cues", "terminate,indemnify")
        .containsEntry("section", "Exit")
        .containsEntry("pack", "markdown:contract");
    assertThat(n.get("terms:7").risk()).isEqualTo(0.6);
    assertThat(n.get("terms:5").attributes()).containsEntry("anomaly_cues", "unless");
    assertThat(n.get("terms:5").novelty()).isEqualTo(0.5);

    assertThat(r.nodes()).isEqualTo(6);
    assertThat(r.skipped())
        .extracting(IngestReport.Skipped::reason)
        .anySatisfy(s -> assertThat(s).contains("unit number 4 was already used at line 7"))
        .anySatisfy(s -> assertThat(s).contains("cites section 9, which is not a unit"));
  }

  @Test
  void markdownContract_edges_nextUnitSameSectionReferencesExceptions() {
    ingest("markdown:contract", "terms.md", CONTRACT);

    assertThat(edges(NS, "terms:3", "next_unit")).containsExactly("terms:3>terms:4");
    assertThat(edges(NS, "terms:6", "next_unit")).containsExactly("terms:5>terms:6");
    assertThat(edges(NS, "terms:7", "next_unit")).isEmpty(); // another section
    assertThat(edges(NS, "terms:3", "same_section"))
        .containsExactlyInAnyOrder("terms:3>terms:4", "terms:3>terms:5", "terms:3>terms:6");
    // "Notwithstanding clause 3": the cited clause is the rule it qualifies
    assertThat(edges(NS, "terms:3", "exception_to")).containsExactly("terms:4>terms:3");
    assertThat(edges(NS, "terms:3", "references")).isEmpty();
    // "Unless ...": the unit before it
    assertThat(edges(NS, "terms:5", "exception_to")).contains("terms:5>terms:4");
    assertThat(recall.edges(NS, "terms:3"))
        .filteredOn(e -> e.edgeType().equals("exception_to"))
        .allSatisfy(e -> assertThat(e.bidirectional()).isTrue());
  }

  @Test
  void markdownRunbook_stepsEscalationAndFailureExceptions() {
    ingest("markdown:runbook", "disk.md", RUNBOOK);

    Map<String, MemoryNode> n = nodes(NS);
    assertThat(n.get("disk:2").type()).isEqualTo("step");
    assertThat(n.get("disk:2").attributes()).containsEntry("risk_cues", "page,escalate");
    assertThat(edges(NS, "disk:2", "escalates_to")).containsExactly("disk:2>disk:3");
    assertThat(edges(NS, "disk:2", "references")).isEmpty();
    assertThat(edges(NS, "disk:1", "exception_to")).containsExactly("disk:2>disk:1");
  }

  @Test
  void ingest_sameFileAgain_changesNothing() {
    IngestReport first = ingest("markdown:contract", "terms.md", CONTRACT);
    long seq = loci.lastSeq();

    IngestReport again = ingest("markdown:contract", "terms.md", CONTRACT);

    assertThat(first.written()).isEqualTo(first.nodes() + first.edges());
    assertThat(first.batches()).isEqualTo(1);
    assertThat(again.written()).isZero();
    assertThat(again.removed()).isZero();
    assertThat(again.batches()).isZero();
    assertThat(loci.lastSeq()).isEqualTo(seq);
  }

  @Test
  void ingest_editedFile_versionsChangedUnits_andRemovesWhatIsGone() {
    ingest("markdown:contract", "terms.md", CONTRACT);
    String edited =
        CONTRACT
            .replace("within 30 days", "within 45 days")
            .replace("6. Late payment", "Late payment");

    IngestReport r = ingest("markdown:contract", "terms.md", edited);

    assertThat(recall.nodeHistory(NS, "terms:3", LEGAL))
        .extracting(v -> v.version())
        .containsExactly(2, 1);
    assertThat(recall.node(NS, "terms:3").orElseThrow().content()).contains("45 days");
    assertThat(recall.node(NS, "terms:6")).isEmpty();
    assertThat(recall.nodeHistory(NS, "terms:6", LEGAL).get(0).removed()).isTrue();
    assertThat(recall.edges(NS, "terms:5")).noneMatch(e -> e.to().equals("terms:6"));
    assertThat(r.removed()).isGreaterThan(1);
  }

  @Test
  void ingest_writesOneBatchPerChunkOfRecords_andReportsProgress() {
    String turns = ConversationPackTest.turns(1_900);
    String json =
        "[{\"sample_id\":\"c1\",\"conversation\":{\"session_1_date_time\":\"1 May 2023\","
            + "\"session_1\":["
            + turns
            + "]}}]";
    // 1,900 nodes, 1,899 next_turn edges, 30,264 same_session edges (each turn to the next 16):
    // 34,063 records, two chunks
    List<int[]> progress = new ArrayList<>();
    long seq = loci.lastSeq();

    IngestReport r =
        recall.ingest(
            NS,
            DomainPacks.named("conversation"),
            new SourceDocument("c.json", json),
            (source, done, total) -> progress.add(new int[] {done, total}));

    assertThat(r.nodes() + r.edges()).isEqualTo(34_063);
    assertThat(r.batches()).isEqualTo(2);
    assertThat(loci.lastSeq()).isEqualTo(seq + 2);
    assertThat(progress).extracting(p -> p[0]).containsExactly(RecallMemory.INGEST_CHUNK, 34_063);
    assertThat(recall.edgeCount(Namespace.of("acme.c1"))).isEqualTo(32_163);
  }

  @Test
  void ingest_missingFile_isNotFoundNamingPath_andUnreadableJsonNamesPath() {
    assertThatThrownBy(
            () ->
                recall.ingest(
                    NS,
                    DomainPacks.named("conversation"),
                    tmp.resolve("nope.json"),
                    RecallMemory.Progress.NONE))
        .isInstanceOfSatisfying(
            NotFoundException.class, e -> assertThat(e.field()).isEqualTo("path"));
    assertThatThrownBy(() -> ingest("conversation", "bad.json", "{not json"))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("path"));
    assertThatThrownBy(() -> DomainPacks.named("markdown:poem"))
        .isInstanceOfSatisfying(
            InvalidRequestException.class, e -> assertThat(e.field()).isEqualTo("pack"));
  }

  @Test
  void ingest_fromAPath_recordsThePathAsGiven() throws Exception {
    Path file = tmp.resolve("terms.md");
    Files.writeString(file, CONTRACT);

    recall.ingest(NS, DomainPacks.named("markdown:contract"), file, RecallMemory.Progress.NONE);

    assertThat(recall.node(NS, "terms:3").orElseThrow().sourceRef().orElseThrow().path())
        .isEqualTo(file.toString());
  }

  @Test
  void embed_afterIngest_everyNodeCachedOnce_reembedCostsNoModelRun() {
    ingest("markdown:runbook", "runbook.md", RUNBOOK);
    CachingEmbeddingProviderTest.CountingProvider counting =
        new CachingEmbeddingProviderTest.CountingProvider();
    Path file = tmp.resolve("data/cache/embeddings/hashing-384-v1.bin");
    List<String> progress = new ArrayList<>();
    try (CachingEmbeddingProvider cache = CachingEmbeddingProvider.open(counting, file)) {
      RecallMemory withCache = RecallMemory.of(loci, cache);

      assertThat(
              withCache.embed(NS, (ns, done, total) -> progress.add(ns + " " + done + "/" + total)))
          .isEqualTo(3);
      assertThat(withCache.embed(NS, RecallMemory.Progress.NONE))
          .as("nothing is missing the second time")
          .isZero();
      assertThat(counting.texts).isEqualTo(3);
      withCache.recall(NS, RecallQuery.builder("free space", RecallMode.EMBEDDING).k(2).build());

      assertThat(counting.texts).as("the three nodes once, then only the query").isEqualTo(4);
      assertThat(cache.size()).isEqualTo(3);
    }
    assertThat(progress).containsExactly("acme 3/3");
  }
}
